package dev.talus.data;

import java.util.Iterator;

/**
 * Turns merged rows into what a read returns at {@code nowSec}: rows with live data, holding only
 * their live cells. Every tombstone it steps over (row deletion, complex-column deletion, deleted
 * or expired cell) is reported to a {@link TombstoneCounter}, which may abort the read by throwing,
 * together with how many of them are already purgeable (deleted before {@code gcBeforeSec}: past
 * gc_grace). Counts are reported in batches: before a live row is handed out, when the rows run
 * out, and every {@value #BATCH} tombstones in between (a queue-like partition of deleted rows
 * costs one report per batch, not per row); so a counter that throws at a threshold does so at most
 * that many tombstones late, and the totals are exact.
 *
 * <p>Not thread-safe; single-use.
 */
public final class LiveRows extends LookAheadIterator<Row> {
  /** Receives tombstone counts as a read scans them; may throw to stop the read. */
  @FunctionalInterface
  public interface TombstoneCounter {
    void add(int tombstones);

    /**
     * {@code tombstones} scanned, of which {@code purgeable} are past gc_grace: a compaction may
     * drop them already, so Cassandra does not count them towards its read thresholds. By default
     * all are counted.
     */
    default void add(int tombstones, int purgeable) {
      add(tombstones);
    }
  }

  private final Iterator<Row> merged;
  private final long nowSec;
  private final long gcBeforeSec;
  private final TombstoneCounter counter;
  private long rowsScanned;

  /** Tombstones stepped over and not reported yet, and how many of them are purgeable. */
  private int pendingDead;

  private int pendingPurgeable;

  static final int BATCH = 64;

  /** Counts every tombstone as not yet purgeable. */
  public LiveRows(Iterator<Row> merged, long nowSec, TombstoneCounter counter) {
    this(merged, nowSec, Long.MIN_VALUE, counter);
  }

  /**
   * @param gcBeforeSec now − gc_grace: a deletion with a local deletion time before this is
   *     purgeable (for an expired TTL cell, the tombstone it stands for, deleted at expiry − ttl,
   *     as a compaction would see it; see {@link Cell#asTombstone()})
   */
  public LiveRows(Iterator<Row> merged, long nowSec, long gcBeforeSec, TombstoneCounter counter) {
    this.merged = merged;
    this.nowSec = nowSec;
    this.gcBeforeSec = gcBeforeSec;
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
        report();
        return live;
      }
      if (pendingDead >= BATCH) {
        report();
      }
    }
    report();
    return null;
  }

  /**
   * Push mode, for a caller that feeds the rows itself: the live part of {@code r}, counting its
   * tombstones (reported before a live row is returned, and every {@value #BATCH}), or null.
   */
  public Row accept(Row r) {
    rowsScanned++;
    Row live = live(r);
    if (live != null || pendingDead >= BATCH) {
      report();
    }
    return live;
  }

  /** Push mode: a row holding a row deletion and nothing else, deleted at that local time. */
  public void acceptRowTombstone(long localDeletionTime) {
    rowsScanned++;
    pendingDead++;
    if (localDeletionTime < gcBeforeSec) {
      pendingPurgeable++;
    }
    if (pendingDead >= BATCH) {
      report();
    }
  }

  /**
   * Push mode: reports what is pending; before handing out a row built elsewhere, and at the end.
   */
  public void flush() {
    report();
  }

  private void report() {
    if (pendingDead > 0) {
      int dead = pendingDead;
      int purgeable = pendingPurgeable;
      pendingDead = 0;
      pendingPurgeable = 0;
      counter.add(dead, purgeable);
    }
  }

  private Row live(Row r) {
    int dead = 0;
    int purgeable = 0;
    if (!r.deletion().isLive()) {
      dead++;
      if (r.deletion().localDeletionTime() < gcBeforeSec) {
        purgeable++;
      }
    }
    // A complex (collection) deletion left behind by an overwrite counts like a row deletion.
    for (ComplexDeletion cd : r.complexDeletions()) {
      dead++;
      if (cd.deletion().localDeletionTime() < gcBeforeSec) {
        purgeable++;
      }
    }
    Cell[] cells = r.cells();
    int liveCount = 0;
    for (Cell c : cells) {
      if (c.isLive(nowSec)) {
        liveCount++;
      } else {
        dead++;
        long ldt = c.isExpiring() ? c.localDeletionTime() - c.ttl() : c.localDeletionTime();
        if (ldt < gcBeforeSec) {
          purgeable++;
        }
      }
    }
    pendingDead += dead;
    pendingPurgeable += purgeable;
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
