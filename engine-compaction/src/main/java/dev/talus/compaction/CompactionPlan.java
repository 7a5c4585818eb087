package dev.talus.compaction;

import java.util.List;

/**
 * A compaction a strategy proposes: which SSTables to merge, how large each output may grow before
 * the task starts another, which level the outputs get, and why (for logs and stats). Immutable.
 *
 * @param <T> how the caller sees an SSTable: the engine passes {@link ReaderInfo}s and gets its
 *     readers back in the plan, without a cast; strategy tests pass synthetic SSTables
 * @param inputs the SSTables to merge (may be empty when the plan only drops expired SSTables)
 * @param expired inputs that are fully expired: dropped whole, never read or rewritten
 * @param outputLevel the level written into the outputs' statistics
 * @param maxOutputBytes split outputs at about this size ({@code Long.MAX_VALUE}: one output)
 * @param reason a short human-readable reason
 */
public record CompactionPlan<T extends SSTableInfo>(
    List<T> inputs, List<T> expired, int outputLevel, long maxOutputBytes, String reason) {
  public CompactionPlan {
    inputs = List.copyOf(inputs);
    expired = List.copyOf(expired);
  }

  /** A plan with no fully expired inputs. */
  public static <T extends SSTableInfo> CompactionPlan<T> of(
      List<T> inputs, int outputLevel, long maxOutputBytes, String reason) {
    return new CompactionPlan<>(inputs, List.of(), outputLevel, maxOutputBytes, reason);
  }
}
