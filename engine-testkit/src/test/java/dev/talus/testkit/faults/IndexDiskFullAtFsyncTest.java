package dev.talus.testkit.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.talus.ClusteringOrder;
import dev.talus.CommitLogSync;
import dev.talus.CompactionOptions;
import dev.talus.DataType;
import dev.talus.IndexDef;
import dev.talus.IndexStatus;
import dev.talus.ResultRow;
import dev.talus.StorageException;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.testkit.FaultInjector;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link DiskFullAtFsyncTest} for the storage-attached index components — the row-key map, a term
 * dictionary, a vector file — written by a flush, a compaction and a background build: a full disk
 * at their fsync discards the output (the flush keeps its memtable, the compaction its inputs, the
 * build its index building) and the disk-full retries redo it by themselves once space is freed;
 * then the indexed reads equal the data, and a power loss keeps every acknowledged row and the
 * index. Waits for the database's own disk-full events, never for a time.
 */
@Timeout(300)
class IndexDiskFullAtFsyncTest {
  private static final Duration WAIT = Duration.ofMinutes(2);
  @TempDir Path tmp;

  private static TalusOptions options(Path dir, DiskFullAtFsyncTest.Events events, boolean bg) {
    return TalusOptions.builder(dir)
        .commitLogSync(CommitLogSync.BATCH)
        .writeStallTimeout(Duration.ofMillis(200))
        .backgroundCompaction(bg)
        .metricsListener(events)
        .build();
  }

  private static Table create(TalusDb db, boolean indexed) {
    Table t =
        db.createTable(
            TableSchema.builder("t")
                .partitionKey("p", DataType.INT)
                .clusteringColumn("c", DataType.INT, ClusteringOrder.ASC)
                .column("v", DataType.TEXT)
                .column("vec", DataType.vector(DataType.FLOAT, 2))
                .compaction(CompactionOptions.sizeTiered().minThreshold(4).build())
                .build());
    if (indexed) {
      index(t);
    }
    return t;
  }

  private static void index(Table t) {
    t.createIndex(IndexDef.sai("t_v", "v"));
    t.createIndex(IndexDef.sai("t_vec", "vec").withOption("similarity_function", "euclidean"));
  }

  private static void write(Table t, Map<Integer, String> expected, int c) {
    t.insert()
        .value("p", c % 5)
        .value("c", c)
        .value("v", "v" + (c % 7))
        .value("vec", new float[] {c, 1})
        .execute();
    expected.put(c, "v" + (c % 7));
  }

  /** What the indexes answer: each value's rows by the term index, all rows by the vector one. */
  private static void assertIndexed(Table t, Map<Integer, String> expected, String when) {
    for (int k = 0; k < 7; k++) {
      String v = "v" + k;
      Map<Integer, String> want = new TreeMap<>();
      expected.forEach(
          (c, x) -> {
            if (x.equals(v)) {
              want.put(c, x);
            }
          });
      Map<Integer, String> got = new TreeMap<>();
      for (ResultRow r : t.select().eq("v", v).execute()) {
        got.put(r.getInt("c"), r.getString("v"));
      }
      assertThat(got).as(when + ": v = " + v).isEqualTo(want);
    }
    List<ResultRow> nearest =
        t.select().orderByAnn("vec", new float[] {0, 1}).limit(3).execute().rows();
    assertThat(nearest.stream().map(r -> r.getInt("c")).toList())
        .as(when + ": nearest vectors")
        .isEqualTo(expected.keySet().stream().limit(3).toList());
  }

