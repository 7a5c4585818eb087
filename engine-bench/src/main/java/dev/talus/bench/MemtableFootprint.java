package dev.talus.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Memory per byte of user data held in memtables: a fresh engine takes {@code rows} rows (112 user
 * bytes each) and flushes nothing; then the Java heap's live set has grown by {@link
 * Result#liveHeapDelta}, and the engine says its memtables hold {@link Result#engineFigure} bytes
 * (Talus: the heap it counts; RocksDB: {@code rocksdb.size-all-mem-tables}, its arena). Not
 * thread-safe.
 */
final class MemtableFootprint {
  /** Rows written: 16.8 MB of user data, below both engines' flush threshold. */
  static final int ROWS = 150_000;

  private MemtableFootprint() {}

  /**
   * @param flushed true if the engine wrote an SSTable meanwhile (then the figures undercount)
   */
  record Result(
      String engine,
      long rows,
      long userBytes,
      long liveHeapDelta,
      long engineFigure,
      boolean flushed) {
    double heapPerUserByte() {
      return (double) liveHeapDelta / userBytes;
    }

    double enginePerUserByte() {
      return (double) engineFigure / userBytes;
    }
  }

  static Result measure(
      String engineName,
      BiFunction<Path, BenchEngine.Layout, BenchEngine> opener,
      CompareConfig config,
      int[] fillOrder) {
    Path dir = BenchDirs.create(config.dataDir(), engineName + "-footprint-");
    BenchData data = new BenchData(config.seed());
    int rows = Math.min(ROWS, fillOrder.length);
    int partitions = config.partitions();
    BenchEngine e = opener.apply(dir, BenchEngine.Layout.NEWEST_FIRST);
    try {
      long before = HeapMeter.liveBytes();
      for (int i = 0; i < rows; i++) {
        e.put(fillOrder[i], i / partitions, data.value(i));
      }
      long after = HeapMeter.liveBytes();
      EngineState s = e.state();
      boolean flushed = false;
      for (int files : s.sstablesPerLevel()) {
        flushed |= files > 0;
      }
      return new Result(
          engineName,
          rows,
          (long) rows * BenchData.ROW_BYTES,
          after - before,
          s.memtableBytes(),
          flushed);
    } finally {
      e.close();
      BenchDirs.delete(dir);
    }
  }

  /** The result with the median heap figure of several repetitions. */
  static Result median(List<Result> results) {
    List<Result> sorted =
        results.stream().sorted(java.util.Comparator.comparingLong(Result::liveHeapDelta)).toList();
    return sorted.get(sorted.size() / 2);
  }
}
