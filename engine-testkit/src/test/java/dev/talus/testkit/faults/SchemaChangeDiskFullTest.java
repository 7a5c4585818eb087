package dev.talus.testkit.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.talus.ClusteringOrder;
import dev.talus.CommitLogSync;
import dev.talus.CompactionOptions;
import dev.talus.DataType;
import dev.talus.ResultRow;
import dev.talus.StorageException;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.testkit.FaultInjector;
import dev.talus.testkit.FaultInjector.Fault;
import dev.talus.testkit.FaultInjector.Operation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A full disk during a schema change: "No space left on device" at each file write that creating a
 * table (schema.db, the table's directory and manifest) or changing a table's compaction
 * (schema.db) makes, in turn. The change fails with {@link StorageException} and is not taken; the
 * instance goes on (a write and a flush work); once space is back the same change succeeds; and the
 * reopened database holds every acknowledged row and the change, with no temporary file left.
 */
class SchemaChangeDiskFullTest {
  @TempDir Path tmp;

  enum Change {
    CREATE_TABLE,
    CHANGE_COMPACTION
  }

  private static TalusOptions options(Path dir) {
    return TalusOptions.builder(dir)
        .commitLogSync(CommitLogSync.BATCH) // acknowledged means synced
        .backgroundCompaction(false)
        .build();
  }

  private static TableSchema schema(String name) {
    return TableSchema.builder(name)
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT, ClusteringOrder.ASC)
        .column("v", DataType.TEXT)
        .compaction(CompactionOptions.sizeTiered().build())
        .build();
  }

  private static void run(Change change, TalusDb db, Table t) {
    switch (change) {
      case CREATE_TABLE -> db.createTable(schema("u"));
      case CHANGE_COMPACTION -> t.setCompaction(CompactionOptions.leveled().build());
    }
  }

  private static boolean taken(Change change, TalusDb db) {
    return switch (change) {
      case CREATE_TABLE -> db.findTable("u").isPresent();
      case CHANGE_COMPACTION ->
          db.table("t").schema().compaction().strategy() == CompactionOptions.Strategy.LEVELED;
    };
  }

  private static Map<Integer, String> rows(Table t) {
    Map<Integer, String> out = new TreeMap<>();
    for (int p = 0; p < 3; p++) {
      for (ResultRow r : t.select().eq("p", p).execute()) {
        out.put(p * 1000 + r.getInt("c"), r.getString("v"));
      }
    }
    return out;
  }

  private static void write(Table t, Map<Integer, String> expected, int p, int c) {
    t.insert().value("p", p).value("c", c).value("v", "v" + c).execute();
    expected.put(p * 1000 + c, "v" + c);
  }

  /** A database with table t holding six acknowledged rows, one of them flushed. */
  private static TalusDb prepared(FaultInjector faults, Path dir, Map<Integer, String> expected) {
    TalusDb db = faults.open(options(dir));
    Table t = db.createTable(schema("t"));
    write(t, expected, 0, 0);
    t.flush();
    for (int c = 1; c < 6; c++) {
      write(t, expected, c % 3, c);
    }
    return db;
  }

  private long writesOf(Change change) {
    FaultInjector faults = new FaultInjector(0);
    try (TalusDb db = prepared(faults, tmp.resolve(change + "-measure"), new TreeMap<>())) {
      long before = faults.count(Operation.WRITE);
      run(change, db, db.table("t"));
      return faults.count(Operation.WRITE) - before;
    }
  }

  @ParameterizedTest
  @EnumSource(Change.class)
  void aFullDiskAtEachWriteFailsTheChangeOnlyAndTheRetryWorks(Change change) {
    long n = writesOf(change);
    assertThat(n).as("%s writes files", change).isPositive();
    for (long k = 1; k <= n; k++) {
      String ctx = change + ", no space at write " + k + " of " + n;
      Path dir = tmp.resolve(change + "-" + k);
      FaultInjector faults = new FaultInjector(k);
      Map<Integer, String> expected = new TreeMap<>();
      TalusDb db = prepared(faults, dir, expected);
      Table t = db.table("t");
      faults.fail(Operation.WRITE, k, Fault.DISK_FULL);
      Throwable thrown = catchThrowable(() -> run(change, db, t));
      assertThat(faults.faultsInjected()).as(ctx + ": the fault was hit").isEqualTo(1);
      assertThat(thrown).as(ctx).isInstanceOf(StorageException.class);
      assertThat(thrown.getMessage()).as(ctx).isNotBlank();
      assertThat(taken(change, db)).as(ctx + ": the failed change is not taken").isFalse();
      // the instance goes on: the full disk failed the schema change alone
      write(t, expected, 1, 100);
      t.flush();
      assertThat(rows(t)).as(ctx).isEqualTo(expected);
      faults.clear(); // space is back
      run(change, db, t);
      assertThat(taken(change, db)).as(ctx + ": the retry").isTrue();
      db.close();
      try (TalusDb reopened = faults.open(options(dir))) {
        assertThat(rows(reopened.table("t"))).as(ctx + ", reopened").isEqualTo(expected);
        assertThat(taken(change, reopened)).as(ctx + ", reopened").isTrue();
        assertThat(temporaryFiles(dir)).as(ctx + ", reopened").isEmpty();
        write(reopened.table("t"), expected, 2, 200);
      }
    }
    System.out.println(
        "[disk-full] " + change + ": ENOSPC at each of its " + n + " file writes, 0 inconsistent");
  }

  private static List<Path> temporaryFiles(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".tmp")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
