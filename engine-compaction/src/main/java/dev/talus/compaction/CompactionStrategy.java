package dev.talus.compaction;

import java.util.List;
import java.util.Optional;

/**
 * A compaction strategy decides which SSTables to merge; it never touches files. Every
 * implementation guarantees:
 *
 * <ul>
 *   <li>{@link #nextBackgroundTask} picks only from {@link StrategyContext#candidates()}, never an
 *       SSTable that is compacting, and returns empty when nothing is worth doing;
 *   <li>it is a pure function of its context: calling it twice with the same context gives the same
 *       plan, so tests can drive it with synthetic SSTables;
 *   <li>fully expired SSTables it puts in {@link CompactionPlan#expired()} satisfy {@link
 *       ExpiredSSTables} (whole-file drop is safe);
 *   <li>when no regular compaction qualifies it may propose a single-SSTable tombstone compaction
 *       following {@link TombstoneCompaction}.
 * </ul>
 *
 * Implementations are immutable and thread-safe. A table may switch strategy at any time: the new
 * strategy takes over the existing SSTables as they are.
 */
public interface CompactionStrategy {
  /** The next background compaction, if any; its SSTables are those of {@code context}. */
  <T extends SSTableInfo> Optional<CompactionPlan<T>> nextBackgroundTask(
      StrategyContext<T> context);

  /**
   * A major compaction: plans that together merge every candidate (size-tiered: one plan of all;
   * leveled: per level; time-window: one plan per window).
   */
  <T extends SSTableInfo> List<CompactionPlan<T>> majorCompaction(StrategyContext<T> context);

  /** The strategy's name and options, for logs. */
  String describe();
}
