package dev.talus.memtable;

import dev.talus.data.PartitionKey;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A memtable's partitions by hash, beside its ordered map: a write finds its partition in one or
 * two probes of an open-addressing table instead of a descent through a skip list of every
 * partition. Partitions are only added (a memtable never loses one), so the table is an array of
 * partitions probed linearly from the token's slot; a lookup takes no lock. Additions take the
 * index's monitor; past half full the table is copied into one twice as large, which is published
 * whole, so a lookup meets either table and finds every partition added before it began.
 *
 * <p>Its heap is counted exactly: this object and its one array ({@link #heapSize}).
 *
 * <p>Thread-safe.
 */
final class PartitionIndex {
  private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(MemPartition[].class);
  private static final MemPartition[] EMPTY = new MemPartition[0];
  private static final int FIRST_CAPACITY = 16;

  /** This object: the table reference and the size. */
  static final long SELF = HeapLayout.object(HeapLayout.REF + 4);

  private volatile MemPartition[] table = EMPTY;
  private int size; // guarded by this

  /** The partition with {@code key}, or null. */
  MemPartition get(PartitionKey key) {
    MemPartition[] t = table;
    int mask = t.length - 1;
    if (mask < 0) {
      return null;
    }
    for (int i = slot(key) & mask; ; i = (i + 1) & mask) {
      MemPartition p = (MemPartition) SLOT.getVolatile(t, i);
      if (p == null || p.key().equals(key)) {
        return p;
      }
    }
  }

  /**
   * Adds {@code p}, whose key is not in the index (the caller checked, holding this monitor);
   * returns the bytes the index grew by (0 unless its table was created or doubled).
   */
  synchronized long add(MemPartition p) {
    MemPartition[] t = table;
    long before = heapSize();
    if (2 * (size + 1) > t.length) {
      MemPartition[] bigger = new MemPartition[Math.max(FIRST_CAPACITY, 2 * t.length)];
      for (MemPartition q : t) {
        if (q != null) {
          place(bigger, q);
        }
      }
      table = bigger;
      t = bigger;
    }
    place(t, p);
    size++;
    return heapSize() - before;
  }

  private static void place(MemPartition[] t, MemPartition p) {
    int mask = t.length - 1;
    int i = slot(p.key()) & mask;
    while (t[i] != null) {
      i = (i + 1) & mask;
    }
    SLOT.setVolatile(t, i, p);
  }

  /** The token is a Murmur3 hash already; fold its two halves. */
  private static int slot(PartitionKey key) {
    long t = key.token();
    return (int) (t ^ (t >>> 32));
  }

  /** The heap this index holds beside the partitions (0 before the first one). */
  long heapSize() {
    MemPartition[] t = table;
    return t.length == 0 ? 0 : SELF + HeapLayout.refArray(t.length);
  }
}
