package dev.talus.compaction;

import static dev.talus.compaction.Parts.ck;
import static dev.talus.compaction.Parts.key;
import static dev.talus.compaction.Parts.merge;
import static dev.talus.compaction.Parts.part;
import static dev.talus.compaction.Parts.range;
import static dev.talus.compaction.Parts.row;
import static dev.talus.compaction.Parts.rows;
import static dev.talus.compaction.Parts.val;
import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.compaction.Parts.Part;
import dev.talus.data.Cell;
import dev.talus.data.DeletionTime;
import dev.talus.data.LivenessInfo;
import dev.talus.data.PartitionKey;
import dev.talus.data.Row;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PurgerTest {
  static final long NOW = 2_000_000_000L;
  static final long GC_GRACE = 864_000;
  static final long GC_BEFORE = NOW - GC_GRACE;
  static final long MAX = Long.MAX_VALUE;
  static final PartitionKey K = key("k");

  private final Purger purger = new Purger(NOW, GC_BEFORE);

  private Purger.Purged purge(long maxPurgeable, Part... sources) {
    return purger.purge(merge(List.of(sources)), maxPurgeable);
  }

  private static Row liveRow(int ck) {
    return row(ck, Cell.live(1, 100, val("v" + ck)));
  }

  @Test
  void cellTombstoneIsPurgedOnlyStrictlyBeforeGcBefore() {
    Purger.Purged p =
        purge(
            MAX,
            part(
                K,
                row(1, Cell.tombstone(1, 50, GC_BEFORE - 1)),
                row(2, Cell.tombstone(1, 50, GC_BEFORE)),
                liveRow(3)));
    List<Row> out = rows(p.rows());
    assertThat(out).extracting(r -> r.clustering()).containsExactly(ck(2), ck(3));
    assertThat(out.get(0).cells()).containsExactly(Cell.tombstone(1, 50, GC_BEFORE));
    assertThat(purger.cellsPurged()).isEqualTo(1);
    assertThat(purger.tombstonesPurged()).isEqualTo(1);
  }

  @Test
  void rowDeletionBothSidesOfTheBoundary() {
    Purger.Purged p =
        purge(
            MAX,
            part(
                K,
                Row.deletion(ck(1), new DeletionTime(50, GC_BEFORE - 1)),
                Row.deletion(ck(2), new DeletionTime(50, GC_BEFORE)),
                liveRow(3)));
    List<Row> out = rows(p.rows());
    assertThat(out).extracting(r -> r.clustering()).containsExactly(ck(2), ck(3));
    assertThat(out.get(0).deletion()).isEqualTo(new DeletionTime(50, GC_BEFORE));
    assertThat(purger.rowDeletionsPurged()).isEqualTo(1);
  }

  @Test
  void rowDeletionPurgedButNewerCellsStay() {
    Row r =
        new Row(
            ck(1),
            LivenessInfo.EMPTY,
            new DeletionTime(50, GC_BEFORE - 10),
            new Cell[] {Cell.live(1, 60, val("after"))});
    List<Row> out = rows(purge(MAX, part(K, r)).rows());
    assertThat(out).hasSize(1);
    assertThat(out.get(0).deletion()).isEqualTo(DeletionTime.LIVE);
    assertThat(out.get(0).cells()).containsExactly(Cell.live(1, 60, val("after")));
  }

  @Test
  void rangeTombstoneBothSidesOfTheBoundary() {
    Part src =
        new Part(
            K,
            DeletionTime.LIVE,
            List.of(range(1, 2, 50, GC_BEFORE - 1), range(5, 6, 50, GC_BEFORE)),
            List.of(liveRow(10)));
    Purger.Purged p = purge(MAX, src);
    assertThat(p.rangeTombstones()).containsExactly(range(5, 6, 50, GC_BEFORE));
    assertThat(purger.rangeTombstonesPurged()).isEqualTo(1);
  }

  @Test
  void partitionDeletionBothSidesOfTheBoundary() {
    Part purgeable =
        new Part(K, new DeletionTime(50, GC_BEFORE - 1), List.of(), List.of(liveRow(1)));
    Purger.Purged p = purge(MAX, purgeable);
    assertThat(p.partitionDeletion()).isEqualTo(DeletionTime.LIVE);
    assertThat(rows(p.rows())).hasSize(1);

    Part kept = new Part(K, new DeletionTime(50, GC_BEFORE), List.of(), List.of());
    Purger.Purged q = purge(MAX, kept);
    assertThat(q).isNotNull();
    assertThat(q.partitionDeletion()).isEqualTo(new DeletionTime(50, GC_BEFORE));
    assertThat(purger.partitionDeletionsPurged()).isEqualTo(1);
  }

  @Test
  void tombstoneNotOlderThanMaxPurgeableTimestampIsKept() {
    long maxPurgeable = 1_000;
    Part src =
        new Part(
            K,
            DeletionTime.LIVE,
            List.of(range(1, 2, maxPurgeable, GC_BEFORE - 5), range(4, 5, 999, GC_BEFORE - 5)),
            List.of(
                row(7, Cell.tombstone(1, maxPurgeable, GC_BEFORE - 5)),
                row(8, Cell.tombstone(1, maxPurgeable - 1, GC_BEFORE - 5)),
                Row.deletion(ck(9), new DeletionTime(maxPurgeable + 1, GC_BEFORE - 5))));
    Purger.Purged p = purge(maxPurgeable, src);
    assertThat(p.rangeTombstones()).containsExactly(range(1, 2, maxPurgeable, GC_BEFORE - 5));
    assertThat(rows(p.rows())).extracting(Row::clustering).containsExactly(ck(7), ck(9));

    Part pd = new Part(K, new DeletionTime(maxPurgeable, GC_BEFORE - 5), List.of(), List.of());
    assertThat(purge(maxPurgeable, pd)).isNotNull();
    assertThat(purge(maxPurgeable + 1, pd)).isNull();
  }

  @Test
  void expiredCellWithTtlAtLeastGcGraceIsPurgedAtOnce() {
    int ttl = (int) GC_GRACE + 1;
    long writtenAt = NOW - ttl; // expires exactly now
    Cell c = Cell.expiring(1, 70, ttl, writtenAt, val("x"));
    assertThat(c.isLive(NOW)).isFalse();
    assertThat(purge(MAX, part(K, row(1, c)))).isNull();
    assertThat(purger.cellsPurged()).isEqualTo(1);

    // ttl == gc_grace: the tombstone it stands for is deleted exactly at gcBefore, so it goes one
    // second after expiry (the strict < of the gc rule).
    int ttl2 = (int) GC_GRACE;
    Cell d = Cell.expiring(1, 70, ttl2, NOW - ttl2, val("x"));
    List<Row> out = rows(purge(MAX, part(K, row(1, d))).rows());
    assertThat(out.get(0).cells()).containsExactly(Cell.tombstone(1, 70, GC_BEFORE));
    Purger later = new Purger(NOW + 1, GC_BEFORE + 1);
    assertThat(later.purge(merge(List.of(part(K, row(1, d)))), MAX)).isNull();
  }

  @Test
  void expiredCellWithShortTtlStaysAsTombstoneUntilWriteTimePlusGcGrace() {
    long writtenAt = 1_900_000_000L;
    int ttl = 3_600;
    Cell c = Cell.expiring(1, 70, ttl, writtenAt, val("payload"));
    Part src = part(K, row(1, c));

    // not yet expired: untouched
    Purger before = new Purger(writtenAt + ttl - 1, writtenAt + ttl - 1 - GC_GRACE);
    assertThat(rows(before.purge(merge(List.of(src)), MAX).rows()).get(0).cells())
        .containsExactly(c);

    // expired: becomes a value-less tombstone deleted at its write time
    Purger expired = new Purger(writtenAt + ttl, writtenAt + ttl - GC_GRACE);
    Row r = rows(expired.purge(merge(List.of(src)), MAX).rows()).get(0);
    assertThat(r.cells()).containsExactly(Cell.tombstone(1, 70, writtenAt));
    assertThat(expired.expiredCellsConverted()).isEqualTo(1);

    // write time + gc_grace: gcBefore == ldt, still kept
    long t = writtenAt + GC_GRACE;
    assertThat(new Purger(t, t - GC_GRACE).purge(merge(List.of(src)), MAX)).isNotNull();
    // one second later it goes
    assertThat(new Purger(t + 1, t + 1 - GC_GRACE).purge(merge(List.of(src)), MAX)).isNull();

    // and the max purgeable timestamp still applies to it
    assertThat(new Purger(t + 1, t + 1 - GC_GRACE).purge(merge(List.of(src)), 70)).isNotNull();
  }

  @Test
  void expiredRowMarkerIsPurgedOnceItsExpiryIsBeforeGcBefore() {
    // Cassandra's DeletionPurger.shouldPurge(LivenessInfo): the expiry time is the ldt.
    long expiry = GC_BEFORE - 1;
    Row r1 = new Row(ck(1), new LivenessInfo(70, 10, expiry), DeletionTime.LIVE, new Cell[0]);
    Row r2 = new Row(ck(2), new LivenessInfo(70, 10, GC_BEFORE), DeletionTime.LIVE, new Cell[0]);
    Row r3 = new Row(ck(3), LivenessInfo.of(70), DeletionTime.LIVE, new Cell[0]);
    Row r4 = new Row(ck(4), new LivenessInfo(70, 10, NOW + 5), DeletionTime.LIVE, new Cell[0]);
    List<Row> out = rows(purge(MAX, part(K, r1, r2, r3, r4)).rows());
    assertThat(out).containsExactly(r2, r3, r4);
    assertThat(purger.rowMarkersPurged()).isEqualTo(1);
    // a row whose marker went but that still has a live cell survives without the marker
    Row r5 =
        new Row(
            ck(5),
            new LivenessInfo(70, 10, expiry),
            DeletionTime.LIVE,
            new Cell[] {Cell.live(1, 70, val("v"))});
    Row kept = rows(purge(MAX, part(K, r5)).rows()).get(0);
    assertThat(kept.liveness()).isEqualTo(LivenessInfo.EMPTY);
    assertThat(kept.cells()).hasSize(1);
  }

  @Test
  void shadowedDataIsDroppedRegardlessOfGcGrace() {
    // The deletion is recent (far from purgeable), yet the data it shadows goes in the merge.
    Part old = part(K, row(1, Cell.live(1, 10, val("old")), Cell.live(2, 10, val("old2"))));
    Part del = part(K, Row.deletion(ck(1), new DeletionTime(20, NOW)));
    List<Row> out = rows(purge(MAX, old, del).rows());
    assertThat(out).hasSize(1);
    assertThat(out.get(0).cells()).isEmpty();
    assertThat(out.get(0).deletion()).isEqualTo(new DeletionTime(20, NOW));

    // a partition deletion shadows every older row
    Part pdel = new Part(K, new DeletionTime(20, NOW), List.of(), List.of());
    Purger.Purged p = purge(MAX, old, pdel);
    assertThat(rows(p.rows())).isEmpty();
    assertThat(p.partitionDeletion()).isEqualTo(new DeletionTime(20, NOW));

    // once both are in one compaction and the deletion is purgeable, nothing at all is left
    Part oldDel = part(K, Row.deletion(ck(1), new DeletionTime(20, GC_BEFORE - 1)));
    assertThat(purge(MAX, old, oldDel)).isNull();
  }

  @Test
  void emptyRowsAndPartitionsVanish() {
    Part src =
        new Part(
            K,
            new DeletionTime(5, GC_BEFORE - 100),
            List.of(range(1, 3, 6, GC_BEFORE - 100)),
            List.of(
                row(1, Cell.tombstone(1, 7, GC_BEFORE - 100), Cell.tombstone(2, 7, 0)),
                Row.deletion(ck(2), new DeletionTime(8, GC_BEFORE - 100))));
    assertThat(purge(MAX, src)).isNull();
    assertThat(purger.tombstonesPurged()).isEqualTo(5);
  }

  @Test
  void liveDataIsNeverTouched() {
    Row r =
        new Row(
            ck(1),
            LivenessInfo.of(1),
            DeletionTime.LIVE,
            new Cell[] {Cell.live(1, 1, val("a")), Cell.expiring(2, 1, 10, NOW - 5, val("b"))});
    List<Row> out = rows(purge(Long.MIN_VALUE, part(K, r)).rows());
    assertThat(out).containsExactly(r);
    assertThat(out.get(0)).isSameAs(r);
  }

  @Test
  void maxPurgeableTimestampIsAskedLazilyAndOnce() {
    AtomicInteger asked = new AtomicInteger();
    Part young = part(K, row(1, Cell.tombstone(1, 5, NOW)), row(2, Cell.tombstone(1, 5, NOW)));
    assertThat(
            purger.purge(
                merge(List.of(young)),
                () -> {
                  asked.incrementAndGet();
                  return MAX;
                }))
        .isNotNull();
    assertThat(asked).hasValue(0);
    Part old =
        part(K, row(1, Cell.tombstone(1, 5, 0)), row(2, Cell.tombstone(1, 5, 0)), liveRow(3));
    Purger.Purged p =
        purger.purge(
            merge(List.of(old)),
            () -> {
              asked.incrementAndGet();
              return MAX;
            });
    assertThat(rows(p.rows())).hasSize(1);
    assertThat(asked).hasValue(1);
  }

  /**
   * With nothing outside the compaction holding the key, tombstones written at Long.MAX_VALUE are
   * purged too (Cassandra's
   * CompactionsPurgeTest.testMajorCompactionPurgeTombstonesWithMaxTimestamp,
   * testMajorCompactionPurgeTopLevelTombstoneWithMaxTimestamp and
   * testMajorCompactionPurgeRangeTombstoneWithMaxTimestamp); a source outside that exists keeps
   * them, even one whose data is all at Long.MAX_VALUE.
   */
  @Test
  void tombstonesAtLongMaxValueArePurgedWhenNothingOutsideHoldsTheKey() {
    Part src =
        new Part(
            K,
            new DeletionTime(MAX, GC_BEFORE - 5),
            List.of(range(1, 2, MAX, GC_BEFORE - 5)),
            List.of(
                row(7, Cell.tombstone(1, MAX, GC_BEFORE - 5)),
                Row.deletion(ck(9), new DeletionTime(MAX, GC_BEFORE - 5))));
    assertThat(purge(MAX, src)).isNull();
    assertThat(purger.partitionDeletionsPurged()).isEqualTo(1);

    Purger.Purged kept = purge(MAX - 1, src);
    assertThat(kept).isNotNull();
    assertThat(kept.partitionDeletion()).isEqualTo(new DeletionTime(MAX, GC_BEFORE - 5));
  }
}