  private static List<Path> files(Path dir, String suffix) {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Each index component in turn: the flush output's fsync reports a full disk. */
  @ParameterizedTest
  @ValueSource(strings = {"*-SaiKeys.db*", "*-SaiTerms_t_v.db*", "*-SaiVector_t_vec.db*"})
  void aFlushWhoseIndexComponentFsyncReportsAFullDiskIsRetriedByItself(String component)
      throws InterruptedException {
    Path dir = tmp.resolve("flush");
    FaultInjector faults = new FaultInjector(15);
    DiskFullAtFsyncTest.Events events = new DiskFullAtFsyncTest.Events();
    Map<Integer, String> expected = new TreeMap<>();
    TalusOptions options = options(dir, events, false);
    try (TalusDb db = faults.open(options)) {
      Table t = create(db, true);
      for (int c = 0; c < 40; c++) {
        write(t, expected, c);
      }
      faults.fillDiskAtFsync(component);
      Throwable thrown = catchThrowable(t::flush);
      assertThat(thrown).isInstanceOf(StorageException.class);
      assertThat(thrown.getMessage())
          .contains("No space left on device")
          .contains(dir.resolve("tables").toString())
          .doesNotContain("stopped accepting writes");
      assertThat(events.full.getCount()).as("a disk-full episode, not a stop").isZero();
      assertThat(t.stats().sstableCount()).as("the output is discarded").isZero();
      assertThat(files(dir, "-Data.db")).isEmpty();
      assertIndexed(t, expected, "from the memtable");

      faults.freeDisk();
      events.back.await();
      write(t, expected, 100);
      t.flush();
      assertThat(t.stats().sstableCount()).isBetween(1, 2);
      assertThat(t.indexStatus("t_v").sstablesCovered()).isEqualTo(t.stats().sstableCount());
      assertIndexed(t, expected, "after the retry");
      assertThat(files(dir, ".tmp")).as("the discarded output left nothing").isEmpty();
      faults.crashAndLoseAllUnsynced(db);
    }
    try (TalusDb reopened = faults.open(options)) {
      Table t = reopened.table("t");
      assertIndexed(t, expected, "after a power loss");
    }
  }

  @Test
  void aCompactionWhoseIndexComponentFsyncReportsAFullDiskIsRetriedByItself()
      throws InterruptedException {
    Path dir = tmp.resolve("compaction");
    FaultInjector faults = new FaultInjector(16);
    DiskFullAtFsyncTest.Events events = new DiskFullAtFsyncTest.Events();
    Map<Integer, String> expected = new TreeMap<>();
    TalusOptions options = options(dir, events, true);
    try (TalusDb db = faults.open(options)) {
      Table t = create(db, true);
      db.pauseCompactions();
      for (int s = 0; s < 4; s++) {
        for (int c = s * 10; c < s * 10 + 10; c++) {
          write(t, expected, c);
        }
        t.flush();
      }
      faults.fillDiskAtFsync("*-SaiTerms_t_v.db*");
      db.resumeCompactions();
      events.full.await();
      assertThat(db.diskFullStats().lastFailure()).contains("compaction of table t");
      assertThat(t.stats().sstableCount()).as("the inputs stay").isEqualTo(4);
      assertIndexed(t, expected, "during the episode");

      faults.freeDisk();
      events.back.await();
      t.awaitCompactions();
      assertThat(t.stats().sstableCount()).isEqualTo(1);
      assertThat(t.indexStatus("t_v").sstablesCovered()).isEqualTo(1);
      assertIndexed(t, expected, "after the retry");
      assertThat(files(dir, ".tmp")).isEmpty();
      faults.crashAndLoseAllUnsynced(db);
    }
    try (TalusDb reopened = faults.open(options)) {
      assertIndexed(reopened.table("t"), expected, "after a power loss");
    }
  }

  @Test
  void aBackgroundIndexBuildWhoseFsyncReportsAFullDiskStaysBuildingAndFinishesOnceSpaceIsFreed()
      throws InterruptedException {
    Path dir = tmp.resolve("build");
    FaultInjector faults = new FaultInjector(17);
    DiskFullAtFsyncTest.Events events = new DiskFullAtFsyncTest.Events();
    Map<Integer, String> expected = new TreeMap<>();
    TalusOptions options = options(dir, events, false);
    try (TalusDb db = faults.open(options)) {
      Table t = create(db, false);
      for (int s = 0; s < 3; s++) {
        for (int c = s * 10; c < s * 10 + 10; c++) {
          write(t, expected, c);
        }
        t.flush();
      }
      faults.fillDiskAtFsync("*-SaiTerms_t_v.db*");
      index(t); // built in the background over the 3 SSTables
      events.full.await();
      assertThat(db.diskFullStats().lastFailure()).contains("build of index t_v of table t");
      assertThat(t.indexStatus("t_v").state())
          .as("not failed: waiting for space")
          .isEqualTo(IndexStatus.State.BUILDING);

      faults.freeDisk();
      events.back.await();
      assertThat(t.awaitIndexBuilt("t_v", WAIT)).isTrue();
      assertThat(t.awaitIndexBuilt("t_vec", WAIT)).isTrue();
      assertThat(t.indexStatus("t_v").sstablesCovered()).isEqualTo(3);
      assertIndexed(t, expected, "once built");
      faults.crashAndLoseAllUnsynced(db);
    }
    try (TalusDb reopened = faults.open(options)) {
      Table t = reopened.table("t");
      assertThat(t.awaitIndexBuilt("t_v", WAIT)).isTrue();
      assertIndexed(t, expected, "after a power loss");
      assertThat(files(dir, ".tmp")).isEmpty();
    }
  }
}
