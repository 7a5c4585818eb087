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
 * <p>Its heap is counted exactly: this object, its table and the table's two arrays ({@link
 * #heapSize}).
 *
 * <p>Thread-safe.
 */
final class PartitionIndex {
  private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(MemPartition[].class);
  private static final Slots EMPTY = new Slots(0);
  private static final int FIRST_CAPACITY = 16;

  /** This object: the slots reference and the size. */
  static final long SELF = HeapLayout.object(HeapLayout.REF + 4);

  /**
   * The table: partitions, and beside each its token folded to 32 bits, so that a probe past
   * another partition compares an int in an array it is already reading instead of loading that
   * partition and its key (two cache misses each in a large memtable; a lookup of a partition the
   * memtable does not hold, as most point reads are, probes 2.5 slots on average at half full).
   */
  private static final class Slots {
    static final long SELF = HeapLayout.object(2L * HeapLayout.REF);

    final MemPartition[] partitions;
    final int[] prints;

    Slots(int capacity) {
      partitions = new MemPartition[capacity];
      prints = new int[capacity];
    }

    long heapSize() {
      return SELF + HeapLayout.refArray(partitions.length) + HeapLayout.intArray(prints.length);
    }
  }

  private volatile Slots table = EMPTY;
  private int size; // guarded by this

  /** The partition with {@code key}, or null. */
  MemPartition get(PartitionKey key) {
    Slots t = table;
    int mask = t.partitions.length - 1;
    if (mask < 0) {
      return null;
    }
    int print = fold(key);
    for (int i = print & mask; ; i = (i + 1) & mask) {
      MemPartition p = (MemPartition) SLOT.getVolatile(t.partitions, i);
      if (p == null) {
        return null;
      }
      // the print was written before the partition was published in its slot
      if (t.prints[i] == print && p.key().equals(key)) {
        return p;
      }
    }
  }

  /**
   * Adds {@code p}, whose key is not in the index (the caller checked, holding this monitor);
   * returns the bytes the index grew by (0 unless its table was created or doubled).
   */
  synchronized long add(MemPartition p) {
    Slots t = table;
    long before = heapSize();
    if (2 * (size + 1) > t.partitions.length) {
      Slots bigger = new Slots(Math.max(FIRST_CAPACITY, 2 * t.partitions.length));
      for (MemPartition q : t.partitions) {
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

  private static void place(Slots t, MemPartition p) {
    int mask = t.partitions.length - 1;
    int print = fold(p.key());
    int i = print & mask;
    while (t.partitions[i] != null) {
      i = (i + 1) & mask;
    }
    t.prints[i] = print;
    SLOT.setVolatile(t.partitions, i, p);
  }

  /** The token is a Murmur3 hash already; fold its two halves. */
  private static int fold(PartitionKey key) {
    long t = key.token();
    return (int) (t ^ (t >>> 32));
  }

  /** The heap this index holds beside the partitions (0 before the first one). */
  long heapSize() {
    Slots t = table;
    return t.partitions.length == 0 ? 0 : SELF + t.heapSize();
  }
}
