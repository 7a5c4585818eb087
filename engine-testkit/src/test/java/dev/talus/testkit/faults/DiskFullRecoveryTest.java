package dev.talus.testkit.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.talus.ClusteringOrder;
import dev.talus.CommitLogSync;
import dev.talus.CompactionOptions;
import dev.talus.DataType;
import dev.talus.DiskFullStats;
import dev.talus.ResultRow;
import dev.talus.StorageException;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusMetricsListener;
import dev.talus.TalusOptions;
import dev.talus.WriteRejectedException;
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

/**
 * A disk that fills up under a flush and under a background compaction, then has room again: the
 * failed flush keeps its memtable (reads go on), the failed compaction its inputs, neither leaves a
 * partial file; writes wait for memtable space and are then refused with a message that says the
 * disk is full; and once space is freed the flush and the compaction complete by themselves — no
 * user call — with every acknowledged row kept. The test waits for the database's own "space is
 * back" event (a latch), never for a time; the timeout only stops a hung run.
 */
@Timeout(300)
class DiskFullRecoveryTest {
  @TempDir Path tmp;

  /** The full disk: SSTable components, manifests and the schema; not the commit log. */
  private static final String DATA_FILES = "*.db*";

  /** Records the database's disk-full events. */
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
        .memtableSpaceBytes(1 << 20)
        .writeStallTimeout(Duration.ofMillis(200)) // retries every 20 ms doubling to 200 ms
        .backgroundCompaction(background)
        .metricsListener(events)
        .build();
  }

  private static TableSchema schema() {
    return TableSchema.builder("t")
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT, ClusteringOrder.ASC)
        .column("v", DataType.TEXT)
        .compaction(CompactionOptions.sizeTiered().minThreshold(4).build())
        .build();
  }

  private static String value(int c) {
    return c + ":" + "x".repeat(4000);
  }

  private static void write(Table t, Map<Integer, String> expected, int c) {
    t.insert().value("p", c % 5).value("c", c).value("v", value(c)).execute();
    expected.put(c, value(c));
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

  @Test
  void aFlushFailedOnAFullDiskCompletesByItselfOnceSpaceIsFreed() throws InterruptedException {
    Path dir = tmp.resolve("flush");
    FaultInjector faults = new FaultInjector(1);
    Events events = new Events();
    Map<Integer, String> expected = new TreeMap<>();
    TalusOptions options = options(dir, events, false);
    try (TalusDb db = faults.open(options)) {
      Table t = db.createTable(schema());
      for (int c = 0; c < 40; c++) {
        write(t, expected, c);
      }
      faults.fillDisk(DATA_FILES);
      Throwable thrown = catchThrowable(t::flush);
      assertThat(thrown).isInstanceOf(StorageException.class);
      assertThat(thrown.getMessage())
          .contains("No space left on device")
          .contains(dir.resolve("tables").toString());
      assertThat(events.full.getCount()).as("the episode was reported").isZero();
      DiskFullStats during = db.diskFullStats();
      assertThat(during.waitingForSpace()).isTrue();
      assertThat(during.episodes()).isEqualTo(1);
      assertThat(during.failures()).isPositive();
      assertThat(during.lastFailure()).contains("flush of table t");
      assertThat(rows(t)).as("the memtable still serves reads").isEqualTo(expected);

      // Writes go on into memory until the memtable space is full, then are refused clearly.
      WriteRejectedException rejected = null;
      for (int c = 40; c < 2_000 && rejected == null; c++) {
        try {
          write(t, expected, c);
        } catch (WriteRejectedException e) {
          rejected = e;
          expected.remove(c);
        }
      }
      assertThat(rejected).as("a write was refused while the disk was full").isNotNull();
      assertThat(rejected.getMessage()).contains("disk is full").contains("Nothing was written");
      assertThat(t.stats().sstableCount()).isZero();

      faults.freeDisk();
      events.back.await(); // the retries flush without a call from here
      DiskFullStats after = db.diskFullStats();
      assertThat(after.waitingForSpace()).isFalse();
      assertThat(after.episodes()).isEqualTo(1);
      assertThat(after.retries()).isPositive();
      assertThat(t.stats().sstableCount()).as("the retried flush made SSTables").isPositive();
      assertThat(t.stats().memtableBytes()).as("every memtable was flushed").isZero();
      assertThat(rows(t)).isEqualTo(expected);
      assertThat(files(dir, ".tmp")).as("no partial SSTable left").isEmpty();
      write(t, expected, 5_000); // writes are taken again
    }
    try (TalusDb reopened = faults.open(options)) {
      assertThat(rows(reopened.table("t"))).as("reopened").isEqualTo(expected);
      assertThat(files(dir, ".tmp")).isEmpty();
    }
  }

  @Test
  void aBackgroundCompactionFailedOnAFullDiskCompletesByItself() throws InterruptedException {
    Path dir = tmp.resolve("compaction");
    FaultInjector faults = new FaultInjector(2);
    Events events = new Events();
    Map<Integer, String> expected = new TreeMap<>();
    TalusOptions options = options(dir, events, true);
    try (TalusDb db = faults.open(options)) {
      Table t = db.createTable(schema());
      db.pauseCompactions(); // four SSTables first, then the compaction they call for
      for (int s = 0; s < 4; s++) {
        for (int c = s * 10; c < s * 10 + 10; c++) {
          write(t, expected, c);
        }
        t.flush();
      }
      assertThat(t.stats().sstableCount()).isEqualTo(4);
      List<Path> liveData = files(dir, "Data.db");
      faults.fillDisk(DATA_FILES);
      db.resumeCompactions(); // the background compaction starts and hits the full disk
      events.full.await();
      DiskFullStats during = db.diskFullStats();
      assertThat(during.waitingForSpace()).isTrue();
      assertThat(during.lastFailure()).contains("compaction of table t");
      assertThat(rows(t)).as("the inputs still serve reads").isEqualTo(expected);

      faults.freeDisk();
      events.back.await();
      assertThat(t.stats().completedCompactions()).as("the retry compacted").isPositive();
      assertThat(t.stats().sstableCount()).isLessThan(4);
      assertThat(rows(t)).isEqualTo(expected);
      assertThat(db.diskFullStats().retries()).isPositive();
      t.awaitCompactions();
      assertThat(files(dir, ".tmp")).isEmpty();
      assertThat(liveData).allMatch(p -> !Files.exists(p)); // the inputs are gone
    }
    try (TalusDb reopened = faults.open(options)) {
      assertThat(rows(reopened.table("t"))).as("reopened").isEqualTo(expected);
      assertThat(files(dir, ".tmp")).isEmpty();
    }
  }
}
