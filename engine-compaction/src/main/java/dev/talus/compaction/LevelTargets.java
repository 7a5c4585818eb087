package dev.talus.compaction;

import java.util.Arrays;
import java.util.Collection;

/**
 * How many bytes each level ≥ 1 should hold under {@link LeveledStrategy}, sized from the bottom up
 * the way RocksDB sizes levels with {@code level_compaction_dynamic_level_bytes} (its default since
 * 8.4): the bottom level is {@value LeveledStrategy#LAST_LEVEL}; the largest level's actual size is
 * the bottom level's target; each level above holds {@code fanout} times less; the <em>base
 * level</em> — where L0 is compacted into — is the highest level whose target is still above {@code
 * levelBaseBytes / fanout}. No level's target is below {@code levelBaseBytes}. Levels above the
 * base level get a target of 0: data there (left by an earlier layout, or by a base level that
 * moved down because data shrank) is moved down into the base level.
 *
 * <p>While the data is smaller than {@code levelBaseBytes}, the base level is the bottom level
 * itself: L0 goes straight to L8 and no intermediate level is written. As the data grows, the base
 * level moves up one level each time the data grows by {@code fanout}. Compared with Cassandra's
 * fixed capacities ({@code fanout^n × sstableSize}: L1 = 1.6 GiB by default), an L0 compaction
 * rewrites at most about {@code levelBaseBytes} of the base level instead of everything up to L1's
 * capacity, and about 90% of the data sits in the bottom level whatever its size. Immutable.
 */
public final class LevelTargets {
  private final int baseLevel;
  private final long[] targets;

  private LevelTargets(int baseLevel, long[] targets) {
    this.baseLevel = baseLevel;
    this.targets = targets;
  }

  /** The targets for the live SSTables {@code live} (compacting or not). */
  static LevelTargets of(Collection<? extends SSTableInfo> live, StrategyOptions.Leveled options) {
    long[] bytes = new long[LeveledStrategy.MAX_LEVEL_COUNT];
    for (SSTableInfo s : live) {
      bytes[LeveledStrategy.levelOf(s)] += s.onDiskSize();
    }
    return of(bytes, options.fanout(), options.levelBaseBytes());
  }

  /** The targets for levels holding {@code levelBytes[n]} bytes each (index 0 is ignored). */
  static LevelTargets of(long[] levelBytes, int fanout, long levelBaseBytes) {
    int last = LeveledStrategy.LAST_LEVEL;
    long largest = 0;
    for (int n = 1; n <= last; n++) {
      largest = Math.max(largest, levelBytes[n]);
    }
    int base = last;
    long baseSize = largest;
    while (base > 1 && baseSize > levelBaseBytes) {
      base--;
      baseSize /= fanout;
    }
    long[] t = new long[LeveledStrategy.MAX_LEVEL_COUNT];
    t[0] = Long.MAX_VALUE;
    long size = baseSize;
    for (int n = base; n <= last; n++) {
      t[n] = Math.max(levelBaseBytes, size);
      size = saturatingMultiply(size, fanout);
    }
    return new LevelTargets(base, t);
  }

  /** The level L0 is compacted into. */
  public int baseLevel() {
    return baseLevel;
  }

  /**
   * The bytes {@code level} should hold: 0 above the base level (data there moves down), {@code
   * Long.MAX_VALUE} for L0 (counted in SSTables, not bytes).
   */
  public long target(int level) {
    return targets[level];
  }

  @Override
  public String toString() {
    return "LevelTargets{base=L" + baseLevel + ", targets=" + Arrays.toString(targets) + "}";
  }

  static long saturatingMultiply(long a, long b) {
    long r = a * b;
    return (a != 0 && (r / a != b || r < 0)) ? Long.MAX_VALUE : r;
  }
}
