package dev.talus.testkit.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.ClusteringOrder;
import dev.talus.CommitLogSync;
import dev.talus.CompactionOptions;
import dev.talus.DataType;
import dev.talus.InvalidQueryException;
import dev.talus.ResultRow;
import dev.talus.SSTableSummary;
import dev.talus.StorageException;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.testkit.FaultInjector;
import dev.talus.testkit.FaultInjector.Fault;
import dev.talus.testkit.FaultInjector.Operation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failed fsync is final (PostgreSQL's "fsyncgate"): one test per kind of file, through the public
 * API and the {@link FaultInjector}. A failed fsync of the commit log or of a manifest stops the
 * instance (fail-stop): the operation that hit it fails, and every later write, flush, compaction
 * and schema change fails with a {@link StorageException} naming the cause and telling the user to
 * reopen, while reads go on. A failed fsync of an SSTable (flush or compaction output) or of the
 * schema fails that operation only. In every case the reopened database has every acknowledged
 * write, and nothing written by a failed operation is half-visible.
 */
class FsyncFailureIsFinalTest {
  @TempDir Path dir;

  private final FaultInjector faults = new FaultInjector(3);

  private TalusOptions options() {
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
        .compaction(CompactionOptions.sizeTiered().minThreshold(2).build())
        .build();
  }

  /** What the test expects each table to hold: (p * 1000 + c) → v. */
  private final Map<Integer, String> expected = new TreeMap<>();

  private void write(Table t, int p, int c, String v) {
    t.insert().value("p", p).value("c", c).value("v", v).execute();
    expected.put(p * 1000 + c, v);
  }

  private void load(Table t, int from, int n) {
    for (int i = from; i < from + n; i++) {
      write(t, i % 3, i, "v" + i);
    }
  }

  private static Map<Integer, String> read(Table t) {
    Map<Integer, String> out = new TreeMap<>();
    for (int p = 0; p < 3; p++) {
      for (ResultRow r : t.select().eq("p", p).execute()) {
        out.put(p * 1000 + r.getInt("c"), r.getString("v"));
      }
    }
    return out;
  }

  /** Every write, flush, compaction and schema change now fails, naming {@code cause}. */
  private static void assertStopped(TalusDb db, Table t, String cause) {
    List<Runnable> refused =
        List.of(
            () -> t.insert().value("p", 0).value("c", 9999).value("v", "no").execute(),
            () -> t.delete().eq("p", 0).eq("c", 1).execute(),
            () -> db.batch().add(t.insert().value("p", 1).value("c", 1).value("v", "no")).execute(),
            t::flush,
            t::compact,
            t::runNextCompaction,
            t::awaitCompactions,
            () -> t.setCompaction(CompactionOptions.leveled().build()),
            () -> db.createTable(schema("other")),
            t::truncate,
            () -> db.dropTable(t.name()),
            () -> db.dropTableIfExists("ks_absent.none"));
    for (Runnable r : refused) {
      assertThatThrownBy(r::run)
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("stopped accepting writes")
          .hasMessageContaining(cause)
          .hasMessageContaining("open it again");
    }
  }

  /** Reopens, checks the data and the files, and checks that writes, flush and compaction work. */
  private void reopenAndCheck(TalusDb db, String table, Integer uncertainKey) {
    try {
      db.close();
    } catch (StorageException e) {
      // the commit log's close may report its earlier failure; the reopen must cope
    }
    faults.clear();
    try (TalusDb reopened = faults.open(options())) {
      Table t = reopened.table(table);
      Map<Integer, String> got = read(t);
      if (uncertainKey != null) {
        got.remove(uncertainKey); // a write that failed may or may not have reached the disk
      }
      assertThat(got).as("every acknowledged write, nothing else").isEqualTo(expected);
      assertThat(strayFiles(t)).isEmpty();
      load(t, 500, 6);
      t.flush();
      t.compact();
      Map<Integer, String> after = read(t);
      if (uncertainKey != null) {
        after.remove(uncertainKey);
      }
      assertThat(after).isEqualTo(expected);
    }
  }

  private List<String> strayFiles(Table t) {
    Set<Long> live =
        t.sstables().stream().map(SSTableSummary::generation).collect(Collectors.toSet());
    List<String> stray = new ArrayList<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        String name = p.getFileName().toString();
        boolean unlisted =
            name.startsWith("nb-") && !live.contains(Long.parseLong(name.split("-")[1]));
        if (name.endsWith(".tmp") || unlisted) {
          stray.add(name);
        }
      }
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return stray;
  }

  @Test
  void aFailedCommitLogFsyncFailsTheWriteAndStopsTheInstance() {
    TalusDb db = faults.open(options());
    Table t = db.createTable(schema("t"));
    load(t, 0, 12);
    t.flush();
    load(t, 12, 6);

    faults.failNext(Operation.FSYNC, "CommitLog-*", Fault.IO_ERROR);
    assertThatThrownBy(() -> t.insert().value("p", 1).value("c", 777).value("v", "lost").execute())
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("the commit log failed")
        .hasMessageContaining("open it again");
    faults.clear();

    assertStopped(db, t, "the commit log failed");
    assertThat(read(t)).as("reads go on").isEqualTo(expected);
    reopenAndCheck(db, "t", 1000 + 777);
  }

  @Test
  void aFailedManifestFsyncInAFlushStopsTheInstance() {
    TalusDb db = faults.open(options());
    Table t = db.createTable(schema("t"));
    load(t, 0, 12);

    faults.failNext(Operation.FSYNC, "MANIFEST.db", Fault.IO_ERROR);
    assertThatThrownBy(t::flush)
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("flush of table t failed")
        .hasMessageContaining("the manifest of table t");
    faults.clear();

    assertStopped(db, t, "the manifest of table t");
    assertThat(read(t)).as("reads go on").isEqualTo(expected);
    reopenAndCheck(db, "t", null);
  }

  @Test
  void aFailedManifestFsyncInACompactionStopsTheInstance() {
    TalusDb db = faults.open(options());
    Table t = db.createTable(schema("t"));
    load(t, 0, 10);
    t.flush();
    t.delete().eq("p", 1).eq("c", 4).execute();
    expected.remove(1000 + 4);
    load(t, 10, 10);
    t.flush();

    faults.failNext(Operation.FSYNC, "MANIFEST.db", Fault.IO_ERROR);
    assertThatThrownBy(t::compact)
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("compaction of table t failed")
        .hasMessageContaining("the manifest of table t");
    faults.clear();

    assertStopped(db, t, "the manifest of table t");
    assertThat(read(t)).as("reads go on, the delete included").isEqualTo(expected);
    reopenAndCheck(db, "t", null);
  }

  @Test
  void aFailedSSTableFsyncFailsTheFlushOnly() {
    TalusDb db = faults.open(options());
    Table t = db.createTable(schema("t"));
    load(t, 0, 12);

    faults.failNext(Operation.FSYNC, "*Data.db*", Fault.IO_ERROR);
    assertThatThrownBy(t::flush)
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("flush of table t failed")
        .hasMessageNotContaining("stopped");
    assertThat(faults.faultsInjected()).isEqualTo(1);
    assertThat(t.sstables()).isEmpty();

    // not fail-stop: the failed file is abandoned, not synced again; a new flush writes new files
    load(t, 12, 4);
    t.flush(); // the memtable whose flush failed, then the one that took the new writes
    assertThat(t.sstables()).hasSize(2);
    assertThat(read(t)).isEqualTo(expected);
    reopenAndCheck(db, "t", null);
  }

  @Test
  void aFailedSSTableFsyncFailsTheCompactionOnly() {
    TalusDb db = faults.open(options());
    Table t = db.createTable(schema("t"));
    load(t, 0, 10);
    t.flush();
    load(t, 10, 10);
    t.flush();
    List<Long> before = t.sstables().stream().map(SSTableSummary::generation).toList();

    faults.failNext(Operation.FSYNC, "*Index.db*", Fault.DISK_FULL);
    assertThatThrownBy(t::compact)
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("compaction of table t failed")
        .hasMessageContaining("No space left on device")
        .hasMessageNotContaining("stopped");
    assertThat(t.sstables().stream().map(SSTableSummary::generation).toList())
        .as("the inputs stay live")
        .isEqualTo(before);

    load(t, 20, 3);
    t.compact();
    assertThat(read(t)).isEqualTo(expected);
    reopenAndCheck(db, "t", null);
  }

  @Test
  void aFailedSchemaFsyncFailsTheSchemaChangeOnly() {
    TalusDb db = faults.open(options());
    Table t = db.createTable(schema("t"));
    load(t, 0, 6);

    faults.failNext(Operation.FSYNC, "schema.db*", Fault.IO_ERROR);
    assertThatThrownBy(() -> db.createTable(schema("u")))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("cannot create table u")
        .hasMessageNotContaining("stopped");
    assertThatThrownBy(() -> db.table("u")).isInstanceOf(InvalidQueryException.class);

    faults.failNext(Operation.FSYNC, "schema.db*", Fault.IO_ERROR);
    assertThatThrownBy(() -> t.setCompaction(CompactionOptions.leveled().build()))
        .isInstanceOf(StorageException.class);
    assertThat(t.schema().compaction().strategy())
        .isEqualTo(CompactionOptions.Strategy.SIZE_TIERED);

    // not fail-stop: the schema file is rewritten whole, through a new temporary file
    load(t, 6, 6);
    Table u = db.createTable(schema("u"));
    u.insert().value("p", 0).value("c", 0).value("v", "u").execute();
    reopenAndCheck(db, "t", null);
    try (TalusDb reopened = faults.open(options())) {
      assertThat(reopened.table("u").select().eq("p", 0).execute()).hasSize(1);
      assertThat(reopened.table("t").schema().compaction().strategy())
          .isEqualTo(CompactionOptions.Strategy.SIZE_TIERED);
    }
  }
}
