package dev.talus.data;

import java.util.Arrays;

/**
 * A row: its clustering, its primary-key liveness (row marker), its row deletion and its cells in
 * ascending column order, at most one cell per column.
 *
 * <p>Immutable and thread-safe; arrays are owned by the row and never modified.
 */
public final class Row {
  private static final Cell[] NO_CELLS = new Cell[0];

  private final byte[] clustering;
  private final LivenessInfo liveness;
  private final DeletionTime deletion;
  private final Cell[] cells;

  /** {@code cells} must be sorted by column with no duplicates; ownership passes to the row. */
  public Row(byte[] clustering, LivenessInfo liveness, DeletionTime deletion, Cell[] cells) {
    this.clustering = clustering;
    this.liveness = liveness;
    this.deletion = deletion;
    this.cells = cells;
  }

  public static Row deletion(byte[] clustering, DeletionTime deletion) {
    return new Row(clustering, LivenessInfo.EMPTY, deletion, NO_CELLS);
  }

  public byte[] clustering() {
    return clustering;
  }

  public LivenessInfo liveness() {
    return liveness;
  }

  public DeletionTime deletion() {
    return deletion;
  }

  /** The cells in column order; callers must not modify the array. */
  public Cell[] cells() {
    return cells;
  }

  public Cell cell(int column) {
    for (Cell c : cells) {
      if (c.column() == column) {
        return c;
      }
    }
    return null;
  }

  public boolean isEmpty() {
    return liveness.isEmpty() && deletion.isLive() && cells.length == 0;
  }

  /** A row with live data at {@code nowSec}: a live marker or at least one live cell. */
  public boolean hasLiveData(long nowSec) {
    if (liveness.isLive(nowSec)) {
      return true;
    }
    for (Cell c : cells) {
      if (c.isLive(nowSec)) {
        return true;
      }
    }
    return false;
  }

  public long maxTimestamp() {
    long m = Math.max(liveness.timestamp(), deletion.markedForDeleteAt());
    for (Cell c : cells) {
      m = Math.max(m, c.timestamp());
    }
    return m;
  }

  /** Reconciles two versions of the same row, cell by cell; shadowing is applied separately. */
  public static Row merge(Row a, Row b) {
    Cell[] x = a.cells;
    Cell[] y = b.cells;
    Cell[] out = new Cell[x.length + y.length];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < x.length && j < y.length) {
      int c = Integer.compare(x[i].column(), y[j].column());
      if (c < 0) {
        out[n++] = x[i++];
      } else if (c > 0) {
        out[n++] = y[j++];
      } else {
        out[n++] = Cell.reconcile(x[i++], y[j++]);
      }
    }
    while (i < x.length) {
      out[n++] = x[i++];
    }
    while (j < y.length) {
      out[n++] = y[j++];
    }
    return new Row(
        a.clustering,
        a.liveness.max(b.liveness),
        a.deletion.max(b.deletion),
        n == out.length ? out : Arrays.copyOf(out, n));
  }

  /**
   * Removes what {@code active} (the partition or range deletion covering this row) and the row's
   * own deletion shadow; drops the row deletion if {@code active} already covers it. Returns null
   * if nothing is left.
   */
  public Row withoutShadowed(DeletionTime active) {
    DeletionTime rowDel = deletion.supersedes(active) ? deletion : DeletionTime.LIVE;
    DeletionTime d = rowDel.isLive() ? active : rowDel;
    LivenessInfo l = d.deletes(liveness.timestamp()) ? LivenessInfo.EMPTY : liveness;
    Cell[] kept = cells;
    int n = 0;
    for (Cell c : cells) {
      if (!d.deletes(c.timestamp())) {
        n++;
      }
    }
    if (n != cells.length) {
      kept = new Cell[n];
      int k = 0;
      for (Cell c : cells) {
        if (!d.deletes(c.timestamp())) {
          kept[k++] = c;
        }
      }
    }
    if (l.isEmpty() && rowDel.isLive() && kept.length == 0) {
      return null;
    }
    if (l == liveness && rowDel == deletion && kept == cells) {
      return this;
    }
    return new Row(clustering, l, rowDel, kept);
  }

  /** Approximate heap footprint, for memtable accounting. */
  public long heapSize() {
    long s = 64L + clustering.length + 16L * cells.length;
    for (Cell c : cells) {
      s += c.heapSize();
    }
    return s;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Row r
        && Arrays.equals(r.clustering, clustering)
        && r.liveness.equals(liveness)
        && r.deletion.equals(deletion)
        && Arrays.equals(r.cells, cells);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(clustering) * 31 + Arrays.hashCode(cells);
  }

  @Override
  public String toString() {
    return "Row{"
        + Arrays.toString(clustering)
        + ", "
        + liveness
        + ", del="
        + deletion
        + ", "
        + Arrays.toString(cells)
        + "}";
  }
}
