package dev.talus.compaction;

import dev.talus.data.PartitionKey;
import dev.talus.sstable.SSTableReader;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * Answers, for one partition, the timestamp below which a tombstone may be dropped without
 * resurrecting data that lives outside the compaction (Cassandra's {@code
 * CompactionController.getPurgeEvaluator}, "max purgeable timestamp"). The answer is the minimum
 * of:
 *
 * <ul>
 *   <li>the {@code minTimestamp} of every live SSTable <em>outside</em> the compaction whose key
 *       range contains the key and whose Bloom filter says it may hold it, and
 *   <li>the smallest timestamp of the memtables, if a memtable holds the key.
 * </ul>
 *
 * With no such source the answer is {@code Long.MAX_VALUE}: any tombstone old enough may go, even
 * one written at {@code Long.MAX_VALUE}. A source that exists answers at most {@code Long.MAX_VALUE
 * - 1}, even if all it holds was written at {@code Long.MAX_VALUE}, so "no source" stays
 * distinguishable (a tombstone at {@code Long.MAX_VALUE} is then kept, as it must be). The minimum
 * is per SSTable, not per partition, so the answer is conservative; Bloom false positives only make
 * it more so. Never optimistic: an answer too high would resurrect data.
 *
 * <p>Implementations are thread-safe.
 */
@FunctionalInterface
public interface OverlapOracle {
  /** Nothing outside the compaction: every tombstone old enough may be purged. */
  OverlapOracle NONE = key -> Long.MAX_VALUE;

  /** Tombstones with a timestamp strictly below this may be purged. */
  long maxPurgeableTimestamp(PartitionKey key);

  /**
   * An oracle over {@code others}, the live SSTables not taking part in the compaction, and the
   * memtables. {@code memtableMinTimestamp} returns the memtables' smallest timestamp if a memtable
   * holds the key (at most {@code Long.MAX_VALUE - 1}), else {@code Long.MAX_VALUE} ({@code key ->
   * Long.MAX_VALUE} if there are none). The readers must stay open (referenced) while the oracle is
   * used; it reads only their in-memory Bloom filters and statistics.
   */
  static OverlapOracle of(
      Collection<SSTableReader> others, ToLongFunction<PartitionKey> memtableMinTimestamp) {
    return new SSTableOverlapOracle(others, memtableMinTimestamp);
  }

  /**
   * An oracle for compacting {@code compacting} out of {@code live}: the SSTables of {@code live}
   * that are not compacting and whose key range overlaps the compaction's whole key range are
   * consulted (the others cannot hold any key the compaction writes). Pass the plan's fully expired
   * SSTables in {@code compacting} too: they leave with the swap and hold nothing a tombstone could
   * uncover, so they must not hold purging back.
   */
  static OverlapOracle forCompaction(
      Collection<SSTableReader> live,
      Collection<SSTableReader> compacting,
      ToLongFunction<PartitionKey> memtableMinTimestamp) {
    if (compacting.isEmpty()) {
      return of(List.of(), memtableMinTimestamp);
    }
    PartitionKey first = null;
    PartitionKey last = null;
    Set<SSTableReader> in = new HashSet<>(compacting);
    for (SSTableReader r : compacting) {
      PartitionKey f = r.firstKey();
      PartitionKey l = r.lastKey();
      first = first == null || f.compareTo(first) < 0 ? f : first;
      last = last == null || l.compareTo(last) > 0 ? l : last;
    }
    List<SSTableReader> others = new ArrayList<>();
    for (SSTableReader r : live) {
      if (!in.contains(r)
          && r.firstKey().compareTo(last) <= 0
          && first.compareTo(r.lastKey()) <= 0) {
        others.add(r);
      }
    }
    return of(others, memtableMinTimestamp);
  }
}
