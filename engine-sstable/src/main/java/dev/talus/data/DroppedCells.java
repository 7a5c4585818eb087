package dev.talus.data;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.IntPredicate;

/**
 * Removes what belongs to dropped columns from rows: their cells and their complex-column
 * deletions. A table whose column was dropped keeps that column's id out of use for good, so
 * everything stored under the id is dead: reads strip it before they decide whether a row is live
 * (a row that only had cells of the dropped column is gone, as in Cassandra), and compaction strips
 * it before writing, which removes it from disk. Stateless.
 */
public final class DroppedCells {
  private DroppedCells() {}

  /**
   * {@code row} without the cells and complex deletions of the columns {@code dropped} accepts; the
   * row itself if it has none; null if nothing (no marker, deletion, cell or complex deletion) is
   * left.
   */
  public static Row strip(Row row, IntPredicate dropped) {
    Cell[] cells = row.cells();
    ComplexDeletion[] cds = row.complexDeletions();
    boolean any = false;
    for (Cell c : cells) {
      if (dropped.test(c.column())) {
        any = true;
        break;
      }
    }
    for (ComplexDeletion d : cds) {
      if (dropped.test(d.column())) {
        any = true;
        break;
      }
    }
    if (!any) {
      return row;
    }
    List<Cell> kept = new ArrayList<>(cells.length);
    for (Cell c : cells) {
      if (!dropped.test(c.column())) {
        kept.add(c);
      }
    }
    List<ComplexDeletion> keptDeletions = new ArrayList<>(cds.length);
    for (ComplexDeletion d : cds) {
      if (!dropped.test(d.column())) {
        keptDeletions.add(d);
      }
    }
    Row out =
        new Row(
            row.clustering(),
            row.liveness(),
            row.deletion(),
            keptDeletions.isEmpty()
                ? Row.NO_COMPLEX_DELETIONS
                : keptDeletions.toArray(new ComplexDeletion[0]),
            kept.toArray(new Cell[0]));
    return out.isEmpty() ? null : out;
  }

  /**
   * {@code rows} with each row {@linkplain #strip stripped}; rows with nothing left are skipped.
   */
  public static Iterator<Row> strip(Iterator<Row> rows, IntPredicate dropped) {
    return new LookAheadIterator<>() {
      @Override
      protected Row computeNext() {
        while (rows.hasNext()) {
          Row r = strip(rows.next(), dropped);
          if (r != null) {
            return r;
          }
        }
        return null;
      }
    };
  }
}
