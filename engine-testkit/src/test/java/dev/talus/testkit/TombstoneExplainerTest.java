package dev.talus.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.SSTableSummary;
import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.testkit.Explanation.Kind;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class TombstoneExplainerTest {
  @RegisterExtension static final TalusExtension talus = TalusExtension.create();

  private Table table(Duration gcGrace) {
    return talus.db().createTable(TalusTestDbTest.schema(gcGrace));
  }

  @Test
  void nothingStoredMeansNothingToExplain() {
    Table t = table(Duration.ofDays(10));
    t.insert().value("k", "a").value("c", 1).value("v", "x").execute();
    Explanation e = talus.db().explain(t, "a");
    assertThat(e.isEmpty()).isTrue();
    assertThat(e.toString()).contains("nothing");
  }

  @Test
  void memtableAndGcGraceWithTheExactEndOfGcGrace() {
    TalusTestDb db = talus.db();
    Table t = table(Duration.ofDays(10));
    t.delete().eq("k", "a").eq("c", 1).execute();
    Explanation e = db.explain(t, "a");
    assertThat(e.has(Kind.IN_MEMTABLE)).isTrue();
    assertThat(e.toString())
        .contains("memtable holds row deletion (c=1)")
        .contains("flush first")
        .contains("gc_grace ends at 2026-01-11T00:00:00Z")
        .contains("tombstone deleted at 2026-01-01T00:00:00Z + gc_grace 10 days")
        .contains("purgeable by a compaction from 2026-01-11T00:00:01Z");
    assertThat(e.subject()).isEqualTo("t(k=a)");
    assertThat(e.gcBefore()).isEqualTo(db.now().minus(Duration.ofDays(10)));
  }

  @Test
  void notCompactedSincePurgeable() {
    TalusTestDb db = talus.db();
    Table t = table(Duration.ofHours(1));
    t.delete().eq("k", "a").eq("c", 1).execute();
    db.flush(t);
    db.advance(Duration.ofHours(5));
    Explanation e = db.explain(t, "a");
    assertThat(e.reasons())
        .extracting(Explanation.Reason::kind)
        .containsExactly(Kind.NOT_COMPACTED_SINCE_PURGEABLE);
    assertThat(e.toString()).contains("purgeable since 2026-01-01T01:00:01Z");
  }

  @Test
  void overlappingOlderSSTableAndShadowedData() {
    TalusTestDb db = talus.db();
    Table t = table(Duration.ofSeconds(60));
    t.insert().value("k", "z").value("c", 1).value("v", "old").execute();
    SSTableSummary a = db.flush(t);
    t.delete().eq("k", "z").eq("c", 1).execute();
    SSTableSummary b = db.flush(t);
    db.advancePastGcGrace(t);
    Explanation e = db.explain(t, "z");
    assertThat(e.has(Kind.OLDER_DATA_IN_OTHER_SSTABLE)).isTrue();
    assertThat(e.has(Kind.SHADOWED_DATA)).isTrue();
    assertThat(e.has(Kind.NOT_COMPACTED_SINCE_PURGEABLE)).isFalse();
    assertThat(e.toString())
        .contains(
            "sstable "
                + b.generation()
                + ": sstable "
                + a.generation()
                + " overlaps and holds"
                + " older data for this partition")
        .contains("compact sstable " + b.generation() + " together with sstable " + a.generation())
        .contains(
            "sstable "
                + a.generation()
                + ": still holds 1 row shadowed by deletions in"
                + " sstable "
                + b.generation());
    // every time is an ISO-8601 instant, write timestamps included (no raw microseconds)
    assertThat(e.toString())
        .containsPattern(
            "oldest write at 2026-01-01T00:00:00(\\.\\d+)?Z ≤ tombstone timestamp 2026-")
        .containsPattern("written at or before 2026-")
        .doesNotContainPattern("\\d{13,}");
  }

  @Test
  void olderDataInTheMemtableBlocksToo() {
    TalusTestDb db = talus.db();
    Table t = table(Duration.ofSeconds(60));
    t.insert().value("k", "m").value("c", 1).value("v", "old").timestamp(1).execute();
    t.delete().eq("k", "m").eq("c", 2).timestamp(5).execute();
    // flush only the deletion: write it first to an SSTable, then the old row to the memtable
    Table u = t;
    db.flush(u);
    u.insert().value("k", "m").value("c", 3).value("v", "late").timestamp(2).execute();
    db.advancePastGcGrace(t);
    Explanation e = db.explain(t, "m");
    assertThat(e.has(Kind.OLDER_DATA_IN_MEMTABLE)).isTrue();
    assertThat(e.toString()).contains("memtable holds older data").contains("flush, then compact");
  }

  @Test
  void expiredCellsAndRowMarkers() {
    TalusTestDb db = talus.db();
    Table t = table(Duration.ofHours(2));
    t.insert().value("k", "t").value("c", 1).value("v", "x").ttl(Duration.ofMinutes(10)).execute();
    db.flush(t);
    db.advancePastTtl(Duration.ofMinutes(10));
    Explanation e = db.explain(t, "t");
    assertThat(e.toString())
        .contains("expired TTL cell v (c=1): gc_grace ends at 2026-01-01T02:00:00Z")
        .contains("an expired cell counts as deleted at its write time")
        .contains("expired row marker purgeable at 2026-01-01T02:10:01Z");
    assertThat(e.has(Kind.EXPIRED_ROW_MARKER)).isTrue();
    assertThat(TombstoneExplainer.tombstones(t, "t"))
        .extracting(StoredTombstone::kind)
        .containsExactlyInAnyOrder(
            StoredTombstone.Kind.EXPIRED_ROW_MARKER, StoredTombstone.Kind.EXPIRED_CELL);
  }

  @Test
  void manyTombstonesAreSummarised() {
    TalusTestDb db = talus.db();
    Table t = table(Duration.ofDays(1));
    for (int i = 0; i < 50; i++) {
      t.delete().eq("k", "q").eq("c", i).execute();
      db.advance(Duration.ofSeconds(1));
    }
    db.flush(t);
    Explanation e = db.explain(t, "q");
    assertThat(e.reasons()).hasSize(1);
    assertThat(e.toString())
        .contains("50 × row deletion: gc_grace ends at 2026-01-02T00:00:00Z")
        .contains("the last of them from 2026-01-02T00:00:50Z");
  }

  @Test
  void sstableNeverExpiresOrNotYetOrDroppableNow() {
    TalusTestDb db = talus.db();
    Table t = table(Duration.ofHours(1));
    t.insert().value("k", "live").value("c", 1).value("v", "x").execute();
    SSTableSummary live = db.flush(t);
    t.insert().value("k", "ttl").value("c", 1).value("v", "x").ttl(Duration.ofHours(1)).execute();
    SSTableSummary ttl = db.flush(t);

    assertThat(db.explainSSTable(t, live.generation()).has(Kind.HOLDS_DATA_THAT_NEVER_EXPIRES))
        .isTrue();
    Explanation notYet = db.explainSSTable(t, ttl.generation());
    assertThat(notYet.has(Kind.NOT_FULLY_EXPIRED_YET)).isTrue();
    assertThat(notYet.toString()).contains("fully expired from 2026-01-01T02:00:01Z");

    db.advance(Duration.ofHours(2).plusSeconds(1));
    Explanation ready = db.explainSSTable(t, ttl.generation());
    // the live SSTable holds one other partition, so its key range cannot overlap this one
    assertThat(ready.reasons())
        .extracting(Explanation.Reason::kind)
        .containsExactly(Kind.DROPPABLE_NOW);
    db.runNextCompaction(t);
    assertThat(db.explainSSTable(t, ttl.generation()).has(Kind.NOT_LIVE)).isTrue();
  }

  @Test
  void olderLiveSSTableMayBlockAWholeFileDrop() {
    TalusTestDb db = talus.db();
    Table t = table(Duration.ofHours(1));
    t.insert().value("k", "a").value("c", 1).value("v", "keep").execute();
    t.insert().value("k", "b").value("c", 1).value("v", "keep").execute();
    db.flush(t);
    t.insert().value("k", "a").value("c", 2).value("v", "x").ttl(Duration.ofMinutes(1)).execute();
    SSTableSummary ttl = db.flush(t);
    db.advance(Duration.ofHours(2));
    Explanation e = db.explainSSTable(t, ttl.generation());
    assertThat(e.has(Kind.OLDER_DATA_IN_OTHER_SSTABLE)).isTrue();
    assertThat(e.toString()).contains("overlaps it and holds live data at or before its newest");
  }

  @Test
  void usesTheTablesOwnClockForTablesOfOtherDatabases(@TempDir Path dir) {
    dev.talus.ManualClock clock = dev.talus.ManualClock.startingAtDefault();
    try (TalusDb plain = TalusDb.open(TalusOptions.builder(dir).clock(clock).build())) {
      Table t = plain.createTable(TalusTestDbTest.schema(Duration.ofDays(1)));
      t.delete().eq("k", "a").eq("c", 1).execute();
      assertThat(TombstoneExplainer.explain(t, "a").has(Kind.IN_MEMTABLE)).isTrue();
      assertThat(TombstoneExplainer.explain(clock, t, "a").has(Kind.IN_MEMTABLE)).isTrue();
    }
  }
}
