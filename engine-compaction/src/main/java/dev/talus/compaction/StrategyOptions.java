package dev.talus.compaction;

/** A strategy's options, already validated by the public API. Immutable. */
public sealed interface StrategyOptions {
  /** Options every strategy shares: single-SSTable tombstone compaction. */
  record Tombstones(double threshold, long intervalSeconds, boolean unchecked) {
    public static final Tombstones DEFAULTS = new Tombstones(0.2, 86_400, false);
  }

  Tombstones tombstones();

  /** Size-tiered: Cassandra's defaults are 4, 32, 0.5, 1.5, 50 MiB. */
  record SizeTiered(
      int minThreshold,
      int maxThreshold,
      double bucketLow,
      double bucketHigh,
      long minSSTableSize,
      Tombstones tombstones)
      implements StrategyOptions {
    public static SizeTiered defaults() {
      return new SizeTiered(4, 32, 0.5, 1.5, 50L << 20, Tombstones.DEFAULTS);
    }
  }

  /**
   * Leveled: 160 MiB SSTables, fanout 10, and a base level of {@value #DEFAULT_LEVEL_BASE_BYTES}
   * bytes: the smallest target a level ≥ 1 gets (RocksDB's {@code max_bytes_for_level_base}; see
   * {@link LevelTargets}).
   */
  record Leveled(long sstableSize, int fanout, long levelBaseBytes, Tombstones tombstones)
      implements StrategyOptions {
    /** 256 MiB, RocksDB's default {@code max_bytes_for_level_base}. */
    public static final long DEFAULT_LEVEL_BASE_BYTES = 256L << 20;

    /** The options with the default level base (the engine's tables cannot set it yet). */
    public Leveled(long sstableSize, int fanout, Tombstones tombstones) {
      this(sstableSize, fanout, DEFAULT_LEVEL_BASE_BYTES, tombstones);
    }

    public static Leveled defaults() {
      return new Leveled(160L << 20, 10, Tombstones.DEFAULTS);
    }
  }

  /** Time-window: windows of {@code windowSeconds}, timestamps in microseconds. */
  record TimeWindow(long windowSeconds, int minThreshold, int maxThreshold, Tombstones tombstones)
      implements StrategyOptions {
    public static TimeWindow defaults() {
      return new TimeWindow(86_400, 4, 32, Tombstones.DEFAULTS);
    }
  }
}
