package dev.talus.data;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

/** Stripping dropped columns: their cells and complex deletions go, the rest of the row stays. */
class DroppedCellsTest {
  private static final byte[] C1 = TestData.row(1);
  private static final byte[] V = {1};
  private static final IntPredicate DROPPED_1 = id -> id == 1;

  @Test
  void aRowWithoutDroppedColumnsIsReturnedAsItIs() {
    Row r = new Row(C1, LivenessInfo.of(5), DeletionTime.LIVE, new Cell[] {Cell.live(0, 5, V)});
    assertThat(DroppedCells.strip(r, DROPPED_1)).isSameAs(r);
  }

  @Test
  void cellsAndComplexDeletionsOfTheDroppedColumnGoTheOthersStay() {
    Row r =
        new Row(
            C1,
            LivenessInfo.EMPTY,
            DeletionTime.LIVE,
            new ComplexDeletion[] {
              new ComplexDeletion(1, new DeletionTime(4, 100)),
              new ComplexDeletion(2, new DeletionTime(4, 100))
            },
            new Cell[] {
              Cell.live(0, 5, V),
              Cell.element(1, new byte[] {7}, 5, 0, 0, V),
              Cell.element(1, new byte[] {8}, 5, 0, 0, V),
              Cell.live(2, 5, V)
            });
    Row s = DroppedCells.strip(r, DROPPED_1);
    assertThat(s.cells()).extracting(Cell::column).containsExactly(0, 2);
    assertThat(s.complexDeletions()).extracting(ComplexDeletion::column).containsExactly(2);
    assertThat(s.clustering()).isEqualTo(C1);
  }

  @Test
  void aRowThatOnlyHadDroppedCellsIsGoneButAMarkerOrDeletionKeepsIt() {
    Row onlyDropped =
        new Row(C1, LivenessInfo.EMPTY, DeletionTime.LIVE, new Cell[] {Cell.live(1, 5, V)});
    assertThat(DroppedCells.strip(onlyDropped, DROPPED_1)).isNull();

    Row marked =
        new Row(C1, LivenessInfo.of(3), DeletionTime.LIVE, new Cell[] {Cell.live(1, 5, V)});
    Row kept = DroppedCells.strip(marked, DROPPED_1);
    assertThat(kept.cells()).isEmpty();
    assertThat(kept.liveness()).isEqualTo(LivenessInfo.of(3));

    Row deleted =
        new Row(C1, LivenessInfo.EMPTY, new DeletionTime(9, 100), new Cell[] {Cell.live(1, 5, V)});
    assertThat(DroppedCells.strip(deleted, DROPPED_1).deletion())
        .isEqualTo(new DeletionTime(9, 100));
  }

  @Test
  void theIteratorSkipsRowsWithNothingLeft() {
    Row a =
        new Row(
            TestData.row(1),
            LivenessInfo.EMPTY,
            DeletionTime.LIVE,
            new Cell[] {Cell.live(1, 5, V)});
    Row b =
        new Row(
            TestData.row(2),
            LivenessInfo.EMPTY,
            DeletionTime.LIVE,
            new Cell[] {Cell.live(0, 5, V)});
    Row c =
        new Row(
            TestData.row(3),
            LivenessInfo.EMPTY,
            DeletionTime.LIVE,
            new Cell[] {Cell.live(1, 6, V)});
    List<Row> out = new ArrayList<>();
    DroppedCells.strip(List.of(a, b, c).iterator(), DROPPED_1).forEachRemaining(out::add);
    assertThat(out).containsExactly(b);
  }
}
