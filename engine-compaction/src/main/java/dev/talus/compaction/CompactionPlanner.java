package dev.talus.compaction;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Wraps any strategy so that whole-SSTable expiry applies under all of them: when {@link
 * ExpiredSSTables} finds candidates that may be dropped, the next background task is a plan that
 * only drops them (no inputs, everything in {@link CompactionPlan#expired()}); otherwise the
 * wrapped strategy decides. Cassandra does the same inside TWCS and UCS, and inside every
 * compaction task through {@code getFullyExpiredSSTables}.
 *
 * <p>Major compaction also drops the fully expired SSTables first and lets the wrapped strategy
 * plan the rest as if they were gone.
 *
 * <p>Immutable and thread-safe if the wrapped strategy is.
 */
public final class CompactionPlanner implements CompactionStrategy {
  private final CompactionStrategy strategy;

  public CompactionPlanner(CompactionStrategy strategy) {
    this.strategy = strategy;
  }

  /**
   * The planner for {@code options}; size-tiered strategies come from {@code sizeTiered} because
   * they are built elsewhere.
   */
  public static CompactionPlanner of(
      StrategyOptions options,
      Function<StrategyOptions.SizeTiered, CompactionStrategy> sizeTiered) {
    if (options instanceof StrategyOptions.SizeTiered st) {
      return new CompactionPlanner(sizeTiered.apply(st));
    }
    return new CompactionPlanner(leveledOrTimeWindow(options));
  }

  /**
   * A {@link LeveledStrategy} or {@link TimeWindowStrategy} for {@code options}.
   *
   * @throws IllegalArgumentException for size-tiered options: use {@link #of(StrategyOptions,
   *     Function)} with the size-tiered strategy's constructor
   */
  public static CompactionStrategy leveledOrTimeWindow(StrategyOptions options) {
    if (options instanceof StrategyOptions.Leveled leveled) {
      return new LeveledStrategy(leveled);
    }
    if (options instanceof StrategyOptions.TimeWindow timeWindow) {
      return new TimeWindowStrategy(timeWindow);
    }
    throw new IllegalArgumentException(
        "leveledOrTimeWindow builds only leveled and time-window strategies, got "
            + options
            + "; build size-tiered ones with CompactionPlanner.of(options, SizeTieredStrategy::new)");
  }

  /** The wrapped strategy. */
  public CompactionStrategy strategy() {
    return strategy;
  }

  @Override
  public <T extends SSTableInfo> Optional<CompactionPlan<T>> nextBackgroundTask(
      StrategyContext<T> context) {
    List<T> expired = ExpiredSSTables.find(context);
    if (!expired.isEmpty()) {
      return Optional.of(expiredPlan(expired));
    }
    return strategy.nextBackgroundTask(context);
  }

  @Override
  public <T extends SSTableInfo> List<CompactionPlan<T>> majorCompaction(
      StrategyContext<T> context) {
    List<T> expired = ExpiredSSTables.find(context);
    if (expired.isEmpty()) {
      return strategy.majorCompaction(context);
    }
    List<T> rest = new ArrayList<>(context.candidates());
    rest.removeAll(expired);
    List<CompactionPlan<T>> plans = new ArrayList<>();
    plans.add(expiredPlan(expired));
    plans.addAll(
        strategy.majorCompaction(
            new StrategyContext<>(
                rest,
                context.compacting(),
                context.nowSeconds(),
                context.gcBeforeSeconds(),
                context.memtableMinTimestamp())));
    return List.copyOf(plans);
  }

  @Override
  public String describe() {
    return strategy.describe() + " + fully expired SSTable drop";
  }

  private static <T extends SSTableInfo> CompactionPlan<T> expiredPlan(List<T> expired) {
    return new CompactionPlan<>(
        List.of(),
        expired,
        0,
        Long.MAX_VALUE,
        "drop " + expired.size() + " fully expired SSTables");
  }
}
