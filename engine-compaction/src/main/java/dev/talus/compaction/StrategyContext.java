package dev.talus.compaction;

import java.util.List;

/**
 * What a strategy sees when asked for work. Immutable.
 *
 * @param <T> how the caller sees an SSTable (see {@link CompactionPlan})
 * @param candidates live SSTables not taking part in any running compaction
 * @param compacting live SSTables already being compacted (strategies must not pick them)
 * @param nowSeconds the engine clock
 * @param gcBeforeSeconds now − gc_grace: tombstones deleted before this may be purged
 * @param memtableMinTimestamp the smallest timestamp in any memtable of the table ({@code
 *     Long.MAX_VALUE} if they are empty); data there may be shadowed by tombstones on disk
 */
public record StrategyContext<T extends SSTableInfo>(
    List<T> candidates,
    List<T> compacting,
    long nowSeconds,
    long gcBeforeSeconds,
    long memtableMinTimestamp) {
  public StrategyContext {
    candidates = List.copyOf(candidates);
    compacting = List.copyOf(compacting);
  }
}
