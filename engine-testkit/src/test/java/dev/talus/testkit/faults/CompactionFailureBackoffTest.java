package dev.talus.testkit.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.talus.ClusteringOrder;
import dev.talus.CommitLogSync;
import dev.talus.CompactionOptions;
import dev.talus.CorruptSSTableException;
import dev.talus.DataType;
import dev.talus.DiskFailurePolicy;
import dev.talus.ManualClock;
import dev.talus.ResultRow;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TableStats;
import dev.talus.TalusDb;
import dev.talus.TalusMetricsListener;
import dev.talus.TalusOptions;
import dev.talus.testkit.FaultInjector;
import dev.talus.testkit.FaultInjector.Fault;
import dev.talus.testkit.FaultInjector.Operation;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A background compaction that fails for a reason other than a full disk (an injected I/O error on
 * its output, a corrupt input SSTable) backs off: no retry before the database clock reaches 1 s
 * after the failure, the delay doubling with each further failure up to 5 min, until one goes
 * through. The clock is a {@link ManualClock} moved by the test one second at a time, and after
 * every second the test asks for the background compactions again ({@link
 * TalusDb#resumeCompactions()}): a missing backoff would compact at every ask. The test waits for
 * the attempts that are due (a failure or a compaction event), never for a time; the timeouts only
 * end a hung run.
 */
@Timeout(300)
class CompactionFailureBackoffTest {
  @TempDir Path tmp;

  /** The compaction outcomes, in order: "failed <n> <retryAfter> <cause>" or "compacted". */
  static final class Events implements TalusMetricsListener {
    final BlockingQueue<String> outcomes = new LinkedBlockingQueue<>();

    @Override
    public void onCompactionFailure(String table, int inARow, Duration retryAfter, String cause) {
      outcomes.add("failed " + inARow + " " + retryAfter + " " + cause);
    }

    @Override
    public void onCompaction(String table, long bytesIn, long bytesOut) {
      outcomes.add("compacted");
    }

    String next() throws InterruptedException {
      String e = outcomes.poll(120, TimeUnit.SECONDS);
      assertThat(e).as("an attempt that was due happened").isNotNull();
      return e;
    }
  }

  private static TableSchema schema() {
    return schema(4);
  }

  private static TableSchema schema(int minThreshold) {
    return TableSchema.builder("t")
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT, ClusteringOrder.ASC)
        .column("v", DataType.TEXT)
        .compaction(CompactionOptions.sizeTiered().minThreshold(minThreshold).build())
        .build();
  }

  private static TalusOptions.Builder options(Path dir, ManualClock clock, Events events) {
    return TalusOptions.builder(dir)
        .clock(clock)
        .commitLogSync(CommitLogSync.BATCH)
        .backgroundCompaction(true)
        .chunkCacheBytes(0) // reads go to the files, so damage is seen
        .metricsListener(events);
  }

  /** Four SSTables of ten rows each, with their compaction held back. */
  private static Map<Integer, String> fourSSTables(TalusDb db, Table t) {
    Map<Integer, String> expected = new TreeMap<>();
    db.pauseCompactions();
    for (int s = 0; s < 4; s++) {
      for (int c = s * 10; c < s * 10 + 10; c++) {
        t.insert().value("p", s).value("c", c).value("v", "v" + c).execute();
        expected.put(c, "v" + c);
      }
      t.flush();
    }
    assertThat(t.stats().sstableCount()).isEqualTo(4);
    return expected;
  }

  private static Map<Integer, String> rows(Table t) {
    Map<Integer, String> out = new TreeMap<>();
    for (int p = 0; p < 4; p++) {
      for (ResultRow r : t.select().eq("p", p).execute()) {
        out.put(r.getInt("c"), r.getString("v"));
      }
    }
    return out;
  }

  /** The delay the backoff promises after the {@code n}-th failure in a row. */
  private static Duration delayAfter(int n) {
    long seconds = 1L << Math.min(n - 1, 20);
    return Duration.ofSeconds(Math.min(seconds, 300));
  }

  /**
   * Moves the clock one second at a time over {@code span}, asking for compactions after every
   * second, and returns the outcomes of the attempts that were due, checking each failure's delay.
   */
  private static int driveClock(
      TalusDb db, Table t, ManualClock clock, Events events, Duration span, int failedSoFar)
      throws InterruptedException {
    int failed = failedSoFar;
    Instant end = clock.instant().plus(span);
    while (clock.instant().isBefore(end)) {
      // read before the step: once the clock reaches it, the database's own wake-up may run the
      // attempt before this thread asks
      TableStats s = t.stats();
      if (s.consecutiveCompactionFailures() == 0) {
        return failed; // it went through
      }
      Instant retryAt = s.compactionRetryAt().orElseThrow();
      clock.advance(Duration.ofSeconds(1));
      db.resumeCompactions(); // asks for a background compaction every second
      if (clock.instant().isBefore(retryAt)) {
        assertThat(events.outcomes).as("no attempt before %s (now %s)", retryAt, clock).isEmpty();
        continue;
      }
      String outcome = events.next(); // due: the ask (or the database's own wake-up) ran it
      if (outcome.equals("compacted")) {
        return failed;
      }
      failed++;
      assertThat(outcome).startsWith("failed " + failed + " " + delayAfter(failed) + " ");
      TableStats after = t.stats();
      assertThat(after.consecutiveCompactionFailures()).isEqualTo(failed);
      assertThat(after.compactionRetryAt()).contains(clock.instant().plus(delayAfter(failed)));
    }
    return failed;
  }

  @Test
  void aCompactionFailingFourTimesIsRetriedAfterOneTwoFourAndEightSecondsThenGoesThrough()
      throws InterruptedException {
    ManualClock clock = ManualClock.startingAtDefault();
    Events events = new Events();
    FaultInjector faults = new FaultInjector(3);
    try (TalusDb db = faults.open(options(tmp.resolve("db"), clock, events).build())) {
      Table t = db.createTable(schema());
      Map<Integer, String> expected = fourSSTables(db, t);
      // each attempt stops at its first failed write of the output's Data.db
      faults.failNext(Operation.WRITE, "*Data.db*", Fault.IO_ERROR, 4);
      Instant start = clock.instant();
      db.resumeCompactions();
      assertThat(events.next()).startsWith("failed 1 PT1S compaction of table t failed: ");
      TableStats first = t.stats();
      assertThat(first.failedCompactions()).isEqualTo(1);
      assertThat(first.lastCompactionFailure()).contains("EIO");
      assertThat(first.compactionRetryAt()).contains(start.plusSeconds(1));
      assertThat(rows(t)).as("the inputs serve reads").isEqualTo(expected);

      int failed = driveClock(db, t, clock, events, Duration.ofMinutes(10), 1);

      assertThat(failed).isEqualTo(4);
      // attempts at 0, 1, 3, 7 s failed; the one at 15 s went through
      assertThat(Duration.between(start, clock.instant())).isEqualTo(Duration.ofSeconds(15));
      TableStats s = t.stats();
      assertThat(s.completedCompactions()).isEqualTo(1);
      assertThat(s.sstableCount()).isEqualTo(1);
      assertThat(s.failedCompactions()).isEqualTo(4);
      assertThat(s.consecutiveCompactionFailures()).isZero();
      assertThat(s.compactionRetryAt()).isEmpty();
      assertThat(rows(t)).isEqualTo(expected);
      t.awaitCompactions();
      assertThat(events.outcomes).as("nothing after it went through").isEmpty();
    }
  }

  @Test
  void aFailedCompactionIsRetriedByItselfOnceItsDelayHasPassed() throws InterruptedException {
    ManualClock clock = ManualClock.startingAtDefault();
    Events events = new Events();
    FaultInjector faults = new FaultInjector(5);
    try (TalusDb db = faults.open(options(tmp.resolve("db"), clock, events).build())) {
      Table t = db.createTable(schema());
      Map<Integer, String> expected = fourSSTables(db, t);
      faults.failNext(Operation.WRITE, "*Data.db*", Fault.IO_ERROR, 1);
      db.resumeCompactions();
      assertThat(events.next()).startsWith("failed 1 PT1S ");
      clock.advance(Duration.ofSeconds(1));
      // no flush, no ask: the database's own wake-up starts the retry
      assertThat(events.next()).isEqualTo("compacted");
      assertThat(t.stats().consecutiveCompactionFailures()).isZero();
      assertThat(rows(t)).isEqualTo(expected);
    }
  }

  @Test
  void aCompactionThatAlwaysFailsIsTriedTwentyTimesInAnHourNotAtEveryAsk()
      throws InterruptedException {
    ManualClock clock = ManualClock.startingAtDefault();
    Events events = new Events();
    FaultInjector faults = new FaultInjector(4);
    try (TalusDb db = faults.open(options(tmp.resolve("db"), clock, events).build())) {
      Table t = db.createTable(schema());
      Map<Integer, String> expected = fourSSTables(db, t);
      faults.failNext(Operation.WRITE, "*Data.db*", Fault.IO_ERROR, Long.MAX_VALUE);
      db.resumeCompactions();
      assertThat(events.next()).startsWith("failed 1 PT1S ");

      int failed = driveClock(db, t, clock, events, Duration.ofHours(1), 1);

      // tries at 0, 1, 3, 7, ..., 511 s (10), then every 300 s up to 3,511 s (10 more): 20
      // attempts in 3,600 asks
      assertThat(failed).isEqualTo(20);
      TableStats s = t.stats();
      assertThat(s.failedCompactions()).isEqualTo(20);
      assertThat(s.consecutiveCompactionFailures()).isEqualTo(20);
      assertThat(s.completedCompactions()).isZero();
      assertThat(rows(t)).isEqualTo(expected);

      faults.clear(); // the disk is well again: the next due retry goes through
      clock.advance(Duration.ofMinutes(5));
      db.resumeCompactions();
      assertThat(events.next()).isEqualTo("compacted");
      assertThat(t.stats().consecutiveCompactionFailures()).isZero();
      assertThat(t.stats().sstableCount()).isEqualTo(1);
      assertThat(rows(t)).isEqualTo(expected);
    }
  }

  private static Path dataFileOf(Path dir, long generation) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      String name = "-" + generation + "-";
      return s.filter(p -> p.getFileName().toString().endsWith("Data.db"))
          .filter(p -> p.getFileName().toString().contains(name))
          .findFirst()
          .orElseThrow();
    }
  }

  /** Flips 8 bytes in the middle of {@code f}: inside a chunk, never its header or footer. */
  private static void damage(Path f) throws IOException {
    try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "rw")) {
      long mid = r.length() / 2;
      for (int i = 0; i < 8; i++) {
        r.seek(mid + i);
        int b = r.read();
        r.seek(mid + i);
        r.write(b ^ 0x5A);
      }
    }
  }

  /**
   * Builds four SSTables, closes, damages the first one's Data.db, and returns it; the damaged
   * SSTable holds partition 0.
   */
  private Path damagedDatabase(Path dir, int minThreshold) throws IOException {
    long firstGeneration;
    try (TalusDb db =
        TalusDb.open(
            TalusOptions.builder(dir)
                .commitLogSync(CommitLogSync.BATCH)
                .backgroundCompaction(false)
                .build())) {
      Table t = db.createTable(schema(minThreshold));
      for (int s = 0; s < 4; s++) {
        for (int c = s * 10; c < s * 10 + 10; c++) {
          t.insert().value("p", s).value("c", c).value("v", "v" + c + "x".repeat(200)).execute();
        }
        t.flush();
      }
      firstGeneration = t.sstables().get(0).generation();
    }
    Path data = dataFileOf(dir, firstGeneration);
    damage(data);
    return data;
  }

  @Test
  void aCompactionOverACorruptSSTableBacksOffAndFailReadsStillFail()
      throws IOException, InterruptedException {
    Path dir = tmp.resolve("fail");
    Path damaged = damagedDatabase(dir, 4);
    ManualClock clock = ManualClock.startingAtDefault();
    Events events = new Events();
    try (TalusDb db = TalusDb.open(options(dir, clock, events).build())) {
      Table t = db.table("t");
      db.resumeCompactions();
      String first = events.next();
      assertThat(first).startsWith("failed 1 PT1S compaction of table t failed: ");
      assertThat(first).contains(damaged.getFileName().toString());
      assertThat(catchThrowable(() -> t.select().eq("p", 0).execute()))
          .as("FAIL: a read of the damaged SSTable still fails")
          .isInstanceOf(CorruptSSTableException.class);

      int failed = driveClock(db, t, clock, events, Duration.ofMinutes(1), 1);

      assertThat(failed).as("tries at 0, 1, 3, 7, 15, 31 s in a minute").isEqualTo(6);
      assertThat(t.stats().sstableCount()).as("nothing quarantined, nothing lost").isEqualTo(4);
      assertThat(t.stats().quarantinedSSTables()).isZero();
      assertThat(Files.exists(damaged)).isTrue();
    }
  }

  @Test
  void underQuarantineTheRetryAfterTheDamagedSSTableWasSetAsideGoesThrough()
      throws IOException, InterruptedException {
    Path dir = tmp.resolve("quarantine");
    damagedDatabase(dir, 3); // the three intact SSTables are enough for a compaction
    ManualClock clock = ManualClock.startingAtDefault();
    Events events = new Events();
    try (TalusDb db =
        TalusDb.open(
            options(dir, clock, events).diskFailurePolicy(DiskFailurePolicy.QUARANTINE).build())) {
      Table t = db.table("t");
      db.resumeCompactions();
      assertThat(events.next()).startsWith("failed 1 PT1S ");
      // the compaction does not quarantine (its inputs are held); the read does
      t.select().eq("p", 0).execute();
      assertThat(t.stats().quarantinedSSTables()).isEqualTo(1);
      assertThat(t.stats().sstableCount()).isEqualTo(3);

      int failed = driveClock(db, t, clock, events, Duration.ofMinutes(1), 1);

      assertThat(failed).as("the retry after 1 s went through").isEqualTo(1);
      TableStats s = t.stats();
      assertThat(s.consecutiveCompactionFailures()).isZero();
      assertThat(s.failedCompactions()).isEqualTo(1);
      for (int p = 1; p < 4; p++) {
        assertThat(t.select().eq("p", p).execute()).hasSize(10);
      }
    }
  }
}
