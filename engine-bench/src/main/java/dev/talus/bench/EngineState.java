package dev.talus.bench;

import java.util.Locale;

/**
 * What an engine reports about itself at one instant: its SSTables per level and the memory it
 * accounts for. Immutable.
 *
 * @param sstablesPerLevel SSTables (RocksDB: SST files) in each level, index = level
 * @param bytesPerLevel their bytes on disk
 * @param memtableBytes Talus: its memtables' on-heap size estimate; RocksDB: {@code
 *     rocksdb.size-all-mem-tables} (arena bytes of the active, unflushed and pinned memtables)
 * @param cacheBytes RocksDB: {@code rocksdb.block-cache-usage}; Talus: not reported (0)
 * @param tableReaderBytes RocksDB: {@code rocksdb.estimate-table-readers-mem} (index and filter
 *     blocks held outside the block cache); Talus: 0 (on heap)
 * @param offHeap whether memtables and cache live outside the Java heap
 */
record EngineState(
    int[] sstablesPerLevel,
    long[] bytesPerLevel,
    long memtableBytes,
    long cacheBytes,
    long tableReaderBytes,
    boolean offHeap) {

  static final EngineState NONE = new EngineState(new int[0], new long[0], 0, 0, 0, false);

  /** Memory held outside the Java heap (RocksDB: memtables + block cache + table readers). */
  long nativeBytes() {
    return offHeap ? memtableBytes + cacheBytes + tableReaderBytes : 0;
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
