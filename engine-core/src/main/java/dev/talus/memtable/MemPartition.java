package dev.talus.memtable;

import dev.talus.data.DeletionTime;
import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One partition in a memtable. Writers merge into it concurrently (each row is replaced atomically
 * by its reconciled version); readers iterate a weakly consistent view, which is fine because every
 * version they might see is a reconciled state that was once current.
 *
 * <p>Thread-safe.
 */
public final class MemPartition implements PartitionData {
  private final PartitionKey key;
  private final AtomicReference<DeletionTime> partitionDeletion =
      new AtomicReference<>(DeletionTime.LIVE);
  private final ConcurrentSkipListMap<byte[], Row> rows =
      new ConcurrentSkipListMap<>(Arrays::compareUnsigned);
  private final AtomicReference<List<RangeTombstone>> rangeTombstones =
      new AtomicReference<>(List.of());
  private final AtomicLong maxTimestamp = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong estimatedBytes = new AtomicLong();

  MemPartition(PartitionKey key) {
    this.key = key;
  }

  void apply(DeletionTime deletion, List<RangeTombstone> rts, List<Row> newRows, long updateMaxTs) {
    // Raise the newest timestamp first: a concurrent read skips this source when its newest
    // timestamp is older than a partition deletion, and must not skip a write half applied.
    maxTimestamp.accumulateAndGet(updateMaxTs, Math::max);
    if (!deletion.isLive()) {
      partitionDeletion.accumulateAndGet(deletion, DeletionTime::max);
    }
    if (!rts.isEmpty()) {
      rangeTombstones.updateAndGet(
          old -> {
            List<RangeTombstone> l = new ArrayList<>(old.size() + rts.size());
            l.addAll(old);
            l.addAll(rts);
            return List.copyOf(l);
          });
    }
    for (Row r : newRows) {
      rows.merge(r.clustering(), r, Row::merge);
    }
  }

  @Override
  public PartitionKey key() {
    return key;
  }

  @Override
  public DeletionTime partitionDeletion() {
    return partitionDeletion.get();
  }

  @Override
  public List<RangeTombstone> rangeTombstones(Slice slice) {
    return rangeTombstones.get();
  }

  /** Every range tombstone of this partition, in insertion order. */
  public List<RangeTombstone> allRangeTombstones() {
    return rangeTombstones.get();
  }

  @Override
  public Iterator<Row> rows(Slice slice, boolean reversed) {
    ConcurrentNavigableMap<byte[], Row> sub = rows.subMap(slice.start(), slice.end());
    return (reversed ? sub.descendingMap() : sub).values().iterator();
  }

  /**
   * Heap-size estimate of every update applied to this partition (overwrites count again); what the
   * partition size guardrail checks writes against.
   */
  public long estimatedBytes() {
    return estimatedBytes.get();
  }

  void addEstimatedBytes(long bytes) {
    estimatedBytes.addAndGet(bytes);
  }

  /** Whether this partition already holds a row (live or deleted) at {@code clustering}. */
  public boolean hasRow(byte[] clustering) {
    return rows.containsKey(clustering);
  }

  public int rowCount() {
    return rows.size();
  }

  @Override
  public long maxTimestamp() {
    return maxTimestamp.get();
  }
}
