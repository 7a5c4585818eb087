package dev.talus.compaction;

import dev.talus.data.Cell;
import dev.talus.data.ComplexDeletion;
import dev.talus.data.DeletionTime;
import dev.talus.data.LivenessInfo;
import dev.talus.data.LookAheadIterator;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionMerger;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Rewrites a merged partition for a compaction's output, dropping the tombstones it is safe to drop
 * (after Cassandra's {@code PurgeFunction}, {@code CompactionIterator.Purger}, {@code
 * DeletionPurger}, {@code BTreeRow.purge} and {@code AbstractCell.purge}).
 *
 * <p><b>The rule.</b> A deletion with timestamp {@code ts} and local deletion time {@code ldt} — a
 * partition deletion, a range tombstone, a row deletion, a complex-column (collection) deletion, or
 * a cell tombstone (an element's included) — is dropped iff
 *
 * <ol>
 *   <li>{@code ldt < gcBefore} (gc_grace has passed since the deletion: {@code ldt == gcBefore} is
 *       kept), and
 *   <li>{@code ts < maxPurgeableTimestamp}, the smallest timestamp of any data for this partition
 *       outside the compaction (see {@link OverlapOracle}). The tombstone may still shadow older
 *       data that lives elsewhere; dropping it would bring that data back (a zombie). With no
 *       source outside ({@code Long.MAX_VALUE}) every timestamp passes, {@code Long.MAX_VALUE}
 *       itself included.
 * </ol>
 *
 * <p><b>Expired TTL data.</b> An expiring cell that has expired at {@code nowSeconds} is checked
 * with its expiry time as ldt; if that fails it is rewritten as a plain tombstone deleted at its
 * write time, {@code ldt = expiry − ttl} ({@link Cell#asTombstone()}), without its value, and
 * checked again. So TTL data with {@code ttl ≥ gc_grace} is purged as soon as it expires, while
 * shorter TTLs leave a small tombstone until write time + gc_grace. An expired row marker
 * (primary-key liveness) is dropped iff {@code expiry < gcBefore} and its timestamp is purgeable —
 * it is not converted (it carries no value to save), exactly as Cassandra's {@code
 * DeletionPurger.shouldPurge(LivenessInfo, now)}; otherwise it is kept as is and stays dead to
 * reads.
 *
 * <p><b>What is not here.</b> Data shadowed by a deletion is removed by the merge ({@link
 * PartitionMerger}) whatever gc_grace says; only the tombstones themselves wait for gc_grace.
 * Partition deletion, each range interval, row marker, row deletion, each complex deletion and each
 * cell are purged independently; a row left with nothing and a partition left with nothing vanish.
 * So the tombstones an overwritten collection leaves (its complex deletion, and the element
 * tombstones of removed elements) wait for gc_grace like any other.
 *
 * <p>The max purgeable timestamp is asked for lazily, at most once per partition, and only when
 * something is old enough to be purged, so Bloom filter probes are spent only where they matter.
 *
 * <p>Not thread-safe (it counts what it purged); one compaction uses one purger from one thread.
 */
public final class Purger {
  private final long nowSeconds;
  private final long gcBeforeSeconds;

  private long partitionDeletionsPurged;
  private long rangeTombstonesPurged;
  private long rowDeletionsPurged;
  private long rowMarkersPurged;
  private long complexDeletionsPurged;
  private long cellsPurged;
  private long expiredCellsConverted;

  /**
   * @param nowSeconds the engine clock: decides which TTL data has expired
   * @param gcBeforeSeconds now − gc_grace: deletions before this may be purged
   */
  public Purger(long nowSeconds, long gcBeforeSeconds) {
    this.nowSeconds = nowSeconds;
    this.gcBeforeSeconds = gcBeforeSeconds;
  }

  public long nowSeconds() {
    return nowSeconds;
  }

  public long gcBeforeSeconds() {
    return gcBeforeSeconds;
  }

  /** A merged partition as it goes to the output; its row iterator is lazy and single-use. */
  public record Purged(
      PartitionKey key,
      DeletionTime partitionDeletion,
      List<RangeTombstone> rangeTombstones,
      Iterator<Row> rows) {}

  /** Purges with a known max purgeable timestamp. */
  public Purged purge(PartitionMerger.Merged merged, long maxPurgeableTimestamp) {
    return purge(merged, () -> maxPurgeableTimestamp);
  }

  /**
   * Purges {@code merged}; returns null if nothing is left of the partition. {@code
   * maxPurgeableTimestamp} is called at most once, and only if some deletion is older than
   * gcBefore.
   */
  public Purged purge(PartitionMerger.Merged merged, LongSupplier maxPurgeableTimestamp) {
    Gate gate = new Gate(maxPurgeableTimestamp);
    DeletionTime pd = merged.partitionDeletion();
    if (!pd.isLive() && gate.purgeable(pd.markedForDeleteAt(), pd.localDeletionTime())) {
      pd = DeletionTime.LIVE;
      partitionDeletionsPurged++;
    }
    List<RangeTombstone> rts = new ArrayList<>(merged.rangeDeletions().intervals().size());
    for (RangeTombstone t : merged.rangeDeletions().intervals()) {
      DeletionTime d = t.deletion();
      if (gate.purgeable(d.markedForDeleteAt(), d.localDeletionTime())) {
        rangeTombstonesPurged++;
      } else {
        rts.add(t);
      }
    }
    PurgedRows rows = new PurgedRows(merged.rows(), gate);
    if (pd.isLive() && rts.isEmpty() && !rows.hasNext()) {
      return null;
    }
    return new Purged(merged.key(), pd, List.copyOf(rts), rows);
  }

  /** One row, purged on its own; null if nothing is left. */
  public Row purge(Row row, long maxPurgeableTimestamp) {
    return purgeRow(row, new Gate(() -> maxPurgeableTimestamp));
  }

  private Row purgeRow(Row row, Gate gate) {
    LivenessInfo l = row.liveness();
    if (!l.isEmpty()
        && !l.isLive(nowSeconds)
        && gate.purgeable(l.timestamp(), l.localExpirationTime())) {
      l = LivenessInfo.EMPTY;
      rowMarkersPurged++;
    }
    DeletionTime d = row.deletion();
    if (!d.isLive() && gate.purgeable(d.markedForDeleteAt(), d.localDeletionTime())) {
      d = DeletionTime.LIVE;
      rowDeletionsPurged++;
    }
    ComplexDeletion[] cds = row.complexDeletions();
    if (cds.length > 0) {
      cds = purgeComplexDeletions(cds, gate);
    }
    Cell[] cells = row.cells();
    Cell[] out = null;
    int n = 0;
    for (int i = 0; i < cells.length; i++) {
      Cell c = cells[i];
      Cell p = purgeCell(c, gate);
      if (p != c && out == null) {
        out = new Cell[cells.length];
        System.arraycopy(cells, 0, out, 0, i);
        n = i;
      }
      if (out != null && p != null) {
        out[n++] = p;
      }
    }
    Cell[] kept = out == null ? cells : Arrays.copyOf(out, n);
    if (l.isEmpty() && d.isLive() && kept.length == 0 && cds.length == 0) {
      return null;
    }
    if (l == row.liveness()
        && d == row.deletion()
        && kept == cells
        && cds == row.complexDeletions()) {
      return row;
    }
    return new Row(row.clustering(), l, d, cds, kept);
  }

  private ComplexDeletion[] purgeComplexDeletions(ComplexDeletion[] cds, Gate gate) {
    ComplexDeletion[] out = new ComplexDeletion[cds.length];
    int n = 0;
    for (ComplexDeletion cd : cds) {
      DeletionTime d = cd.deletion();
      if (gate.purgeable(d.markedForDeleteAt(), d.localDeletionTime())) {
        complexDeletionsPurged++;
      } else {
        out[n++] = cd;
      }
    }
    return n == cds.length ? cds : n == 0 ? Row.NO_COMPLEX_DELETIONS : Arrays.copyOf(out, n);
  }

  /** AbstractCell.purge: drop if purgeable; else an expired expiring cell becomes a tombstone. */
  private Cell purgeCell(Cell c, Gate gate) {
    if (c.isLive(nowSeconds)) {
      return c;
    }
    if (gate.purgeable(c.timestamp(), c.localDeletionTime())) {
      cellsPurged++;
      return null;
    }
    if (c.isExpiring()) {
      Cell t = c.asTombstone();
      if (gate.purgeable(t.timestamp(), t.localDeletionTime())) {
        cellsPurged++;
        return null;
      }
      expiredCellsConverted++;
      return t;
    }
    return c;
  }

  /** Partition deletions dropped so far. */
  public long partitionDeletionsPurged() {
    return partitionDeletionsPurged;
  }

  public long rangeTombstonesPurged() {
    return rangeTombstonesPurged;
  }

  public long rowDeletionsPurged() {
    return rowDeletionsPurged;
  }

  /** Expired row markers dropped so far. */
  public long rowMarkersPurged() {
    return rowMarkersPurged;
  }

  /** Complex-column (collection) deletions dropped so far. */
  public long complexDeletionsPurged() {
    return complexDeletionsPurged;
  }

  /** Cell tombstones and expired cells dropped so far. */
  public long cellsPurged() {
    return cellsPurged;
  }

  /** Expired cells kept as tombstones (value dropped) so far. */
  public long expiredCellsConverted() {
    return expiredCellsConverted;
  }

  /** Everything dropped so far: deletions of every kind, expired markers and cells. */
  public long tombstonesPurged() {
    return partitionDeletionsPurged
        + rangeTombstonesPurged
        + rowDeletionsPurged
        + rowMarkersPurged
        + complexDeletionsPurged
        + cellsPurged;
  }

  /** The two-part test, with the max purgeable timestamp fetched once, on first need. */
  private final class Gate {
    private final LongSupplier source;
    private boolean known;
    private long maxPurgeable;

    Gate(LongSupplier source) {
      this.source = source;
    }

    boolean purgeable(long timestamp, long localDeletionTime) {
      if (localDeletionTime >= gcBeforeSeconds) {
        return false;
      }
      if (!known) {
        maxPurgeable = source.getAsLong();
        known = true;
      }
      // MAX_VALUE: no source outside the compaction holds the key, so even a tombstone written at
      // Long.MAX_VALUE may go (Cassandra's purge evaluator is "always true" then); a source that
      // exists answers at most MAX_VALUE - 1 (see OverlapOracle)
      return maxPurgeable == Long.MAX_VALUE || timestamp < maxPurgeable;
    }
  }

  private final class PurgedRows extends LookAheadIterator<Row> {
    private final Iterator<Row> in;
    private final Gate gate;

    PurgedRows(Iterator<Row> in, Gate gate) {
      this.in = in;
      this.gate = gate;
    }

    @Override
    protected Row computeNext() {
      while (in.hasNext()) {
        Row r = purgeRow(in.next(), gate);
        if (r != null) {
          return r;
        }
      }
      return null;
    }
  }
}
