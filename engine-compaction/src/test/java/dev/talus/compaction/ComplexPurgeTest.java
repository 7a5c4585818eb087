package dev.talus.compaction;

import static dev.talus.compaction.Parts.ck;
import static dev.talus.compaction.Parts.key;
import static dev.talus.compaction.Parts.merge;
import static dev.talus.compaction.Parts.part;
import static dev.talus.compaction.Parts.rows;
import static dev.talus.compaction.Parts.val;
import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.data.Cell;
import dev.talus.data.ClusteringBytes;
import dev.talus.data.ComplexDeletion;
import dev.talus.data.DeletionTime;
import dev.talus.data.LivenessInfo;
import dev.talus.data.PartitionKey;
import dev.talus.data.Row;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Purge of what collections and statics leave behind: a complex deletion (an overwritten
 * collection) and element tombstones (removed elements) wait for gc_grace and the overlap check
 * like any tombstone; an expired element becomes a tombstone; the static row is purged like a row.
 */
class ComplexPurgeTest {
  static final long NOW = 2_000_000_000L;
  static final long GC_BEFORE = NOW - 864_000;
  static final long MAX = Long.MAX_VALUE;
  static final PartitionKey K = key("k");

  private static byte[] p(int i) {
    return new byte[] {(byte) i};
  }

  private static Row overwritten(byte[] ck, long ldt) {
    return new Row(
        ck,
        LivenessInfo.EMPTY,
        DeletionTime.LIVE,
        new ComplexDeletion[] {new ComplexDeletion(1, new DeletionTime(99, ldt))},
        new Cell[] {
          Cell.element(1, p(1), 100, 0, NOW, val("a")), Cell.elementTombstone(1, p(2), 100, ldt),
        });
  }

  @Test
  void complexDeletionAndElementTombstonesArePurgedOnlyAfterGcGrace() {
    Purger purger = new Purger(NOW, GC_BEFORE);
    List<Row> kept =
        rows(purger.purge(merge(List.of(part(K, overwritten(ck(1), GC_BEFORE)))), MAX).rows());
    assertThat(kept.get(0).complexDeletions()).hasSize(1);
    assertThat(kept.get(0).cells()).hasSize(2);
    assertThat(purger.tombstonesPurged()).isZero();

    purger = new Purger(NOW, GC_BEFORE);
    List<Row> purged =
        rows(purger.purge(merge(List.of(part(K, overwritten(ck(1), GC_BEFORE - 1)))), MAX).rows());
    assertThat(purged.get(0).complexDeletions()).isEmpty();
    assertThat(purged.get(0).cells()).extracting(c -> c.path()[0]).containsExactly((byte) 1);
    assertThat(purger.complexDeletionsPurged()).isEqualTo(1);
    assertThat(purger.cellsPurged()).isEqualTo(1);
    assertThat(purger.tombstonesPurged()).isEqualTo(2);
  }

  @Test
  void aComplexDeletionThatMayShadowOlderDataElsewhereIsKept() {
    Purger purger = new Purger(NOW, GC_BEFORE);
    // another SSTable outside the compaction holds data written at 50 < 99
    List<Row> kept =
        rows(purger.purge(merge(List.of(part(K, overwritten(ck(1), GC_BEFORE - 1)))), 50).rows());
    assertThat(kept.get(0).complexDeletions()).hasSize(1);
    assertThat(purger.complexDeletionsPurged()).isZero();
  }

  @Test
  void anExpiredElementBecomesATombstoneThenGoes() {
    Purger purger = new Purger(NOW, GC_BEFORE);
    Row r =
        new Row(
            ck(1),
            LivenessInfo.of(10),
            DeletionTime.LIVE,
            new Cell[] {Cell.element(1, p(1), 100, 60, NOW - 120, val("x"))});
    List<Row> out = rows(purger.purge(merge(List.of(part(K, r))), MAX).rows());
    assertThat(out.get(0).cells())
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.isTombstone()).isTrue();
              assertThat(c.path()).containsExactly(1);
            });
    assertThat(purger.expiredCellsConverted()).isEqualTo(1);
  }

  @Test
  void aStaticRowLeftWithNothingVanishes() {
    Purger purger = new Purger(NOW, GC_BEFORE);
    Row s =
        new Row(
            ClusteringBytes.STATIC,
            LivenessInfo.EMPTY,
            DeletionTime.LIVE,
            new Cell[] {Cell.tombstone(2, 100, GC_BEFORE - 1)});
    Row live = new Row(ck(1), LivenessInfo.of(10), DeletionTime.LIVE, new Cell[0]);
    List<Row> out = rows(purger.purge(merge(List.of(part(K, s, live))), MAX).rows());
    assertThat(out).extracting(Row::isStatic).containsExactly(false);
  }
}
