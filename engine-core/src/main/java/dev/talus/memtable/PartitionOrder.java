package dev.talus.memtable;

import dev.talus.data.PartitionKey;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.AbstractCollection;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A memtable's partitions in (token, key) order, for flushes and scans. Tokens are Murmur3 hashes,
 * spread evenly over the longs, so the order is a directory of 2<sup>bits</sup> buckets by the
 * token's top bits, each bucket a sorted array of the partitions whose tokens fall in its range. An
 * addition finds its bucket by arithmetic and copies that one small array (about {@value #SPLIT_AT}
 * partitions at most on average) with the new partition in place, then publishes the copy; past
 * {@value #SPLIT_AT} partitions per bucket on average the directory doubles, each bucket split in
 * two by the next bit, and the new directory is published whole. A skip list of every partition
 * instead descends about log<sub>2</sub> n levels, each a few dependent loads that miss the cache
 * once the memtable is large: that descent was a third of an insert's time when every insert
 * created a partition (YCSB's load phase).
 *
 * <p>One writer at a time (the memtable creates partitions under its index's monitor); readers take
 * no lock. A bucket array is never modified once published, so a reader iterating the directory it
 * loaded meets every partition added before it loaded it, once, in order, and may or may not meet
 * later ones: weakly consistent, as a concurrent skip list's views are.
 *
 * <p>Its heap is counted exactly ({@link #heapSize}): this object, the directory and the bucket
 * arrays. Thread-safe as described.
 */
final class PartitionOrder extends AbstractCollection<MemPartition> {
  private static final VarHandle BUCKET =
      MethodHandles.arrayElementVarHandle(MemPartition[][].class);

  /** The directory's first size: 2^4 buckets. */
  static final int FIRST_BITS = 4;

  /** The directory doubles once it holds more than this many partitions per bucket. */
  static final int SPLIT_AT = 4;

  /** The directory never grows past 2^28 buckets (a gigabyte of references). */
  static final int MAX_BITS = 28;

  /** This object: the directory reference and the size. */
  static final long SELF = HeapLayout.object(HeapLayout.REF + 4);

  private volatile MemPartition[][] directory; // null until the first partition
  private volatile int size; // written by the one writer

  /**
   * Adds {@code p}, whose key is not here yet (the caller checked, as the one writer); returns the
   * bytes this structure grew by.
   */
  long addPartition(MemPartition p) {
    long grown = 0;
    MemPartition[][] dir = directory;
    if (dir == null) {
      dir = new MemPartition[1 << FIRST_BITS][];
      grown += SELF + HeapLayout.refArray(dir.length);
    } else if (size >= SPLIT_AT * dir.length && dir.length < 1 << MAX_BITS) {
      MemPartition[][] bigger = split(dir);
      grown += HeapLayout.refArray(bigger.length) - HeapLayout.refArray(dir.length);
      grown += bucketBytes(bigger) - bucketBytes(dir);
      dir = bigger;
    }
    int i = bucketOf(p.key().token(), dir.length);
    MemPartition[] old = dir[i]; // the writer's own last store
    MemPartition[] grownBucket = insert(old, p);
    grown += HeapLayout.refArray(grownBucket.length) - (old == null ? 0 : bucketBytes(old));
    BUCKET.setRelease(dir, i, grownBucket);
    if (dir != directory) {
      directory = dir; // a new directory is published whole, with the partition in it
    }
    size = size + 1;
    return grown;
  }

  /** The heap this structure holds, recounted from its content (0 before the first partition). */
  long heapSize() {
    MemPartition[][] dir = directory;
    return dir == null ? 0 : SELF + HeapLayout.refArray(dir.length) + bucketBytes(dir);
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean isEmpty() {
    return size == 0;
  }

  /** Every partition in (token, key) order; weakly consistent with concurrent additions. */
  @Override
  public Iterator<MemPartition> iterator() {
    MemPartition[][] dir = directory;
    return dir == null ? new Walk(null, null, 0, 0) : new Walk(dir, bucket(dir, 0), 1, 0);
  }

  /**
   * The partitions from {@code from} on (included if {@code inclusive}) in (token, key) order;
   * weakly consistent with concurrent additions.
   */
  Iterator<MemPartition> from(PartitionKey from, boolean inclusive) {
    MemPartition[][] dir = directory;
    if (dir == null) {
      return new Walk(null, null, 0, 0);
    }
    int i = bucketOf(from.token(), dir.length);
    MemPartition[] b = bucket(dir, i);
    int at = 0;
    if (b != null) {
      int pos = search(b, from);
      at = pos >= 0 ? (inclusive ? pos : pos + 1) : -pos - 1;
    }
    return new Walk(dir, b, i + 1, at); // the array searched: a later copy may shift positions
  }

  /** Bucket {@code i} as published (null if empty). */
  private static MemPartition[] bucket(MemPartition[][] dir, int i) {
    return (MemPartition[]) BUCKET.getAcquire(dir, i);
  }

  /**
   * The bucket of {@code token} in a directory of {@code buckets} (a power of two, at least 2): its
   * top bits, with the sign bit flipped so that the buckets' order is the tokens' signed order.
   */
  static int bucketOf(long token, int buckets) {
    return (int) ((token ^ Long.MIN_VALUE) >>> (64 - Integer.numberOfTrailingZeros(buckets)));
  }

  /** Binary search of {@code key} in sorted bucket {@code b}, as {@code Arrays.binarySearch}. */
  private static int search(MemPartition[] b, PartitionKey key) {
    int lo = 0;
    int hi = b.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = b[mid].key().compareTo(key);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -(lo + 1);
  }

  /** A copy of {@code b} (null: empty) with {@code p} in its place. */
  private static MemPartition[] insert(MemPartition[] b, MemPartition p) {
    if (b == null) {
      return new MemPartition[] {p};
    }
    int pos = search(b, p.key());
    if (pos >= 0) {
      throw new IllegalStateException("partition added twice: " + p.key());
    }
    int at = -pos - 1;
    MemPartition[] c = new MemPartition[b.length + 1];
    System.arraycopy(b, 0, c, 0, at);
    c[at] = p;
    System.arraycopy(b, at, c, at + 1, b.length - at);
    return c;
  }

  /** A directory twice as large: bucket i becomes buckets 2i and 2i + 1, split by the next bit. */
  private static MemPartition[][] split(MemPartition[][] dir) {
    MemPartition[][] bigger = new MemPartition[dir.length * 2][];
    for (int i = 0; i < dir.length; i++) {
      MemPartition[] b = dir[i];
      if (b == null) {
        continue;
      }
      int cut = 0; // the first partition of the upper half
      while (cut < b.length && bucketOf(b[cut].key().token(), bigger.length) == 2 * i) {
        cut++;
      }
      bigger[2 * i] = cut == 0 ? null : java.util.Arrays.copyOfRange(b, 0, cut);
      bigger[2 * i + 1] = cut == b.length ? null : java.util.Arrays.copyOfRange(b, cut, b.length);
    }
    return bigger;
  }

  private static long bucketBytes(MemPartition[] b) {
    return HeapLayout.refArray(b.length);
  }

  private static long bucketBytes(MemPartition[][] dir) {
    long s = 0;
    for (MemPartition[] b : dir) {
      if (b != null) {
        s += bucketBytes(b);
      }
    }
    return s;
  }

  /**
   * Walks a directory from position {@code at} of bucket array {@code b}, then bucket {@code next}
   * on.
   */
  private static final class Walk implements Iterator<MemPartition> {
    private final MemPartition[][] dir;
    private int next; // the next bucket to load
    private MemPartition[] b;
    private int at;

    Walk(MemPartition[][] dir, MemPartition[] b, int next, int at) {
      this.dir = dir;
      this.b = b;
      this.next = next;
      this.at = at;
    }

    @Override
    public boolean hasNext() {
      while (b == null || at >= b.length) {
        if (dir == null || next >= dir.length) {
          return false;
        }
        b = bucket(dir, next++);
        at = 0;
      }
      return true;
    }

    @Override
    public MemPartition next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return b[at++];
    }
  }
}
