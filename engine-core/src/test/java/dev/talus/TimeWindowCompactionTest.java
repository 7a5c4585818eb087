package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seeds' IoT example scaled down: readings with a TTL in day buckets under time-window
 * compaction with daily windows. Closed windows end as one SSTable each; once TTL + gc_grace has
 * passed, whole files are dropped without being read; disk use stays bounded as writes go on.
 */
class TimeWindowCompactionTest {
  @TempDir Path dir;
  final ManualClock clock = new ManualClock(Instant.parse("2026-09-01T00:00:00Z"));

  static final Duration TTL = Duration.ofDays(2);
  static final Duration GC_GRACE = Duration.ofDays(1);

  private TalusDb open() {
    return TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
  }

  private static TableSchema readings() {
    return TableSchema.builder("readings_by_sensor_day")
        .partitionKey("sensor_id", DataType.TEXT)
        .partitionKey("day", DataType.DATE)
        .clusteringColumn("ts", DataType.TIMESTAMP, ClusteringOrder.DESC)
        .column("value", DataType.DOUBLE)
        .defaultTimeToLive(TTL)
        .gcGrace(GC_GRACE)
        .compaction(
            CompactionOptions.timeWindow().windowUnit(ChronoUnit.DAYS).windowSize(1).build())
        .build();
  }

  private void writeHour(Table t) {
    Instant now = clock.instant();
    LocalDate day = LocalDate.ofInstant(now, ZoneOffset.UTC);
    for (int s = 0; s < 5; s++) {
      for (int m = 0; m < 60; m += 10) {
        t.insert()
            .value("sensor_id", "sensor-" + s)
            .value("day", day)
            .value("ts", now.plus(Duration.ofMinutes(m)))
            .value("value", s + m / 100.0)
            .execute();
      }
    }
  }

  /** Day windows (start second) of the live SSTables, one entry per SSTable. */
  private static List<Long> windows(Table t) {
    List<Long> w = new ArrayList<>();
    for (SSTableSummary s : t.sstables()) {
      w.add(Math.floorDiv(s.maxTimestampMicros() / 1_000_000, 86_400) * 86_400);
    }
    return w;
  }

  @Test
  void closedWindowsEndAsOneSSTableAndExpiredWindowsAreDroppedWholeWithoutBeingRead() {
    try (TalusDb db = open()) {
      Table t = db.createTable(readings());
      long maxLiveBytes = 0;
      Set<Long> everSeen = new HashSet<>();
      for (int day = 0; day < 10; day++) {
        for (int hour = 0; hour < 24; hour++) {
          writeHour(t);
          if (hour % 6 == 5) {
            t.flush();
          }
          clock.advance(Duration.ofHours(1));
        }
        // Whole-file expiry first: if any SSTable's data all expired more than gc_grace ago,
        // the next compaction only drops files, and reads none of them.
        long gcBefore = clock.instant().minus(GC_GRACE).getEpochSecond();
        Set<Long> expired = new HashSet<>();
        for (SSTableSummary s : t.sstables()) {
          if (s.maxDeletionTimeSeconds() < gcBefore) {
            expired.add(s.generation());
          }
        }
        if (!expired.isEmpty()) {
          TableStats before = t.stats();
          assertThat(t.runNextCompaction()).isTrue();
          TableStats dropped = t.stats();
          assertThat(dropped.sstablesDroppedExpired() - before.sstablesDroppedExpired())
              .as("day %d: the expired files are dropped whole", day)
              .isEqualTo(expired.size());
          assertThat(dropped.bytesCompactedRead())
              .as("day %d: dropping expired files reads nothing", day)
              .isEqualTo(before.bytesCompactedRead());
          assertThat(t.sstables())
              .extracting(SSTableSummary::generation)
              .doesNotContainAnyElementsOf(expired);
        }
        t.awaitCompactions();
        TableStats after = t.stats();

        // every closed window holds one SSTable
        List<Long> w = windows(t);
        long currentWindow = Math.floorDiv(clock.instant().getEpochSecond(), 86_400) * 86_400;
        for (Long window : new HashSet<>(w)) {
          if (window < currentWindow) {
            assertThat(w.stream().filter(window::equals).count())
                .as("day %d: window %s holds one SSTable", day, Instant.ofEpochSecond(window))
                .isEqualTo(1);
          }
        }
        // nothing whose data all expired more than gc_grace ago is left
        for (SSTableSummary s : t.sstables()) {
          assertThat(s.maxDeletionTimeSeconds())
              .as("day %d: SSTable %d should have been dropped", day, s.generation())
              .isGreaterThanOrEqualTo(gcBefore);
        }
        t.sstables().forEach(s -> everSeen.add(s.generation()));
        if (day >= 4) {
          maxLiveBytes = Math.max(maxLiveBytes, after.liveDiskBytes());
        }
      }
      TableStats stats = t.stats();
      assertThat(stats.sstablesDroppedExpired()).isGreaterThanOrEqualTo(5);
      // bounded: at most TTL + gc_grace + the current and one closing window of data
      assertThat(t.sstables().size()).isLessThanOrEqualTo(6);
      long perDay = maxLiveBytes / Math.max(1, t.sstables().size());
      assertThat(maxLiveBytes).isLessThan(perDay * 8);
      // only unexpired readings are visible
      LocalDate today = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
      assertThat(
              t.select()
                  .eq("sensor_id", "sensor-1")
                  .eq("day", today.minusDays(9))
                  .execute()
                  .isEmpty())
          .isTrue();
      assertThat(
              t.select().eq("sensor_id", "sensor-1").eq("day", today.minusDays(1)).execute().size())
          .isEqualTo(24 * 6);
    }
  }

  @Test
  void anOutOfOrderWriteIntoAnOldWindowKeepsItsFileFromBeingDroppedAndResurrectsNothing() {
    try (TalusDb db = open()) {
      Table t = db.createTable(readings());
      LocalDate day0 = LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
      Instant t0 = clock.instant();
      // day 0: a reading, then its deletion (a tombstone in day 0's window)
      t.insert()
          .value("sensor_id", "s")
          .value("day", day0)
          .value("ts", t0)
          .value("value", 1.0)
          .execute();
      t.delete().eq("sensor_id", "s").eq("day", day0).eq("ts", t0.plusSeconds(1)).execute();
      t.flush();
      clock.advance(Duration.ofDays(1));
      // day 1: an out-of-order write for day 0, OLDER than the day-0 deletion of the same row
      long deletedAt =
          t.dump("s", day0).get(0).rows().stream()
              .filter(r -> r.rowDeletion() != null)
              .findFirst()
              .orElseThrow()
              .rowDeletion()
              .timestampMicros();
      t.insert()
          .value("sensor_id", "s")
          .value("day", day0)
          .value("ts", t0.plusSeconds(1))
          .value("value", 99.0)
          .ttl(Duration.ofDays(30))
          .timestamp(deletedAt - 1)
          .execute();
      t.flush();
      assertThat(t.stats().outOfOrderFlushes()).isEqualTo(1);
      int sstables = t.sstables().size();

      clock.advance(TTL.plus(GC_GRACE).plusDays(1));
      t.awaitCompactions();
      // the day-0 file (all expired or deleted) must not be dropped: it holds the tombstone that
      // shadows the older out-of-order write
      assertThat(t.select().eq("sensor_id", "s").eq("day", day0).execute().isEmpty())
          .as("the out-of-order write is still shadowed by the deletion")
          .isTrue();
      assertThat(t.stats().sstablesDroppedExpired()).isZero();
      assertThat(t.sstables().size()).isLessThanOrEqualTo(sstables);
    }
  }
}
