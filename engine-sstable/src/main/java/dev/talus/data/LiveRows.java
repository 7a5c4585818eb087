package dev.talus.data;

import java.util.Iterator;

/**
 * Turns merged rows into what a read returns at {@code nowSec}: rows with live data, holding only
 * their live cells. Every tombstone it steps over (row deletion, complex-column deletion, deleted
 * or expired cell) is reported to a {@link TombstoneCounter}, which may abort the read by throwing.
 *
 * <p>Not thread-safe; single-use.
 */
public final class LiveRows extends LookAheadIterator<Row> {
  /** Receives tombstone counts as a read scans them; may throw to stop the read. */
  @FunctionalInterface
  public interface TombstoneCounter {
    void add(int tombstones);
  }

  private final Iterator<Row> merged;
  private final long nowSec;
  private final TombstoneCounter counter;
  private long rowsScanned;

  public LiveRows(Iterator<Row> merged, long nowSec, TombstoneCounter counter) {
    this.merged = merged;
    this.nowSec = nowSec;
    this.counter = counter;
  }

  public long rowsScanned() {
    return rowsScanned;
  }

  @Override
  protected Row computeNext() {
    while (merged.hasNext()) {
      Row r = merged.next();
      rowsScanned++;
      Row live = live(r);
      if (live != null) {
        return live;
      }
    }
    return null;
  }

  private Row live(Row r) {
    // A complex (collection) deletion left behind by an overwrite counts like a row deletion.
    int dead = (r.deletion().isLive() ? 0 : 1) + r.complexDeletions().length;
    Cell[] cells = r.cells();
    int liveCount = 0;
    for (Cell c : cells) {
      if (c.isLive(nowSec)) {
        liveCount++;
      } else {
        dead++;
      }
    }
    if (dead > 0) {
      counter.add(dead);
    }
    LivenessInfo l = r.liveness().isLive(nowSec) ? r.liveness() : LivenessInfo.EMPTY;
    if (l.isEmpty() && liveCount == 0) {
      return null;
    }
    if (liveCount == cells.length && dead == 0 && l == r.liveness()) {
      return r;
    }
    Cell[] kept = new Cell[liveCount];
    int k = 0;
    for (Cell c : cells) {
      if (c.isLive(nowSec)) {
        kept[k++] = c;
      }
    }
    return new Row(r.clustering(), l, DeletionTime.LIVE, kept);
  }
}
