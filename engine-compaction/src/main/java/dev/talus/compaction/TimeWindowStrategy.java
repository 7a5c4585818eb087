package dev.talus.compaction;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Time-window compaction (Cassandra's TWCS), for TTL'd time series written in time order. Each
 * SSTable belongs to the window of its newest data: {@link #windowOf}(maxTimestamp), windows being
 * {@code windowSeconds} long and aligned on the epoch. Timestamps are microseconds.
 *
 * <ul>
 *   <li>The <em>current</em> window is the later of the window containing now and the newest
 *       SSTable's window. Inside it, SSTables are compacted size-tiered once it holds at least
 *       min_threshold of them (Cassandra's size-tiered bucketing, default bucket options).
 *   <li>Every older window holding at least two SSTables is compacted whole (its smallest
 *       max_threshold SSTables at a time) until it is one SSTable.
 * </ul>
 *
 * The whole point is that each closed window ends as one SSTable whose data all expires together,
 * so the SSTable is dropped whole, unread, by {@link CompactionPlanner} ({@link ExpiredSSTables})
 * once its last TTL plus gc_grace has passed. Writes with old timestamps arriving late (see {@link
 * #isOutOfOrder}) land in SSTables that span windows and delay that drop.
 *
 * <p>Differences from Cassandra:
 *
 * <ul>
 *   <li>Older windows are served oldest first, and before the current window; Cassandra goes newest
 *       first. Old windows are the ones about to expire and they never change again.
 *   <li>The current window is at least the window of now; Cassandra uses the newest SSTable's
 *       window only.
 *   <li>Single-SSTable tombstone compactions are not proposed here. As in Cassandra they are meant
 *       to be off for TWCS unless the tombstone options differ from the defaults: see {@link
 *       #tombstoneCompactionsEnabled()}; the engine adds them.
 * </ul>
 *
 * Immutable and thread-safe.
 */
public final class TimeWindowStrategy implements CompactionStrategy {
  private static final long MICROS_PER_SECOND = 1_000_000L;
  private static final Comparator<SSTableInfo> BY_SIZE =
      Comparator.comparingLong(SSTableInfo::onDiskSize).thenComparingLong(SSTableInfo::generation);

  private final StrategyOptions.TimeWindow options;
  private final StrategyOptions.SizeTiered currentWindowOptions;

  public TimeWindowStrategy(StrategyOptions.TimeWindow options) {
    if (options.windowSeconds() <= 0) {
      throw new IllegalArgumentException(
          "windowSeconds must be positive: " + options.windowSeconds());
    }
    if (options.minThreshold() < 2 || options.maxThreshold() < options.minThreshold()) {
      throw new IllegalArgumentException(
          "need 2 <= minThreshold <= maxThreshold, got "
              + options.minThreshold()
              + " and "
              + options.maxThreshold());
    }
    this.options = options;
    StrategyOptions.SizeTiered d = StrategyOptions.SizeTiered.defaults();
    this.currentWindowOptions =
        new StrategyOptions.SizeTiered(
            options.minThreshold(),
            options.maxThreshold(),
            d.bucketLow(),
            d.bucketHigh(),
            d.minSSTableSize(),
            options.tombstones());
  }

  public StrategyOptions.TimeWindow options() {
    return options;
  }

  /**
   * The start, in seconds since the epoch, of the window holding a timestamp in microseconds:
   * floor(micros to seconds) rounded down to a multiple of {@code windowSeconds} (also for
   * timestamps before the epoch).
   */
  public static long windowOf(long maxTimestampMicros, long windowSeconds) {
    long seconds = Math.floorDiv(maxTimestampMicros, MICROS_PER_SECOND);
    return Math.floorDiv(seconds, windowSeconds) * windowSeconds;
  }

  /**
   * True when a freshly flushed SSTable holds data older than the current window (the window of
   * {@code nowSeconds}): writes arrived with old timestamps, so the SSTable is filed under its
   * newest data's window while also holding old data, and neither window can expire whole on time.
   * A flush that straddles a window boundary also counts. The engine logs and counts these.
   */
  public static boolean isOutOfOrder(SSTableInfo flushed, long nowSeconds, long windowSeconds) {
    long current = Math.floorDiv(nowSeconds, windowSeconds) * windowSeconds;
    return windowOf(flushed.minTimestamp(), windowSeconds) < current;
  }

  /**
   * Whether single-SSTable tombstone compactions should run under this strategy: as in Cassandra,
   * only when the tombstone options were changed from the defaults.
   */
  public boolean tombstoneCompactionsEnabled() {
    return !options.tombstones().equals(StrategyOptions.Tombstones.DEFAULTS);
  }

  @Override
  public <T extends SSTableInfo> Optional<CompactionPlan<T>> nextBackgroundTask(
      StrategyContext<T> context) {
    long current = currentWindow(context);
    TreeMap<Long, List<T>> windows = byWindow(context.candidates());
    for (Map.Entry<Long, List<T>> e : windows.entrySet()) {
      if (e.getKey() < current && e.getValue().size() >= 2) {
        List<T> bucket = new ArrayList<>(e.getValue());
        bucket.sort(BY_SIZE);
        List<T> inputs = bucket.subList(0, Math.min(options.maxThreshold(), bucket.size()));
        return Optional.of(
            CompactionPlan.of(
                inputs,
                0,
                Long.MAX_VALUE,
                "closed window " + e.getKey() + ": " + e.getValue().size() + " SSTables"));
      }
    }
    List<T> newest = windows.getOrDefault(current, List.of());
    if (newest.size() >= options.minThreshold()) {
      List<T> bucket = SizeTieredBuckets.pick(newest, currentWindowOptions);
      if (!bucket.isEmpty()) {
        return Optional.of(
            CompactionPlan.of(
                bucket, 0, Long.MAX_VALUE, "current window " + current + ": size-tiered"));
      }
    }
    return Optional.empty();
  }

  /** One plan per window holding candidates, oldest window first. */
  @Override
  public <T extends SSTableInfo> List<CompactionPlan<T>> majorCompaction(
      StrategyContext<T> context) {
    List<CompactionPlan<T>> plans = new ArrayList<>();
    for (Map.Entry<Long, List<T>> e : byWindow(context.candidates()).entrySet()) {
      List<T> inputs = new ArrayList<>(e.getValue());
      inputs.sort(Comparator.comparingLong(SSTableInfo::generation));
      plans.add(
          CompactionPlan.of(inputs, 0, Long.MAX_VALUE, "major compaction of window " + e.getKey()));
    }
    return plans;
  }

  @Override
  public String describe() {
    return "TimeWindowStrategy{windowSeconds="
        + options.windowSeconds()
        + ", minThreshold="
        + options.minThreshold()
        + ", maxThreshold="
        + options.maxThreshold()
        + ", tombstones="
        + options.tombstones()
        + "}";
  }

  /** The later of now's window and the newest live SSTable's window. */
  long currentWindow(StrategyContext<?> context) {
    long w = options.windowSeconds();
    long current = Math.floorDiv(context.nowSeconds(), w) * w;
    for (List<? extends SSTableInfo> list : List.of(context.candidates(), context.compacting())) {
      for (SSTableInfo s : list) {
        current = Math.max(current, windowOf(s.maxTimestamp(), w));
      }
    }
    return current;
  }

  private <T extends SSTableInfo> TreeMap<Long, List<T>> byWindow(List<T> sstables) {
    TreeMap<Long, List<T>> windows = new TreeMap<>();
    for (T s : sstables) {
      windows
          .computeIfAbsent(
              windowOf(s.maxTimestamp(), options.windowSeconds()), k -> new ArrayList<>())
          .add(s);
    }
    return windows;
  }
}
