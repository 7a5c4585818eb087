package dev.talus.memtable;

import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionUpdate;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The in-memory part of one table: partitions in (token, key) order, written concurrently. A
 * memtable only grows; when it is flushed a fresh one replaces it and this one becomes read-only.
 * Writes and point reads find their partition through a hash index ({@link PartitionIndex}); an
 * ordered set of the same partitions ({@link PartitionOrder}) serves flushes and scans. A partition
 * is created once, under the index's monitor, so the ordered set has one writer at a time.
 *
 * <p>Thread-safe. {@link #liveBytes} is the heap the memtable's partitions and rows hold, added up
 * from the JVM's object layout as writes change it ({@link HeapLayout}): an overwrite adds the
 * difference between the new and the replaced chunk of rows, not the write's size. Every part is a
 * count, none an expectation.
 */
public final class Memtable {
  private final PartitionOrder partitions = new PartitionOrder();
  private final AtomicLong liveBytes = new AtomicLong();
  private final AtomicLong minTimestamp = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong operations = new AtomicLong();
  private final PartitionIndex index = new PartitionIndex();

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

  /**
   * Applies {@code update}; returns the heap bytes the memtable grew by (negative when an overwrite
   * replaced larger rows), the figure {@link #liveBytes} adds up.
   */
  public long apply(PartitionUpdate update) {
    long bytes = 0;
    MemPartition p = index.get(update.key());
    if (p == null) {
      synchronized (index) { // partitions are created one at a time, each once
        p = index.get(update.key());
        if (p == null) {
          p = new MemPartition(update.key());
          bytes += partitionCost(update.key()) + partitions.addPartition(p) + index.add(p);
        }
      }
    }
    long maxTs = update.maxTimestamp();
    bytes += p.apply(update.partitionDeletion(), update.rangeTombstones(), update.rows(), maxTs);
    p.addEstimatedBytes(update.heapSize());
    liveBytes.addAndGet(bytes);
    minTimestamp.accumulateAndGet(minTimestampOf(update), Math::min);
    operations.incrementAndGet();
    return bytes;
  }

  private static long partitionCost(PartitionKey key) {
    return MemPartition.SELF + HeapLayout.PARTITION_KEY + HeapLayout.byteArray(key.bytes().length);
  }

  /**
   * The heap this memtable holds, recounted from its whole content: equal to {@link #liveBytes}
   * when no write is in progress. Walks every row; for checks, not for the write path.
   */
  long recount() {
    long s = partitions.heapSize() + index.heapSize();
    for (MemPartition p : partitions) {
      s += p.recount();
    }
    return s;
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
    return index.get(key);
  }

  /** All partitions in (token, key) order (for flush and dumps). */
  public Collection<MemPartition> partitions() {
    return partitions;
  }

  /**
   * The partition keys in (token, key) order from {@code from} (null: the first; included if {@code
   * inclusive}); weakly consistent with concurrent writes (see {@link PartitionOrder}).
   */
  public java.util.Iterator<PartitionKey> keys(PartitionKey from, boolean inclusive) {
    java.util.Iterator<MemPartition> it =
        from == null ? partitions.iterator() : partitions.from(from, inclusive);
    return new java.util.Iterator<>() {
      @Override
      public boolean hasNext() {
        return it.hasNext();
      }

      @Override
      public PartitionKey next() {
        return it.next().key();
      }
    };
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
