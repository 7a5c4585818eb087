package dev.talus.data;

import java.util.Arrays;

/**
 * A row: its clustering, its primary-key liveness (row marker), its row deletion, the deletions of
 * whole complex columns, and its cells in ascending (column, path) order — at most one cell per
 * simple column, one per element of a complex column.
 *
 * <p>The <em>static row</em> of a partition is an ordinary row whose clustering is {@link
 * ClusteringBytes#STATIC}: it sorts before every other row and outside every slice and range
 * tombstone, so row and range deletions never touch it while a partition deletion does.
 *
 * <p>Immutable and thread-safe; arrays are owned by the row and never modified.
 */
public final class Row {
  private static final Cell[] NO_CELLS = new Cell[0];

  /** The shared empty array of rows without complex deletions. */
  public static final ComplexDeletion[] NO_COMPLEX_DELETIONS = new ComplexDeletion[0];

  private final byte[] clustering;
  private final LivenessInfo liveness;
  private final DeletionTime deletion;
  private final ComplexDeletion[] complexDeletions;
  private final Cell[] cells;

  /**
   * {@code cells} must be sorted by {@link Cell#compareKeys} with no duplicates; ownership passes
   * to the row.
   */
  public Row(byte[] clustering, LivenessInfo liveness, DeletionTime deletion, Cell[] cells) {
    this(clustering, liveness, deletion, NO_COMPLEX_DELETIONS, cells);
  }

  /**
   * {@code complexDeletions} must be sorted by column, one per column, and {@code cells} by {@link
   * Cell#compareKeys} with no duplicates; ownership of both passes to the row.
   */
  public Row(
      byte[] clustering,
      LivenessInfo liveness,
      DeletionTime deletion,
      ComplexDeletion[] complexDeletions,
      Cell[] cells) {
    this.clustering = clustering;
    this.liveness = liveness;
    this.deletion = deletion;
    this.complexDeletions = complexDeletions;
    this.cells = cells;
  }

  public static Row deletion(byte[] clustering, DeletionTime deletion) {
    return new Row(clustering, LivenessInfo.EMPTY, deletion, NO_CELLS);
  }

  public byte[] clustering() {
    return clustering;
  }

  public boolean isStatic() {
    return ClusteringBytes.isStatic(clustering);
  }

  public LivenessInfo liveness() {
    return liveness;
  }

  public DeletionTime deletion() {
    return deletion;
  }

  /** Deletions of whole complex columns, by column; callers must not modify the array. */
  public ComplexDeletion[] complexDeletions() {
    return complexDeletions;
  }

  /** The deletion of complex column {@code column} in this row, or {@link DeletionTime#LIVE}. */
  public DeletionTime complexDeletion(int column) {
    for (ComplexDeletion d : complexDeletions) {
      if (d.column() == column) {
        return d.deletion();
      }
    }
    return DeletionTime.LIVE;
  }

  /** The cells in (column, path) order; callers must not modify the array. */
  public Cell[] cells() {
    return cells;
  }

  /** The (first) cell of {@code column}, or null: the cell of a simple column. */
  public Cell cell(int column) {
    for (Cell c : cells) {
      if (c.column() == column) {
        return c;
      }
    }
    return null;
  }

  /** Index of the first cell of {@code column}, or -1; its cells follow it contiguously. */
  public int firstCellIndex(int column) {
    for (int i = 0; i < cells.length; i++) {
      if (cells[i].column() == column) {
        return i;
      }
    }
    return -1;
  }

  public boolean isEmpty() {
    return liveness.isEmpty()
        && deletion.isLive()
        && cells.length == 0
        && complexDeletions.length == 0;
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
    for (ComplexDeletion d : complexDeletions) {
      m = Math.max(m, d.deletion().markedForDeleteAt());
    }
    for (Cell c : cells) {
      m = Math.max(m, c.timestamp());
    }
    return m;
  }

  /**
   * Reconciles two versions of the same row, cell by cell; shadowing is applied separately. Since
   * reconciliation is last-write-wins, shadowing before or after it gives the same result.
   */
  public static Row merge(Row a, Row b) {
    Cell[] x = a.cells;
    Cell[] y = b.cells;
    Cell[] out = new Cell[x.length + y.length];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < x.length && j < y.length) {
      int c = Cell.compareKeys(x[i], y[j]);
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
        mergeComplexDeletions(a.complexDeletions, b.complexDeletions),
        n == out.length ? out : Arrays.copyOf(out, n));
  }

  private static ComplexDeletion[] mergeComplexDeletions(ComplexDeletion[] x, ComplexDeletion[] y) {
    if (y.length == 0) {
      return x;
    }
    if (x.length == 0) {
      return y;
    }
    ComplexDeletion[] out = new ComplexDeletion[x.length + y.length];
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
        ComplexDeletion p = x[i++];
        ComplexDeletion q = y[j++];
        out[n++] = q.deletion().supersedes(p.deletion()) ? q : p;
      }
    }
    while (i < x.length) {
      out[n++] = x[i++];
    }
    while (j < y.length) {
      out[n++] = y[j++];
    }
    return n == out.length ? out : Arrays.copyOf(out, n);
  }

  /**
   * Removes what {@code active} (the partition or range deletion covering this row), the row's own
   * deletion and its complex-column deletions shadow; drops a row or complex deletion that a
   * stronger one already covers. Returns null if nothing is left.
   */
  public Row withoutShadowed(DeletionTime active) {
    DeletionTime rowDel = deletion.supersedes(active) ? deletion : DeletionTime.LIVE;
    DeletionTime d = rowDel.isLive() ? active : rowDel;
    LivenessInfo l = d.deletes(liveness.timestamp()) ? LivenessInfo.EMPTY : liveness;
    ComplexDeletion[] cds = complexDeletions;
    if (cds.length > 0) {
      return withoutShadowedComplex(d, rowDel, l);
    }
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

  /** The slower path of {@link #withoutShadowed} for rows holding complex deletions. */
  private Row withoutShadowedComplex(DeletionTime d, DeletionTime rowDel, LivenessInfo l) {
    ComplexDeletion[] keptDeletions = new ComplexDeletion[complexDeletions.length];
    int m = 0;
    for (ComplexDeletion cd : complexDeletions) {
      if (cd.deletion().supersedes(d)) {
        keptDeletions[m++] = cd;
      }
    }
    Cell[] kept = new Cell[cells.length];
    int n = 0;
    int k = 0;
    for (Cell c : cells) {
      while (k < m && keptDeletions[k].column() < c.column()) {
        k++;
      }
      DeletionTime cd =
          k < m && keptDeletions[k].column() == c.column() ? keptDeletions[k].deletion() : d;
      if (!d.deletes(c.timestamp()) && !cd.deletes(c.timestamp())) {
        kept[n++] = c;
      }
    }
    if (l.isEmpty() && rowDel.isLive() && n == 0 && m == 0) {
      return null;
    }
    return new Row(
        clustering,
        l,
        rowDel,
        m == 0 ? NO_COMPLEX_DELETIONS : Arrays.copyOf(keptDeletions, m),
        n == cells.length ? cells : Arrays.copyOf(kept, n));
  }

  /** Approximate heap footprint, for memtable accounting. */
  public long heapSize() {
    long s = 64L + clustering.length + 16L * cells.length + 48L * complexDeletions.length;
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
        && Arrays.equals(r.complexDeletions, complexDeletions)
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
        + (complexDeletions.length > 0 ? ", complex=" + Arrays.toString(complexDeletions) : "")
        + ", "
        + Arrays.toString(cells)
        + "}";
  }
}
