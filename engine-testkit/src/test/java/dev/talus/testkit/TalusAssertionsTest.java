package dev.talus.testkit;

import static dev.talus.testkit.TalusAssertions.assertThat;
import static dev.talus.testkit.TalusAssertions.assertThatPartition;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.SSTableSummary;
import dev.talus.Table;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Every assertion passes when it should and fails, with a useful message, when it should not. */
class TalusAssertionsTest {
  @RegisterExtension static final TalusExtension talus = TalusExtension.create();

  private Table queueWithTombstones() {
    TalusTestDb db = talus.db();
    Table t = db.createTable(TalusTestDbTest.schema(Duration.ofDays(10)));
    for (int i = 0; i < 5; i++) {
      t.insert().value("k", "q").value("c", i).value("v", "x").execute();
    }
    db.flush(t);
    for (int i = 0; i < 3; i++) {
      t.delete().eq("k", "q").eq("c", i).execute();
    }
    db.flush(t);
    return t;
  }

  @Test
  void partitionTombstonesRowsAndReads() {
    Table t = queueWithTombstones();
    assertThatPartition(t, "q").hasTombstones(3).hasRows(2).readScansAtMostTombstones(3);

    assertThatThrownBy(() -> assertThatPartition(t, "q").hasNoTombstones())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Expected t(k=q) to have no tombstones but 3 are stored")
        .hasMessageContaining("row deletion × 3")
        .hasMessageContaining("gc_grace ends at 2026-01-11T00:00:00Z");
    assertThatThrownBy(() -> assertThatPartition(t, "q").hasTombstones(1))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("to have 1 tombstones but 3 are stored");
    assertThatThrownBy(() -> assertThatPartition(t, "q").hasRows(5))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("to read as 5 live rows but it has 2");
    assertThatThrownBy(() -> assertThatPartition(t, "q").readScansAtMostTombstones(2))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("scan at most 2 tombstones but it scanned 3")
        .hasMessageContaining("overlaps and holds older data");
    assertThatThrownBy(() -> assertThatPartition(t, "q", "extra").hasRows(1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("partition key is [k]");
  }

  @Test
  void partitionPlacement() {
    TalusTestDb db = talus.db();
    Table t = db.createTable(TalusTestDbTest.schema(Duration.ofDays(10)));
    t.insert().value("k", "a").value("c", 1).value("v", "x").execute();
    assertThatPartition(t, "a").isNotInAnySSTable();
    assertThatThrownBy(() -> assertThatPartition(t, "a").isNotStored())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Expected nothing to be stored for t(k=a) but memtable holds it");
    SSTableSummary s = db.flush(t);
    assertThatPartition(t, "a").isStoredOnlyIn(s.generation());
    assertThatPartition(t, "b").isNotStored().hasRows(0).hasNoTombstones();
    assertThatThrownBy(() -> assertThatPartition(t, "a").isNotInAnySSTable())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(
            "not to be in any SSTable but sstable " + s.generation() + " holds it");
    assertThatThrownBy(() -> assertThatPartition(t, "a").isStoredOnlyIn(99))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(
            "stored only in [sstable 99] but it is in [sstable " + s.generation());
    t.insert().value("k", "a").value("c", 2).value("v", "y").execute();
    SSTableSummary s2 = db.flush(t);
    assertThatThrownBy(() -> assertThatPartition(t, "a").isNotInAnySSTable())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining(
            "but sstable " + s2.generation() + " and sstable " + s.generation() + " hold it");
  }

  @Test
  void tableCountsAndLastRead() {
    Table t = queueWithTombstones();
    t.select().eq("k", "q").execute();
    assertThat(t).sstableCount(2).hasTombstones(3).lastReadScannedAtMostTombstones(3);
    assertThatThrownBy(() -> assertThat(t).sstableCount(1))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("to have 1 SSTables but it has 2")
        .hasMessageContaining("3 tombstones");
    assertThatThrownBy(() -> assertThat(t).hasNoTombstones())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("to hold 0 tombstones but they hold 3")
        .hasMessageContaining("gc_grace ends at");
    assertThatThrownBy(() -> assertThat(t).lastReadScannedAtMostTombstones(0))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("scan at most 0 tombstones but it scanned 3");
    assertThatThrownBy(() -> assertThat(t).hasSSTable(42))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("to have SSTable 42 live");
  }

  @Test
  void droppedWholeOrNot() {
    TalusTestDb db = talus.db();
    Table t = db.createTable(TalusTestDbTest.schema(Duration.ofHours(1)));
    t.insert().value("k", "a").value("c", 1).value("v", "x").ttl(Duration.ofHours(1)).execute();
    SSTableSummary expiring = db.flush(t);
    t.insert().value("k", "b").value("c", 1).value("v", "x").execute();
    SSTableSummary live = db.flush(t);

    assertThatThrownBy(() -> assertThat(t).sstableWasDroppedWhole(expiring.generation()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("it is still live")
        .hasMessageContaining("fully expired from 2026-01-01T02:00:01Z");
    assertThatThrownBy(() -> assertThat(t).sstableIsFullyExpired(expiring.generation()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("is not before gcBefore");

    db.advance(Duration.ofHours(2).plusSeconds(1));
    assertThat(t).sstableIsFullyExpired(expiring.generation());
    CompactionReport r = db.runNextCompaction(t);
    assertThat(r).droppedWhole(expiring.generation());
    assertThat(t).sstableWasDroppedWhole(expiring.generation()).droppedWholeSSTables(1);
    org.assertj.core.api.Assertions.assertThat(db.droppedWhole(t))
        .containsExactly(expiring.generation());
    assertThatThrownBy(() -> assertThat(r).droppedNothingWhole())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("dropped whole [" + expiring.generation() + "]");
    assertThatThrownBy(() -> assertThat(r).droppedWhole(live.generation()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("to drop SSTable " + live.generation() + " whole");
    assertThatThrownBy(() -> assertThat(t).droppedWholeSSTables(2))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("dropped 2 SSTables whole as fully expired but it dropped 1");

    CompactionReport major = db.compactAll(t); // rewrites the live one: compacted, not dropped
    assertThat(major).droppedNothingWhole();
    assertThatThrownBy(() -> assertThat(major).droppedWhole(live.generation()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("it was compacted");
  }

  @Test
  void compactedAwayIsNotDroppedWhole() {
    TalusTestDb db = talus.db();
    Table t = db.createTable(TalusTestDbTest.schema(Duration.ofHours(1)));
    t.insert().value("k", "a").value("c", 1).value("v", "x").execute();
    SSTableSummary s = db.flush(t);
    db.compactAll(t);
    assertThatThrownBy(() -> assertThat(t).sstableWasDroppedWhole(s.generation()))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("it was compacted away");
  }
}
