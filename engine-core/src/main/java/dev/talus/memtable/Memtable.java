package dev.talus.memtable;

import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionUpdate;
import java.util.Collection;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory part of one table: partitions in (token, key) order, written concurrently. A
 * memtable only grows; when it is flushed a fresh one replaces it and this one becomes read-only.
 *
 * <p>Thread-safe. Memory is estimated per update, not measured.
 */
public final class Memtable {
  private final ConcurrentSkipListMap<PartitionKey, MemPartition> partitions =
      new ConcurrentSkipListMap<>();
  private final AtomicLong liveBytes = new AtomicLong();
  private final AtomicLong minTimestamp = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong operations = new AtomicLong();

  /** Commit-log positions (encoded) this memtable covers: [lower, upper); set by the engine. */
  private volatile long commitLogLower = Long.MIN_VALUE;

  private volatile long commitLogUpper = Long.MAX_VALUE;

  public long commitLogLower() {
    return commitLogLower;
  }

  public long commitLogUpper() {
    return commitLogUpper;
  }

  public void setCommitLogLower(long position) {
    commitLogLower = position;
  }

  /** Set when the memtable is sealed: every later write of its table has a later position. */
  public void setCommitLogUpper(long position) {
    commitLogUpper = position;
  }

  /** Applies {@code update}; returns the bytes it is estimated to add. */
  public long apply(PartitionUpdate update) {
    MemPartition p = partitions.computeIfAbsent(update.key(), MemPartition::new);
    long maxTs = update.maxTimestamp();
    p.apply(update.partitionDeletion(), update.rangeTombstones(), update.rows(), maxTs);
    long bytes = update.heapSize();
    p.addEstimatedBytes(bytes);
    liveBytes.addAndGet(bytes);
    minTimestamp.accumulateAndGet(minTimestampOf(update), Math::min);
    operations.incrementAndGet();
    return bytes;
  }

  private static long minTimestampOf(PartitionUpdate u) {
    long m = Long.MAX_VALUE;
    if (!u.partitionDeletion().isLive()) {
      m = u.partitionDeletion().markedForDeleteAt();
    }
    for (var t : u.rangeTombstones()) {
      m = Math.min(m, t.deletion().markedForDeleteAt());
    }
    for (var r : u.rows()) {
      if (!r.liveness().isEmpty()) {
        m = Math.min(m, r.liveness().timestamp());
      }
      if (!r.deletion().isLive()) {
        m = Math.min(m, r.deletion().markedForDeleteAt());
      }
      for (var c : r.cells()) {
        m = Math.min(m, c.timestamp());
      }
    }
    return m;
  }

  /** The partition, or null if this memtable has nothing for it. */
  public MemPartition get(PartitionKey key) {
    return partitions.get(key);
  }

  /** All partitions in (token, key) order (for flush and dumps). */
  public Collection<MemPartition> partitions() {
    return partitions.values();
  }

  /**
   * The partition keys in (token, key) order from {@code from} (null: the first; included if {@code
   * inclusive}); weakly consistent with concurrent writes, as the map's views are.
   */
  public java.util.Iterator<PartitionKey> keys(PartitionKey from, boolean inclusive) {
    return (from == null ? partitions : partitions.tailMap(from, inclusive)).keySet().iterator();
  }

  public boolean isEmpty() {
    return partitions.isEmpty();
  }

  public long liveBytes() {
    return liveBytes.get();
  }

  public long operations() {
    return operations.get();
  }

  public int partitionCount() {
    return partitions.size();
  }

  /** The smallest write or deletion timestamp in this memtable (purge decisions need it). */
  public long minTimestamp() {
    return minTimestamp.get();
  }
}
