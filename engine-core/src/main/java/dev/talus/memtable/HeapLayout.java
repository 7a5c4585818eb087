package dev.talus.memtable;

/**
 * Object sizes on the running HotSpot JVM, from its layout rules: a 12-byte object header and
 * 4-byte references (compressed class pointers and oops, HotSpot's default below a 32 GiB heap), 16
 * bytes and 8-byte references above it; arrays add a 4-byte length; every object is padded to 8
 * bytes. The memtable adds up what it allocates with these, so its figure is the heap it holds, not
 * a guess per cell. Stateless and thread-safe.
 */
final class HeapLayout {
  /** HotSpot turns compressed oops off by itself for heaps from about 32 GiB up. */
  private static final boolean COMPRESSED = Runtime.getRuntime().maxMemory() < (31L << 30);

  static final int REF = COMPRESSED ? 4 : 8;
  static final int HEADER = COMPRESSED ? 12 : 16;
  private static final int ARRAY_HEADER = HEADER + 4;

  /** A {@link dev.talus.data.PartitionKey}: the bytes reference and two longs. */
  static final long PARTITION_KEY = object(REF + 16);

  /** A {@link dev.talus.data.DeletionTime} or {@link dev.talus.data.RangeTombstone}'s deletion. */
  static final long DELETION_TIME = object(16);

  /** A {@link dev.talus.data.RangeTombstone}: start, end and deletion references. */
  static final long RANGE_TOMBSTONE = object(3 * REF);

  private HeapLayout() {}

  /** An object with {@code fieldBytes} of fields. */
  static long object(long fieldBytes) {
    return align(HEADER + fieldBytes);
  }

  static long byteArray(int length) {
    return align(ARRAY_HEADER + (long) length);
  }

  static long intArray(int length) {
    return align(ARRAY_HEADER + 4L * length);
  }

  static long refArray(int length) {
    return align(ARRAY_HEADER + (long) REF * length);
  }

  private static long align(long bytes) {
    return (bytes + 7) & ~7L;
  }
}
