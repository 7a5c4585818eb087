package dev.talus.testkit.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.talus.ClusteringOrder;
import dev.talus.CommitLogSync;
import dev.talus.CommitLogSyncStats;
import dev.talus.DataType;
import dev.talus.ResultRow;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.WriteRejectedException;
import dev.talus.WriteTimeoutException;
import dev.talus.testkit.FaultInjector;
import dev.talus.testkit.FaultInjector.Operation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A disk that hangs instead of failing ({@link FaultInjector#stall}: an fsync or write blocks until
 * released). What is blocked and what goes on: a stalled commit-log fsync blocks the GROUP and
 * BATCH writers waiting for it, while reads of memtables and SSTables are served, and shows in
 * {@link TalusDb#commitLogSyncStats()}; past the write timeout such a write throws {@link
 * WriteTimeoutException} and is applied, whole, once the fsync completes (a flush of its table
 * waits for it, and shows so; a conditional write to its partition and a write held up by that
 * flush give up with nothing written); PERIODIC writers do not wait for the fsync and go on; a
 * flush whose SSTable fsync stalls blocks neither writes nor reads, until the memtable space is
 * full: then writers wait and are refused with {@link WriteRejectedException} after the write stall
 * timeout, while reads go on; {@code close()} waits for the stalled fsync and then closes cleanly,
 * with the write it was making durable acknowledged and there after a reopen. The tests wait for
 * the stalled operation itself ({@link FaultInjector#awaitStalled}), never for a time: an operation
 * that must not block is run on the test thread, and the timeout only stops a run that hung (a
 * regression).
 */
@Timeout(120)
class DiskStallTest {
  @TempDir Path tmp;

  private static TalusOptions options(Path dir, CommitLogSync sync) {
    return TalusOptions.builder(dir)
        .commitLogSync(sync)
        .commitLogSyncPeriod(Duration.ofMillis(10))
        .backgroundCompaction(false)
        .build();
  }

  private static TableSchema schema() {
    return schema("t");
  }

  private static TableSchema schema(String name) {
    return TableSchema.builder(name)
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT, ClusteringOrder.ASC)
        .column("v", DataType.TEXT)
        .build();
  }

  private static void insert(Table t, int c) {
    t.insert().value("p", c % 3).value("c", c).value("v", "v" + c).execute();
  }

  private static void write(Table t, Map<Integer, String> expected, int c) {
    insert(t, c);
    expected.put(c, "v" + c);
  }

  private static Map<Integer, String> rows(Table t) {
    Map<Integer, String> out = new TreeMap<>();
    for (int p = 0; p < 3; p++) {
      for (ResultRow r : t.select().eq("p", p).execute()) {
        out.put(r.getInt("c"), r.getString("v"));
      }
    }
    return out;
  }

  /** Rows 0..9 in an SSTable, 10..19 in the memtable. */
  private static Table loaded(TalusDb db, Map<Integer, String> expected) {
    Table t = db.createTable(schema());
    for (int c = 0; c < 10; c++) {
      write(t, expected, c);
    }
    t.flush();
    for (int c = 10; c < 20; c++) {
      write(t, expected, c);
    }
    return t;
  }

  @ParameterizedTest
  @EnumSource(
      value = CommitLogSync.class,
      names = {"GROUP", "BATCH"})
  void aStalledCommitLogFsyncBlocksItsWritersButNotReaders(CommitLogSync sync) throws Exception {
    Path dir = tmp.resolve(sync.name());
    FaultInjector faults = new FaultInjector(1);
    Map<Integer, String> expected = new TreeMap<>();
    try (TalusDb db = faults.open(options(dir, sync))) {
      Table t = loaded(db, expected);
      faults.stall(Operation.FSYNC, "CommitLog-*");
      CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> insert(t, 100));
      faults.awaitStalled(1); // the writer's fsync hangs
      assertThat(db.commitLogSyncStats().syncRunningSince()).as("the stall shows").isPresent();
      Map<Integer, String> seen = rows(t); // reads of the SSTable and the memtable go on
      seen.remove(100); // in flight: may or may not be visible yet
      assertThat(seen).isEqualTo(expected);
      assertThat(writer).as("the writer waits for its fsync").isNotDone();
      faults.releaseStalls();
      writer.get();
      expected.put(100, "v100");
      assertThat(rows(t)).isEqualTo(expected);
      write(t, expected, 101);
    }
    try (TalusDb reopened = faults.open(options(dir, sync))) {
      assertThat(rows(reopened.table("t"))).isEqualTo(expected);
    }
  }

  /**
   * A batch over two tables whose commit-log fsync stalls past the write timeout: refused with
   * {@link WriteTimeoutException} ({@code logged}), invisible meanwhile, shown in the stats; reads
   * go on; a conditional write to its partition, and a write held up by a flush that waits for it,
   * give up with nothing written; once the fsync completes the batch is applied whole, in the
   * memtable the waiting flush then writes, and survives a crash.
   */
  @ParameterizedTest
  @EnumSource(
      value = CommitLogSync.class,
      names = {"GROUP", "BATCH"})
  void aWriteWhoseCommitLogFsyncStallsTimesOutAndIsAppliedWholeOnceItCompletes(CommitLogSync sync)
      throws Exception {
    Path dir = tmp.resolve("timeout-" + sync);
    FaultInjector faults = new FaultInjector(6);
    Map<Integer, String> expected = new TreeMap<>();
    TalusOptions timeout =
        TalusOptions.builder(dir)
            .commitLogSync(sync)
            .writeTimeout(Duration.ofMillis(200))
            .backgroundCompaction(false)
            .build();
    TalusDb db = faults.open(timeout);
    Table t = loaded(db, expected);
    Table u = db.createTable(schema("u"));
    faults.stall(Operation.FSYNC, "CommitLog-*");
    // on this thread: a write that waited without a timeout would hang the test
    WriteTimeoutException timedOut =
        catchThrowableOfType(
            WriteTimeoutException.class,
            () ->
                db.batch()
                    .add(t.insert().value("p", 0).value("c", 500).value("v", "b500"))
                    .add(u.insert().value("p", 0).value("c", 500).value("v", "b500"))
                    .execute());
    assertThat(timedOut).isNotNull();
    assertThat(timedOut.logged()).isTrue();
    assertThat(timedOut.getMessage())
        .contains("not acknowledged within PT0.2S")
        .contains("the commit log's sync has been running since")
        .contains("will be applied, as a whole, once that fsync completes");
    CommitLogSyncStats stats = db.commitLogSyncStats();
    assertThat(stats.syncMode()).isEqualTo(sync);
    assertThat(stats.syncRunningSince()).as("the stall shows").isPresent();
    assertThat(stats.writesTimedOut()).isEqualTo(1);
    assertThat(stats.writesAwaitingSync()).isEqualTo(1);
    assertThat(rows(t)).as("reads go on; the batch is not visible").isEqualTo(expected);
    assertThat(rows(u)).isEmpty();

    WriteTimeoutException conditional =
        catchThrowableOfType(
            WriteTimeoutException.class,
            () ->
                t.insert()
                    .value("p", 0)
                    .value("c", 501)
                    .value("v", "x")
                    .ifNotExists()
                    .executeConditional());
    assertThat(conditional.logged()).isFalse();
    assertThat(conditional.getMessage())
        .contains("an earlier write to the same partition of table t")
        .contains("nothing was written");

    CompletableFuture<Void> flush = CompletableFuture.runAsync(t::flush);
    while (t.stats().flushRunningSince().isEmpty()) {
      Thread.sleep(1); // waiting for the flush to reach the pending write, not for a time
    }
    WriteTimeoutException barrier =
        catchThrowableOfType(WriteTimeoutException.class, () -> insert(t, 700));
    assertThat(barrier.logged()).isFalse();
    assertThat(barrier.getMessage()).contains("the write barrier of table t");
    assertThat(flush).as("the flush waits for the pending write").isNotDone();

    faults.releaseStalls();
    flush.get();
    u.flush();
    expected.put(500, "b500");
    assertThat(t.stats().memtableBytes())
        .as("the batch went into the memtable the waiting flush wrote")
        .isZero();
    assertThat(rows(t)).isEqualTo(expected);
    assertThat(rows(u)).containsExactly(Map.entry(500, "b500"));
    assertThat(db.commitLogSyncStats().writesAwaitingSync()).isZero();
    assertThat(db.commitLogSyncStats().writesTimedOut()).isEqualTo(1);
    write(t, expected, 101);
    FaultInjector.crash(db);
    try (TalusDb reopened = faults.open(timeout)) {
      assertThat(rows(reopened.table("t"))).isEqualTo(expected);
      assertThat(rows(reopened.table("u"))).containsExactly(Map.entry(500, "b500"));
    }
  }

  @Test
  void periodicWritersGoOnWhileTheCommitLogFsyncStalls() throws Exception {
    Path dir = tmp.resolve("periodic");
    FaultInjector faults = new FaultInjector(2);
    Map<Integer, String> expected = new TreeMap<>();
    try (TalusDb db = faults.open(options(dir, CommitLogSync.PERIODIC))) {
      Table t = loaded(db, expected);
      faults.stall(Operation.FSYNC, "CommitLog-*");
      write(t, expected, 99); // PERIODIC: acknowledged before its fsync
      faults.awaitStalled(1); // the log's sync thread hangs in its periodic fsync of it
      assertThat(db.commitLogSyncStats().syncRunningSince()).as("the stall shows").isPresent();
      for (int c = 100; c < 300; c++) {
        write(t, expected, c); // on this thread: a write that blocked would hang the test
      }
      assertThat(rows(t)).isEqualTo(expected);
      faults.releaseStalls();
    }
    try (TalusDb reopened = faults.open(options(dir, CommitLogSync.PERIODIC))) {
      assertThat(rows(reopened.table("t"))).isEqualTo(expected);
    }
  }

  @Test
  void aFlushStalledOnItsSSTableFsyncBlocksNeitherWritesNorReads() throws Exception {
    Path dir = tmp.resolve("flush");
    FaultInjector faults = new FaultInjector(3);
    Map<Integer, String> expected = new TreeMap<>();
    try (TalusDb db = faults.open(options(dir, CommitLogSync.BATCH))) {
      Table t = loaded(db, expected);
      faults.stall(Operation.FSYNC, "*Data.db*");
      CompletableFuture<Void> flush = CompletableFuture.runAsync(t::flush);
      faults.awaitStalled(1);
      for (int c = 100; c < 120; c++) {
        write(t, expected, c); // into the fresh memtable, on this thread
      }
      assertThat(rows(t)).isEqualTo(expected);
      assertThat(t.stats().sstableCount()).isEqualTo(1);
      assertThat(t.stats().flushRunningSince()).as("stats show the stalled flush").isPresent();
      assertThat(flush).isNotDone();
      faults.releaseStalls();
      flush.get();
      assertThat(t.stats().sstableCount()).isEqualTo(2);
      assertThat(t.stats().flushRunningSince()).isEmpty();
      assertThat(rows(t)).isEqualTo(expected);
    }
    try (TalusDb reopened = faults.open(options(dir, CommitLogSync.BATCH))) {
      assertThat(rows(reopened.table("t"))).isEqualTo(expected);
    }
  }

  @Test
  void writesFillingMemtableSpaceBehindAStalledFlushAreRefusedCleanlyWhileReadsGoOn()
      throws Exception {
    Path dir = tmp.resolve("backpressure");
    FaultInjector faults = new FaultInjector(5);
    Map<Integer, String> expected = new TreeMap<>();
    TalusOptions small =
        TalusOptions.builder(dir)
            .commitLogSync(CommitLogSync.PERIODIC)
            .memtableSpaceBytes(1 << 20)
            .writeStallTimeout(Duration.ofMillis(200))
            .backgroundCompaction(false)
            .build();
    String big = "x".repeat(1000);
    try (TalusDb db = faults.open(small)) {
      Table t = loaded(db, expected);
      faults.stall(Operation.FSYNC, "*Data.db*");
      // every flush now hangs at its Data.db fsync, so nothing frees memtable space: the writes
      // (on this thread) go on until the space is full, then one waits and is refused
      WriteRejectedException refused = null;
      int c = 1000;
      for (; c < 100_000 && refused == null; c++) {
        try {
          t.insert().value("p", c % 3).value("c", c).value("v", big).execute();
          expected.put(c, big);
        } catch (WriteRejectedException e) {
          refused = e;
        }
      }
      assertThat(refused).as("a write was refused once memtable space stayed full").isNotNull();
      assertThat(refused.getMessage())
          .contains("memtable space (1048576 bytes) stayed full for PT0.2S")
          .contains("Nothing was written; retry later");
      int refusedRow = c - 1;
      faults.awaitStalled(1); // the flush that holds the space hangs at its fsync
      assertThat(rows(t)).as("reads of memtables and SSTables go on").isEqualTo(expected);
      assertThat(t.stats().memtableBytes()).isGreaterThan(1 << 19);
      assertThat(t.stats().flushRunningSince()).as("stats show the stalled flush").isPresent();
      assertThat(expected).doesNotContainKey(refusedRow);
      faults.releaseStalls();
      t.flush(); // after the stalled flush, so the space is free again
      write(t, expected, refusedRow); // the refused write, retried, is taken
      assertThat(rows(t)).isEqualTo(expected);
    }
    try (TalusDb reopened = faults.open(small)) {
      assertThat(rows(reopened.table("t"))).isEqualTo(expected);
    }
  }

  @Test
  void closeDuringAStalledFsyncFinishesOnceReleased() throws Exception {
    Path dir = tmp.resolve("close");
    FaultInjector faults = new FaultInjector(4);
    Map<Integer, String> expected = new TreeMap<>();
    TalusDb db = faults.open(options(dir, CommitLogSync.BATCH));
    Table t = loaded(db, expected);
    faults.stall(Operation.FSYNC, "CommitLog-*");
    CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> insert(t, 100));
    faults.awaitStalled(1);
    CompletableFuture<Void> close = CompletableFuture.runAsync(db::close);
    faults.releaseStalls();
    writer.get(); // acknowledged: close let the write in flight finish
    expected.put(100, "v100");
    close.get();
    try (TalusDb reopened = faults.open(options(dir, CommitLogSync.BATCH))) {
      assertThat(rows(reopened.table("t"))).isEqualTo(expected);
    }
  }
}
