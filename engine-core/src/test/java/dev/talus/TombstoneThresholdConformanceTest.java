package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tombstones past gc_grace do not count towards the read thresholds, as in Cassandra, whose read
 * path drops purgeable tombstones before it counts (ReadCommand.withoutPurgeableTombstones); they
 * are still counted in the read statistics, so a test can see they are there until a compaction
 * removes them.
 */
class TombstoneThresholdConformanceTest {
  private static final int FAILURE_THRESHOLD = 100;
  private static final int WARN_THRESHOLD = 10;

  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();

  private TalusDb open() {
    return TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
  }

  private static Table table(TalusDb db, Duration gcGrace) {
    return db.createTable(
        TableSchema.builder("t")
            .partitionKey("a", DataType.TEXT)
            .clusteringColumn("b", DataType.TEXT)
            .column("c", DataType.TEXT)
            .gcGrace(gcGrace)
            .tombstoneThresholds(WARN_THRESHOLD, FAILURE_THRESHOLD)
            .build());
  }

  /**
   * TombstonesTest.testExpiredTombstones: a read over more tombstones than the failure threshold
   * fails before gc_grace and succeeds after it, without a compaction in between and without a
   * warning; the tombstones are still scanned and counted in the statistics.
   */
  @Test
  void tombstonesPastGcGraceNeitherFailNorWarnAReadButAreStillCounted() {
    try (TalusDb db = open()) {
      Table t = table(db, Duration.ofSeconds(1));
      for (int i = 0; i < FAILURE_THRESHOLD + 1; i++) {
        // a null value is a cell tombstone
        t.insert().value("a", "key").value("b", "column" + i).value("c", null).execute();
      }
      for (boolean flushed : new boolean[] {false, true}) {
        if (flushed) {
          t.flush();
        }
        assertThatThrownBy(() -> t.select().eq("a", "key").execute())
            .isInstanceOf(TombstoneOverwhelmingException.class)
            .hasMessageContaining("tombstones past gc_grace are not counted");
      }
      long warnings = t.stats().tombstoneWarnings();

      clock.advance(Duration.ofSeconds(2)); // past gc_grace, not compacted
      ResultSet rs = t.select().eq("a", "key").execute();
      assertThat(rs.size()).isEqualTo(FAILURE_THRESHOLD + 1); // the rows have live markers
      assertThat(t.stats().tombstoneWarnings()).isEqualTo(warnings);
      assertThat(t.lastReadTombstoneCount()).isEqualTo(FAILURE_THRESHOLD + 1);
      assertThat(t.sstables())
          .singleElement()
          .extracting(SSTableSummary::tombstones)
          .isEqualTo((long) FAILURE_THRESHOLD + 1);

      t.compact(); // now they go
      t.select().eq("a", "key").execute();
      assertThat(t.lastReadTombstoneCount()).isZero();
    }
  }

  /**
   * The boundary is the purge rule's: a deletion at T is purgeable (and uncounted) from T +
   * gc_grace + 1, exactly when a compaction may drop it. Row deletions, range deletions and expired
   * cells follow it too.
   */
  @Test
  void theBoundaryIsThePurgeRulesForEveryKindOfTombstone() {
    try (TalusDb db = open()) {
      Table t = table(db, Duration.ofSeconds(60));
      for (int i = 0; i < 60; i++) {
        t.delete().eq("a", "k").eq("b", "row" + i).execute();
      }
      for (int i = 0; i < 30; i++) {
        t.delete().eq("a", "k").ge("b", "range" + i + "a").le("b", "range" + i + "b").execute();
      }
      for (int i = 0; i < 30; i++) {
        t.insert()
            .value("a", "k")
            .value("b", "ttl" + i)
            .value("c", "x")
            .ttl(Duration.ofSeconds(5))
            .execute();
      }
      t.flush();
      clock.advance(Duration.ofSeconds(60));
      // 60 row deletions + 30 range deletions + 30 expired cells = 120 > 100, none purgeable yet
      // (the expired cells count from their write time, like the deletions)
      assertThatThrownBy(() -> t.select().eq("a", "k").execute())
          .isInstanceOf(TombstoneOverwhelmingException.class);
      clock.advance(Duration.ofSeconds(1));
      assertThat(t.select().eq("a", "k").execute().isEmpty()).isTrue();
      assertThat(t.lastReadTombstoneCount()).isEqualTo(120);
    }
  }

  /**
   * Tombstones still inside gc_grace count even when older ones do not: only the young ones move
   * the read towards the thresholds (TombstonesTest.testBeyondWarnThresholdSelect, warn side).
   */
  @Test
  void onlyTombstonesInsideGcGraceWarn() {
    try (TalusDb db = open()) {
      Table t = table(db, Duration.ofSeconds(10));
      for (int i = 0; i < 50; i++) {
        t.delete().eq("a", "k").eq("b", "old" + i).execute();
      }
      clock.advance(Duration.ofSeconds(11));
      for (int i = 0; i < WARN_THRESHOLD; i++) {
        t.delete().eq("a", "k").eq("b", "new" + i).execute();
      }
      t.select().eq("a", "k").execute();
      assertThat(t.stats().tombstoneWarnings()).isZero(); // 10 young ones: not over 10
      t.delete().eq("a", "k").eq("b", "new" + WARN_THRESHOLD).execute();
      t.select().eq("a", "k").execute();
      assertThat(t.stats().tombstoneWarnings()).isEqualTo(1);
      assertThat(t.lastReadTombstoneCount()).isEqualTo(50 + WARN_THRESHOLD + 1);
    }
  }
}
