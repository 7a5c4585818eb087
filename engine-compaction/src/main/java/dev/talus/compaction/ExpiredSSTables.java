package dev.talus.compaction;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Finds fully expired SSTables that may be dropped whole, unread: Cassandra's {@code
 * CompactionController.getFullyExpiredSSTables}.
 *
 * <p>An SSTable is a <em>candidate</em> when its {@link SSTableInfo#maxLocalDeletionTime()} is
 * below gcBefore: everything in it is a purgeable tombstone or TTL data expired for longer than
 * gc_grace. Dropping it is only safe if none of its tombstones still shadows data elsewhere, so a
 * candidate is dropped iff its {@link SSTableInfo#maxTimestamp()} is below the smallest {@link
 * SSTableInfo#minTimestamp()} of every other source that could hold such data:
 *
 * <ul>
 *   <li>the considered SSTables that are not candidates (they still hold live data);
 *   <li>the other live SSTables (for example those compacting elsewhere) that still hold live data,
 *       that is whose maxLocalDeletionTime is at least gcBefore;
 *   <li>the memtables ({@link StrategyContext#memtableMinTimestamp()}).
 * </ul>
 *
 * Other candidates never block: they hold nothing live, so dropping them together is safe.
 *
 * <p>Difference from Cassandra: Cassandra takes one minimum over every non-candidate of the
 * compaction and every outside SSTable overlapping the compaction's whole key range. Talus takes
 * the minimum per candidate, over the SSTables whose key range overlaps that candidate's (plus the
 * memtables, which are not ranged). An SSTable that shares no key with a candidate cannot hold data
 * its tombstones shadow, so this drops at least what Cassandra drops and never more than is safe.
 *
 * <p>Stateless; thread-safe.
 */
public final class ExpiredSSTables {
  private ExpiredSSTables() {}

  /**
   * The droppable SSTables among the context's candidates, with the compacting SSTables as the
   * other live SSTables.
   */
  public static <T extends SSTableInfo> List<T> find(StrategyContext<T> context) {
    return find(
        context.candidates(),
        context.compacting(),
        context.gcBeforeSeconds(),
        context.memtableMinTimestamp());
  }

  /**
   * The droppable SSTables among {@code considered}, distinct and in their input order.
   *
   * @param considered the SSTables that may be dropped (Cassandra's "compacting" set)
   * @param others every other live SSTable of the table (it may list SSTables that overlap no
   *     candidate; they are ignored)
   * @param gcBeforeSeconds now − gc_grace
   * @param memtableMinTimestamp the smallest timestamp in the table's memtables ({@code
   *     Long.MAX_VALUE} if they are empty)
   */
  public static <T extends SSTableInfo> List<T> find(
      Collection<? extends T> considered,
      Collection<? extends SSTableInfo> others,
      long gcBeforeSeconds,
      long memtableMinTimestamp) {
    List<T> candidates = new ArrayList<>();
    List<SSTableInfo> holdingLiveData = new ArrayList<>();
    for (T s : considered) {
      if (s.maxLocalDeletionTime() < gcBeforeSeconds) {
        if (!candidates.contains(s)) {
          candidates.add(s);
        }
      } else {
        holdingLiveData.add(s);
      }
    }
    if (candidates.isEmpty()) {
      return List.of();
    }
    for (SSTableInfo s : others) {
      if (s.maxLocalDeletionTime() >= gcBeforeSeconds && !candidates.contains(s)) {
        holdingLiveData.add(s);
      }
    }
    List<T> droppable = new ArrayList<>();
    for (T candidate : candidates) {
      if (candidate.maxTimestamp()
          < minTimestampBlocking(candidate, holdingLiveData, memtableMinTimestamp)) {
        droppable.add(candidate);
      }
    }
    return List.copyOf(droppable);
  }

  /**
   * The SSTables (among {@code considered} and {@code others}) that keep {@code candidate} from
   * being dropped: those holding live data older than or as old as its newest timestamp. Empty if
   * only the memtables block it, or if nothing does. For diagnostics, like Cassandra's {@code
   * sstableexpiredblockers}.
   */
  public static List<SSTableInfo> blockers(
      SSTableInfo candidate,
      Collection<? extends SSTableInfo> considered,
      Collection<? extends SSTableInfo> others,
      long gcBeforeSeconds) {
    List<SSTableInfo> result = new ArrayList<>();
    List<SSTableInfo> all = new ArrayList<>(considered);
    all.addAll(others);
    for (SSTableInfo s : all) {
      if (!s.equals(candidate)
          && s.maxLocalDeletionTime() >= gcBeforeSeconds
          && s.overlaps(candidate)
          && s.minTimestamp() <= candidate.maxTimestamp()
          && !result.contains(s)) {
        result.add(s);
      }
    }
    return List.copyOf(result);
  }

  private static long minTimestampBlocking(
      SSTableInfo candidate, List<SSTableInfo> holdingLiveData, long memtableMinTimestamp) {
    long min = memtableMinTimestamp;
    for (SSTableInfo s : holdingLiveData) {
      if (s.overlaps(candidate)) {
        min = Math.min(min, s.minTimestamp());
      }
    }
    return min;
  }
}
