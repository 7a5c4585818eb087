package dev.talus;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Which compaction strategy a table uses, with its options. Defaults are Cassandra's. Built with
 * {@link #sizeTiered()}, {@link #leveled()} or {@link #timeWindow()}; an option that does not
 * belong to the chosen strategy, or a value out of range, is rejected at {@code build()} with an
 * {@link InvalidSchemaException} naming the option. Immutable and thread-safe.
 */
public final class CompactionOptions {
  /** The strategies Talus implements. */
  public enum Strategy {
    SIZE_TIERED,
    LEVELED,
    TIME_WINDOW
  }

  private final Strategy strategy;
  private final int minThreshold;
  private final int maxThreshold;
  private final double bucketLow;
  private final double bucketHigh;
  private final long minSSTableSizeBytes;
  private final long sstableSizeBytes;
  private final int fanout;
  private final ChronoUnit windowUnit;
  private final int windowSize;
  private final double tombstoneThreshold;
  private final Duration tombstoneCompactionInterval;
  private final boolean uncheckedTombstoneCompaction;

  private CompactionOptions(Builder b) {
    this.strategy = b.strategy;
    this.minThreshold = b.minThreshold;
    this.maxThreshold = b.maxThreshold;
    this.bucketLow = b.bucketLow;
    this.bucketHigh = b.bucketHigh;
    this.minSSTableSizeBytes = b.minSSTableSizeBytes;
    this.sstableSizeBytes = b.sstableSizeBytes;
    this.fanout = b.fanout;
    this.windowUnit = b.windowUnit;
    this.windowSize = b.windowSize;
    this.tombstoneThreshold = b.tombstoneThreshold;
    this.tombstoneCompactionInterval = b.tombstoneCompactionInterval;
    this.uncheckedTombstoneCompaction = b.uncheckedTombstoneCompaction;
  }

  /** Size-tiered compaction (STCS), the default. */
  public static Builder sizeTiered() {
    return new Builder(Strategy.SIZE_TIERED);
  }

  /** Leveled compaction (LCS). */
  public static Builder leveled() {
    return new Builder(Strategy.LEVELED);
  }

  /** Time-window compaction (TWCS), for TTL'd time series. */
  public static Builder timeWindow() {
    return new Builder(Strategy.TIME_WINDOW);
  }

  /** Size-tiered with every default. */
  public static CompactionOptions defaults() {
    return sizeTiered().build();
  }

  public Strategy strategy() {
    return strategy;
  }

  public int minThreshold() {
    return minThreshold;
  }

  public int maxThreshold() {
    return maxThreshold;
  }

  public double bucketLow() {
    return bucketLow;
  }

  public double bucketHigh() {
    return bucketHigh;
  }

  public long minSSTableSizeBytes() {
    return minSSTableSizeBytes;
  }

  public long sstableSizeBytes() {
    return sstableSizeBytes;
  }

  public int fanout() {
    return fanout;
  }

  public ChronoUnit windowUnit() {
    return windowUnit;
  }

  public int windowSize() {
    return windowSize;
  }

  public double tombstoneThreshold() {
    return tombstoneThreshold;
  }

  public Duration tombstoneCompactionInterval() {
    return tombstoneCompactionInterval;
  }

  public boolean uncheckedTombstoneCompaction() {
    return uncheckedTombstoneCompaction;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof CompactionOptions c && c.toString().equals(toString());
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder(strategy.name().toLowerCase(Locale.ROOT)).append('{');
    switch (strategy) {
      case SIZE_TIERED ->
          s.append("min_threshold=")
              .append(minThreshold)
              .append(", max_threshold=")
              .append(maxThreshold)
              .append(", bucket_low=")
              .append(bucketLow)
              .append(", bucket_high=")
              .append(bucketHigh)
              .append(", min_sstable_size=")
              .append(minSSTableSizeBytes);
      case LEVELED ->
          s.append("sstable_size=")
              .append(sstableSizeBytes)
              .append(", fanout_size=")
              .append(fanout);
      case TIME_WINDOW ->
          s.append("compaction_window_unit=")
              .append(windowUnit)
              .append(", compaction_window_size=")
              .append(windowSize)
              .append(", min_threshold=")
              .append(minThreshold)
              .append(", max_threshold=")
              .append(maxThreshold);
    }
    return s.append(", tombstone_threshold=")
        .append(tombstoneThreshold)
        .append(", tombstone_compaction_interval=")
        .append(tombstoneCompactionInterval)
        .append(", unchecked_tombstone_compaction=")
        .append(uncheckedTombstoneCompaction)
        .append('}')
        .toString();
  }

  /** Collects options for one strategy. Not thread-safe. */
  public static final class Builder {
    private final Strategy strategy;
    private final List<String> misplaced = new ArrayList<>();
    private int minThreshold = 4;
    private int maxThreshold = 32;
    private double bucketLow = 0.5;
    private double bucketHigh = 1.5;
    private long minSSTableSizeBytes = 50L << 20;
    private long sstableSizeBytes = 160L << 20;
    private int fanout = 10;
    private ChronoUnit windowUnit = ChronoUnit.DAYS;
    private int windowSize = 1;
    private double tombstoneThreshold = 0.2;
    private Duration tombstoneCompactionInterval = Duration.ofDays(1);
    private boolean uncheckedTombstoneCompaction;

    private Builder(Strategy strategy) {
      this.strategy = strategy;
    }

    private void only(String option, Strategy... allowed) {
      for (Strategy s : allowed) {
        if (s == strategy) {
          return;
        }
      }
      misplaced.add(option);
    }

    /** STCS/TWCS: the fewest SSTables a bucket needs before it is compacted (default 4). */
    public Builder minThreshold(int v) {
      only("min_threshold", Strategy.SIZE_TIERED, Strategy.TIME_WINDOW);
      minThreshold = v;
      return this;
    }

    /** STCS/TWCS: the most SSTables compacted at once (default 32). */
    public Builder maxThreshold(int v) {
      only("max_threshold", Strategy.SIZE_TIERED, Strategy.TIME_WINDOW);
      maxThreshold = v;
      return this;
    }

    /** STCS: an SSTable joins a bucket above average × bucket_low (default 0.5). */
    public Builder bucketLow(double v) {
      only("bucket_low", Strategy.SIZE_TIERED);
      bucketLow = v;
      return this;
    }

    /** STCS: an SSTable joins a bucket below average × bucket_high (default 1.5). */
    public Builder bucketHigh(double v) {
      only("bucket_high", Strategy.SIZE_TIERED);
      bucketHigh = v;
      return this;
    }

    /** STCS: SSTables smaller than this all share one bucket (default 50 MiB). */
    public Builder minSSTableSizeBytes(long v) {
      only("min_sstable_size", Strategy.SIZE_TIERED);
      minSSTableSizeBytes = v;
      return this;
    }

    /** LCS: target SSTable size (default 160 MiB). */
    public Builder sstableSizeBytes(long v) {
      only("sstable_size", Strategy.LEVELED);
      sstableSizeBytes = v;
      return this;
    }

    /** LCS: each level holds this many times the previous one (default 10). */
    public Builder fanout(int v) {
      only("fanout_size", Strategy.LEVELED);
      fanout = v;
      return this;
    }

    /** TWCS: the unit of a window: MINUTES, HOURS or DAYS (default DAYS). */
    public Builder windowUnit(ChronoUnit v) {
      only("compaction_window_unit", Strategy.TIME_WINDOW);
      windowUnit = v;
      return this;
    }

    /** TWCS: units per window (default 1). */
    public Builder windowSize(int v) {
      only("compaction_window_size", Strategy.TIME_WINDOW);
      windowSize = v;
      return this;
    }

    /** Droppable-tombstone ratio that makes an SSTable worth compacting alone (default 0.2). */
    public Builder tombstoneThreshold(double v) {
      tombstoneThreshold = v;
      return this;
    }

    /** Minimum SSTable age before a single-SSTable tombstone compaction (default 1 day). */
    public Builder tombstoneCompactionInterval(Duration v) {
      tombstoneCompactionInterval = Objects.requireNonNull(v, "tombstoneCompactionInterval");
      return this;
    }

    /** Skip the overlap pre-check of tombstone compactions (purge rules still apply). */
    public Builder uncheckedTombstoneCompaction(boolean v) {
      uncheckedTombstoneCompaction = v;
      return this;
    }

    public CompactionOptions build() {
      String name = strategy.name().toLowerCase(Locale.ROOT);
      if (!misplaced.isEmpty()) {
        throw new InvalidSchemaException(
            "compaction options " + misplaced + " do not apply to the " + name + " strategy");
      }
      if (minThreshold < 2) {
        throw new InvalidSchemaException("min_threshold must be at least 2, got " + minThreshold);
      }
      if (maxThreshold < minThreshold) {
        throw new InvalidSchemaException(
            "max_threshold ("
                + maxThreshold
                + ") must be at least min_threshold ("
                + minThreshold
                + ")");
      }
      if (!(bucketLow > 0 && bucketHigh > bucketLow)) {
        throw new InvalidSchemaException(
            "bucket_high must be greater than bucket_low and bucket_low positive, got bucket_low="
                + bucketLow
                + ", bucket_high="
                + bucketHigh);
      }
      if (minSSTableSizeBytes < 0) {
        throw new InvalidSchemaException("min_sstable_size must not be negative");
      }
      if (sstableSizeBytes < 1 << 16) {
        throw new InvalidSchemaException(
            "sstable_size must be at least 64 KiB, got " + sstableSizeBytes);
      }
      if (fanout < 2) {
        throw new InvalidSchemaException("fanout_size must be at least 2, got " + fanout);
      }
      if (windowUnit != ChronoUnit.MINUTES
          && windowUnit != ChronoUnit.HOURS
          && windowUnit != ChronoUnit.DAYS) {
        throw new InvalidSchemaException(
            "compaction_window_unit must be MINUTES, HOURS or DAYS, got " + windowUnit);
      }
      if (windowSize < 1) {
        throw new InvalidSchemaException(
            "compaction_window_size must be at least 1, got " + windowSize);
      }
      if (!(tombstoneThreshold > 0 && tombstoneThreshold <= 1)) {
        throw new InvalidSchemaException(
            "tombstone_threshold must be in (0, 1], got " + tombstoneThreshold);
      }
      if (tombstoneCompactionInterval.isNegative()) {
        throw new InvalidSchemaException("tombstone_compaction_interval must not be negative");
      }
      if (tombstoneCompactionInterval.getNano() != 0) {
        throw new InvalidSchemaException(
            "tombstone_compaction_interval is counted in whole seconds, got "
                + tombstoneCompactionInterval);
      }
      return new CompactionOptions(this);
    }
  }
}
