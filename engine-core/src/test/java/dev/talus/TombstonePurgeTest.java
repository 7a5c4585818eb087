package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The purge rules through the public API with a manual clock: tombstones and expired data leave
 * exactly when gc_grace and the overlap rule allow — never earlier (no zombies), never much later
 * (no pile-ups).
 */
class TombstonePurgeTest {
  @TempDir Path dir;
  final ManualClock clock = ManualClock.startingAtDefault();

  private TalusDb open() {
    return TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
  }

  private static TableSchema queue(Duration gcGrace) {
    return TableSchema.builder("queue")
        .partitionKey("q", DataType.TEXT)
        .clusteringColumn("seq", DataType.INT)
        .column("payload", DataType.TEXT)
        .gcGrace(gcGrace)
        .build();
  }

  @Test
  void queueAntiPatternTombstonesAreCountedThenPurgedAfterGcGrace() {
    try (TalusDb db = open()) {
      Table t = db.createTable(queue(Duration.ofDays(10)));
      for (int i = 0; i < 1000; i++) {
        t.insert().value("q", "jobs").value("seq", i).value("payload", "job " + i).execute();
      }
      t.flush();
      for (int i = 0; i < 990; i++) {
        t.delete().eq("q", "jobs").eq("seq", i).execute();
      }
      t.flush();
      ResultSet live = t.select().eq("q", "jobs").execute();
      assertThat(live.size()).isEqualTo(10);
      assertThat(t.lastReadTombstoneCount()).isEqualTo(990);
      assertThat(t.stats().tombstonesPerRead().max()).isGreaterThanOrEqualTo(990);

      // before gc_grace: compaction merges the row with its deletion but keeps the tombstones
      t.compact();
      t.select().eq("q", "jobs").execute();
      assertThat(t.lastReadTombstoneCount()).isEqualTo(990);

      clock.advance(Duration.ofDays(10).plusSeconds(1));
      t.compact();
      assertThat(t.select().eq("q", "jobs").execute().size()).isEqualTo(10);
      assertThat(t.lastReadTombstoneCount()).isZero();
      assertThat(t.stats().tombstonesPurged()).isGreaterThanOrEqualTo(990);
      assertThat(t.sstables()).singleElement().extracting(SSTableSummary::tombstones).isEqualTo(0L);
    }
  }

  @Test
  void gcGraceBoundaryIsStrict() {
    try (TalusDb db = open()) {
      Table t = db.createTable(queue(Duration.ofHours(1)));
      t.insert().value("q", "a").value("seq", 1).value("payload", "x").execute();
      t.flush();
      t.delete().eq("q", "a").eq("seq", 1).execute();
      t.flush();
      t.compact();
      // deleted at T; purgeable when T < now - gc_grace, i.e. from T + gc_grace + 1
      clock.advance(Duration.ofHours(1));
      t.compact();
      assertThat(t.dump("a")).singleElement().satisfies(p -> assertThat(p.rows()).hasSize(1));
      clock.advance(Duration.ofSeconds(1));
      t.compact();
      assertThat(t.dump("a")).isEmpty();
    }
  }

  @Test
  void zombieDataDoesNotComeBackWhenOnlyTheNewerSSTableIsCompacted() {
    try (TalusDb db = open()) {
      Table t = db.createTable(queue(Duration.ofSeconds(60)));
      t.insert().value("q", "z").value("seq", 1).value("payload", "old").execute();
      t.flush(); // SSTable A: the row
      t.delete().eq("q", "z").eq("seq", 1).execute();
      t.flush(); // SSTable B: its deletion
      List<SSTableSummary> sstables = t.sstables();
      assertThat(sstables).hasSize(2);
      long newer = sstables.get(1).generation();
      clock.advance(Duration.ofSeconds(61));

      t.compact(List.of(newer)); // only B, after gc_grace: A still holds older data
      assertThat(t.select().eq("q", "z").execute().isEmpty()).isTrue();
      boolean tombstoneKept =
          t.dump("z").stream()
              .flatMap(p -> p.rows().stream())
              .anyMatch(r -> r.rowDeletion() != null);
      assertThat(tombstoneKept).as("the tombstone must outlive the data it shadows").isTrue();

      t.compact(); // both: the row and its tombstone vanish together
      assertThat(t.dump("z")).isEmpty();
      assertThat(t.select().eq("q", "z").execute().isEmpty()).isTrue();
    }
  }

  @Test
  void ttlDataDisappearsAtExpiryAndItsSpaceIsReclaimedOnlyAfterGcGrace() {
    try (TalusDb db = open()) {
      Table t = db.createTable(queue(Duration.ofHours(2)));
      t.insert()
          .value("q", "t")
          .value("seq", 1)
          .value("payload", "short-lived")
          .ttl(Duration.ofMinutes(10))
          .execute();
      t.flush();
      clock.advance(Duration.ofMinutes(10).minusSeconds(1));
      assertThat(t.select().eq("q", "t").execute().size()).isEqualTo(1);
      clock.advance(Duration.ofSeconds(1));
      assertThat(t.select().eq("q", "t").execute().isEmpty()).isTrue();
      t.compact();
      // an expired cell with ttl < gc_grace stays as a tombstone until write time + gc_grace
      assertThat(t.dump("t"))
          .singleElement()
          .satisfies(p -> assertThat(p.rows().get(0).cells()).hasSize(1));
      clock.advance(Duration.ofHours(2));
      t.compact();
      // the cell has gone; the expired row marker (an INSERT's) stays until expiry + gc_grace
      assertThat(t.dump("t"))
          .singleElement()
          .satisfies(p -> assertThat(p.rows().get(0).cells()).isEmpty());
      clock.advance(Duration.ofSeconds(1));
      t.compact();
      assertThat(t.dump("t")).isEmpty();
    }
  }

  @Test
  void withGcGraceZeroExpiredDataGoesAtTheFirstCompaction() {
    try (TalusDb db = open()) {
      Table t = db.createTable(queue(Duration.ZERO));
      t.insert()
          .value("q", "g")
          .value("seq", 1)
          .value("payload", "p")
          .ttl(Duration.ofSeconds(5))
          .execute();
      t.delete().eq("q", "g").eq("seq", 2).execute();
      t.flush();
      clock.advance(Duration.ofSeconds(6));
      t.compact();
      assertThat(t.dump("g")).isEmpty();
      assertThat(t.sstables()).isEmpty();
    }
  }

  @Test
  void readsOverTheFailureThresholdFailWithTombstoneOverwhelming() {
    try (TalusDb db = open()) {
      Table t =
          db.createTable(queue(Duration.ofDays(1)).toBuilder().tombstoneThresholds(10, 50).build());
      for (int i = 0; i < 60; i++) {
        t.delete().eq("q", "x").eq("seq", i).execute();
      }
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> t.select().eq("q", "x").execute())
          .isInstanceOf(TombstoneOverwhelmingException.class)
          .hasMessageContaining("queue")
          .hasMessageContaining("q=x");
      assertThat(t.stats().tombstoneWarnings()).isEqualTo(1); // the failed read crossed it too
      t.select().eq("q", "x").lt("seq", 20).execute(); // 20 tombstones: warns, succeeds
      assertThat(t.stats().tombstoneWarnings()).isEqualTo(2);
    }
  }
}
