package dev.talus.testkit.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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
import dev.talus.TalusMetricsListener;
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
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A disk that reports itself full at fsync, not at write (NFS, thin-provisioned volumes: {@link
 * FaultInjector#fillDiskAtFsync}), per file kind. A failed fsync is never retried on the same data
 * (fsyncgate; the injected one loses what it should have synced), but what follows depends on
 * whether the data is acknowledged only there: the output of a flush or a compaction is not — the
 * commit log or the inputs hold it — so its files are discarded and the flush or compaction is
 * retried with new files as a disk-full episode, completing by itself once space is freed; the
 * manifest edit and the commit log are the acknowledgement, so ENOSPC at their fsync stops the
 * instance (reopen recovers every acknowledged write); the schema change fails alone. The test
 * waits for the database's own "space is back" event, never for a time.
 */
@Timeout(300)
class DiskFullAtFsyncTest {
  @TempDir Path tmp;

  static final class Events implements TalusMetricsListener {
    final CountDownLatch full = new CountDownLatch(1);
    final CountDownLatch back = new CountDownLatch(1);

    @Override
    public void onDiskFull(String directory, boolean isFull, String detail) {
      (isFull ? full : back).countDown();
    }
  }

  private static TalusOptions options(Path dir, Events events, boolean background) {
    return TalusOptions.builder(dir)
        .commitLogSync(CommitLogSync.BATCH) // acknowledged means synced
        .writeStallTimeout(Duration.ofMillis(200)) // disk-full retries every 20 ms doubling
        .backgroundCompaction(background)
        .metricsListener(events)
        .build();
  }

  private static TableSchema schema(String name) {
    return TableSchema.builder(name)
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT, ClusteringOrder.ASC)
        .column("v", DataType.TEXT)
        .compaction(CompactionOptions.sizeTiered().minThreshold(4).build())
        .build();
  }

  private static void write(Table t, Map<Integer, String> expected, int c) {
    t.insert().value("p", c % 5).value("c", c).value("v", "v" + c).execute();
    expected.put(c, "v" + c);
  }

  private static Map<Integer, String> rows(Table t) {
    Map<Integer, String> out = new TreeMap<>();
    for (int p = 0; p < 5; p++) {
      for (ResultRow r : t.select().eq("p", p).execute()) {
        out.put(r.getInt("c"), r.getString("v"));
      }
    }
    return out;
  }

  private static List<Path> files(Path dir, String suffix) {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Each SSTable component in turn: the flush output's fsync reports a full disk. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "*-Data.db*",
        "*-CompressionInfo.db*",
        "*-Index.db*",
        "*-Filter.db*",
        "*-Stats.db*",
        "*-TOC.txt*"
      })
  void aFlushWhoseOutputFsyncReportsAFullDiskIsRetriedByItselfOnceSpaceIsFreed(String component)
      throws InterruptedException {
    Path dir = tmp.resolve("flush");
    FaultInjector faults = new FaultInjector(5);
    Events events = new Events();
    Map<Integer, String> expected = new TreeMap<>();
    TalusOptions options = options(dir, events, false);
    try (TalusDb db = faults.open(options)) {
      Table t = db.createTable(schema("t"));
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
      assertThat(db.diskFullStats().lastFailure()).contains("flush of table t");
      assertThat(rows(t)).as("the memtable still serves reads").isEqualTo(expected);
      write(t, expected, 100); // writes go on (the commit log is elsewhere)

      faults.freeDisk();
      events.back.await(); // the retries flush with new files, no call from here
      assertThat(db.diskFullStats().waitingForSpace()).isFalse();
      // the failed memtable went out by itself; row 100 went with a retry that switched its
      // memtable out after the write, or is still taking writes if the round that succeeded had
      // switched before it (a retry thread slower than the test's write and freeDisk)
      assertThat(t.stats().sstableCount()).isBetween(1, 2);
      t.flush();
      assertThat(t.stats().sstableCount()).isEqualTo(2);
      assertThat(t.stats().memtableBytes()).isZero();
      assertThat(rows(t)).isEqualTo(expected);
      assertThat(files(dir, ".tmp")).as("the discarded output left nothing").isEmpty();
      // a power loss now keeps only what was fsynced: the retried SSTables and the log hold it all
      faults.crashAndLoseAllUnsynced(db);
    }
    try (TalusDb reopened = faults.open(options)) {
      assertThat(rows(reopened.table("t"))).as("after a power loss").isEqualTo(expected);
      assertThat(reopened.table("t").stats().sstableCount()).isEqualTo(2);
    }
  }

  @Test
  void aBackgroundCompactionWhoseOutputFsyncReportsAFullDiskIsRetriedByItself()
      throws InterruptedException {
    Path dir = tmp.resolve("compaction");
    FaultInjector faults = new FaultInjector(6);
    Events events = new Events();
    Map<Integer, String> expected = new TreeMap<>();
    TalusOptions options = options(dir, events, true);
    try (TalusDb db = faults.open(options)) {
      Table t = db.createTable(schema("t"));
      db.pauseCompactions();
      for (int s = 0; s < 4; s++) {
        for (int c = s * 10; c < s * 10 + 10; c++) {
          write(t, expected, c);
        }
        t.flush();
      }
      List<Path> inputs = files(dir, "Data.db");
      faults.fillDiskAtFsync("*-Data.db*");
      db.resumeCompactions();
      events.full.await();
      assertThat(db.diskFullStats().lastFailure()).contains("compaction of table t");
      assertThat(t.stats().sstableCount()).as("the inputs stay").isEqualTo(4);
      assertThat(t.stats().failedCompactions())
          .as("a full disk is the disk-full retries' work, not the failure backoff's")
          .isZero();
      assertThat(rows(t)).isEqualTo(expected);

      faults.freeDisk();
      events.back.await();
      t.awaitCompactions();
      assertThat(t.stats().sstableCount()).isEqualTo(1);
      assertThat(rows(t)).isEqualTo(expected);
      assertThat(inputs).allMatch(p -> !Files.exists(p));
      assertThat(files(dir, ".tmp")).isEmpty();
    }
    try (TalusDb reopened = faults.open(options)) {
      assertThat(rows(reopened.table("t"))).isEqualTo(expected);
    }
  }

  @Test
  void aManifestFsyncReportingAFullDiskStopsTheInstanceAndTheReopenHasEveryRow() {
    Path dir = tmp.resolve("manifest");
    FaultInjector faults = new FaultInjector(7);
    Events events = new Events();
    Map<Integer, String> expected = new TreeMap<>();
    TalusOptions options = options(dir, events, false);
    TalusDb db = faults.open(options);
    Table t = db.createTable(schema("t"));
    for (int c = 0; c < 40; c++) {
      write(t, expected, c);
    }
    faults.fillDiskAtFsync("MANIFEST.db");
    assertThatThrownBy(t::flush)
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("No space left on device");
    assertThat(db.diskFullStats().episodes())
        .as("not retried: the edit's fate is unknown")
        .isZero();
    assertThatThrownBy(() -> write(t, new TreeMap<>(), 999))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("stopped accepting writes")
        .hasMessageContaining("open it again");
    assertThat(rows(t)).as("reads go on").isEqualTo(expected);
    closeQuietly(db);
    faults.clear();
    try (TalusDb reopened = faults.open(options)) {
      Table r = reopened.table("t");
      assertThat(rows(r)).as("every acknowledged row").isEqualTo(expected);
      write(r, expected, 1000);
      r.flush();
      assertThat(rows(r)).isEqualTo(expected);
    }
  }

  @Test
  void aCommitLogFsyncReportingAFullDiskFailsTheWriteAndStopsTheInstance() {
    Path dir = tmp.resolve("commitlog");
    FaultInjector faults = new FaultInjector(8);
    Events events = new Events();
    Map<Integer, String> expected = new TreeMap<>();
    TalusOptions options = options(dir, events, false);
    TalusDb db = faults.open(options);
    Table t = db.createTable(schema("t"));
    for (int c = 0; c < 20; c++) {
      write(t, expected, c);
    }
    faults.fillDiskAtFsync("CommitLog-*");
    assertThatThrownBy(() -> write(t, new TreeMap<>(), 500))
        .as("BATCH: not acknowledged")
        .isInstanceOf(StorageException.class);
    assertThatThrownBy(() -> write(t, new TreeMap<>(), 501))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("stopped accepting writes")
        .hasMessageContaining("open it again");
    assertThat(db.diskFullStats().episodes()).isZero();
    closeQuietly(db);
    faults.clear();
    try (TalusDb reopened = faults.open(options)) {
      Map<Integer, String> got = rows(reopened.table("t"));
      got.remove(500); // failed, so never acknowledged: it may or may not be there
      assertThat(got).as("every acknowledged row, nothing else").isEqualTo(expected);
    }
  }

  @Test
  void aSchemaFsyncReportingAFullDiskFailsOnlyThatChange() {
    Path dir = tmp.resolve("schema");
    FaultInjector faults = new FaultInjector(9);
    Events events = new Events();
    Map<Integer, String> expected = new TreeMap<>();
    TalusOptions options = options(dir, events, false);
    try (TalusDb db = faults.open(options)) {
      Table t = db.createTable(schema("t"));
      write(t, expected, 1);
      faults.fillDiskAtFsync("schema.db*");
      assertThatThrownBy(() -> db.createTable(schema("u")))
          .isInstanceOf(StorageException.class)
          .hasMessageContaining("No space left on device");
      assertThat(db.findTable("u")).isEmpty();
      write(t, expected, 2); // the database goes on
      t.flush();
      faults.freeDisk();
      db.createTable(schema("u")); // a schema change is not retried by itself: the caller retries
    }
    try (TalusDb reopened = faults.open(options)) {
      assertThat(rows(reopened.table("t"))).isEqualTo(expected);
      assertThat(reopened.findTable("u")).isPresent();
      assertThat(files(dir, ".tmp")).isEmpty();
    }
  }

  private static void closeQuietly(TalusDb db) {
    try {
      db.close();
    } catch (StorageException e) {
      // the commit log's close may report its earlier failure; the reopen must cope
    }
  }
}
