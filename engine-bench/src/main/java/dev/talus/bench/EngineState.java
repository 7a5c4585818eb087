package dev.talus.bench;

import java.util.Locale;

/**
 * What an engine reports about itself at one instant: its SSTables per level and the memory it
 * accounts for. Immutable.
 *
 * @param sstablesPerLevel SSTables (RocksDB: SST files) in each level, index = level
 * @param bytesPerLevel their bytes on disk
 * @param memtableBytes Talus: the heap its memtables hold, counted from the JVM's object layout
 *     ({@code TableStats.memtableBytes}); RocksDB: {@code rocksdb.size-all-mem-tables} (arena bytes
 *     of the active, unflushed and pinned memtables)
 * @param unflushedMemtableBytes RocksDB: {@code rocksdb.cur-size-all-mem-tables} (the active and
 *     unflushed memtables, without those only pinned by iterators); Talus: its memtable figure
 * @param cacheBytes RocksDB: {@code rocksdb.block-cache-usage}; Talus: not reported (0; its chunk
 *     cache is bounded by {@code chunkCacheBytes} and counted in the live heap)
 * @param pinnedCacheBytes RocksDB: {@code rocksdb.block-cache-pinned-usage} (the part of the block
 *     cache in use by readers and iterators); Talus: 0
 * @param tableReaderBytes RocksDB: {@code rocksdb.estimate-table-readers-mem} (index and filter
 *     blocks held outside the block cache); Talus: the heap its open SSTables keep outside the
 *     chunk cache ({@code TableStats.sstableHeapBytes}: Bloom filters, index samples, chunk
 *     offsets)
 * @param offHeap whether memtables and cache live outside the Java heap
 */
record EngineState(
    int[] sstablesPerLevel,
    long[] bytesPerLevel,
    long memtableBytes,
    long unflushedMemtableBytes,
    long cacheBytes,
    long pinnedCacheBytes,
    long tableReaderBytes,
    boolean offHeap) {

  static final EngineState NONE = new EngineState(new int[0], new long[0], 0, 0, 0, 0, 0, false);

  /**
   * Memory held outside the Java heap (RocksDB: memtables + block cache + table readers; the pinned
   * part is inside the block cache's figure).
   */
  long nativeBytes() {
    return offHeap ? memtableBytes + cacheBytes + tableReaderBytes : 0;
  }

  /** The heap the engine accounts for itself (Talus: memtables + SSTable readers); 0 off heap. */
  long accountedHeapBytes() {
    return offHeap ? 0 : memtableBytes + cacheBytes + tableReaderBytes;
  }

  /** SSTables in L0 plus the non-empty levels above it: the sorted runs an iterator merges. */
  int sortedRuns() {
    int runs = sstablesPerLevel.length > 0 ? sstablesPerLevel[0] : 0;
    for (int l = 1; l < sstablesPerLevel.length; l++) {
      runs += sstablesPerLevel[l] > 0 ? 1 : 0;
    }
    return runs;
  }

  /** "L0:3 L8:5 (61 MB)": the non-empty levels and the total size. */
  String shape() {
    StringBuilder b = new StringBuilder();
    long total = 0;
    for (int l = 0; l < sstablesPerLevel.length; l++) {
      total += bytesPerLevel[l];
      if (sstablesPerLevel[l] > 0) {
        b.append(b.length() == 0 ? "" : " ").append('L').append(l).append(':');
        b.append(sstablesPerLevel[l]);
      }
    }
    if (b.length() == 0) {
      return "none";
    }
    return b.append(String.format(Locale.ROOT, " (%.0f MB)", total / 1e6)).toString();
  }
}
