package dev.talus.bench;

import java.util.Locale;

/**
 * How many sources an engine consulted per read during one workload. The two engines count
 * different things, and {@link #what} says which: Talus reports every memtable and SSTable it
 * merged for a partition (after its Bloom filter, clustering range and partition index ruled the
 * others out), from its metrics listener; RocksDB reports, for {@code Get}, the SST files whose
 * Bloom filter let the key through (each then costs an index and a data block lookup), from its
 * statistics ({@code rocksdb.bloom.filter.full.positive} ÷ gets), and for iterators the sorted runs
 * (L0 files + non-empty levels) it merges. Immutable.
 *
 * @param reads reads counted
 * @param mean sources per read, mean ({@code NaN} if not measured)
 * @param p50 median ({@code -1} if the engine gives no distribution)
 * @param p99 99th percentile ({@code -1} likewise)
 * @param max largest ({@code -1} likewise)
 * @param what what was counted, and anything else the engine said (e.g. where RocksDB's hits were)
 */
record ReadSources(long reads, double mean, long p50, long p99, long max, String what) {
  static final ReadSources NONE = new ReadSources(0, Double.NaN, -1, -1, -1, "");

  String brief() {
    if (reads == 0 && Double.isNaN(mean)) {
      return what.isEmpty() ? "-" : what;
    }
    if (p50 < 0) {
      return String.format(Locale.ROOT, "%.2f", mean);
    }
    return String.format(Locale.ROOT, "%.2f (p50 %d, p99 %d, max %d)", mean, p50, p99, max);
  }
}
