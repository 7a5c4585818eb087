package dev.talus.compaction;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Single-SSTable tombstone compaction: rewriting one SSTable alone just to purge its tombstones,
 * when no regular compaction is due (Cassandra's {@code
 * AbstractCompactionStrategy.worthDroppingTombstones}). An SSTable is worth it iff
 *
 * <ol>
 *   <li>it is at least {@code intervalSeconds} old ({@code now − createdAt ≥ interval}), so an
 *       SSTable whose estimate was wrong is not rewritten over and over;
 *   <li>its estimated droppable tombstone ratio at gcBefore is strictly above {@code threshold};
 *   <li>and then either: the check is {@code unchecked}; or no other live SSTable overlaps its key
 *       range; or it is fully expired (everything in it is past gcBefore and older than any live
 *       data that overlaps it or sits in a memtable, so it would be dropped whole);
 *   <li>or else the share of its keys outside every overlapping SSTable's range, times its
 *       droppable ratio, is still above the threshold (tombstones of keys that other SSTables may
 *       hold are probably blocked by the overlap rule of the purge).
 * </ol>
 *
 * <p><b>Where Talus differs.</b> Item 4 in Cassandra counts keys with the SSTable's index summary
 * ({@code estimatedKeysForRanges}). SSTableInfo has no key samples, so Talus assumes the keys are
 * spread evenly over the SSTable's token range (Murmur3 makes that close to true) and takes the
 * share of that range not covered by the union of the overlapping SSTables' token ranges. Too few
 * partitions to trust that ({@value #MIN_INFORMATIVE_PARTITIONS} or fewer, roughly "one index
 * sample", like Cassandra's {@code isEstimationInformative}) answers no. Item 3's fully-expired
 * test is the rule of Cassandra's {@code CompactionController.getFullyExpiredSSTables} applied to
 * this one SSTable.
 *
 * <p>Stateless and thread-safe.
 */
public final class TombstoneCompaction {
  /** At or below this many partitions the key-range estimate of item 4 is not trusted. */
  public static final long MIN_INFORMATIVE_PARTITIONS = 128;

  private TombstoneCompaction() {}

  /** Whether {@code sstable} deserves a single-SSTable tombstone compaction now. */
  public static boolean worthDroppingTombstones(
      SSTableInfo sstable, StrategyContext<?> context, StrategyOptions.Tombstones options) {
    if (context.nowSeconds() - sstable.createdAtSeconds() < options.intervalSeconds()) {
      return false;
    }
    double ratio = sstable.droppableTombstoneRatio(context.gcBeforeSeconds());
    if (!(ratio > options.threshold())) {
      return false;
    }
    if (options.unchecked()) {
      return true;
    }
    List<SSTableInfo> overlaps = overlapping(sstable, context);
    if (overlaps.isEmpty() || fullyExpired(sstable, overlaps, context)) {
      return true;
    }
    if (sstable.partitionCount() <= MIN_INFORMATIVE_PARTITIONS) {
      return false;
    }
    return remainingKeyShare(sstable, overlaps) * ratio > options.threshold();
  }

  /**
   * The single-SSTable compaction among the candidates worth it, choosing with {@code preference}
   * (size-tiered: the largest; time-window: the smallest), or empty.
   */
  public static <T extends SSTableInfo> Optional<CompactionPlan<T>> pick(
      StrategyContext<T> context,
      StrategyOptions.Tombstones options,
      Comparator<? super T> preference) {
    List<T> worth = new ArrayList<>();
    for (T s : context.candidates()) {
      if (worthDroppingTombstones(s, context, options)) {
        worth.add(s);
      }
    }
    if (worth.isEmpty()) {
      return Optional.empty();
    }
    T best = worth.stream().max(preference).orElseThrow();
    return Optional.of(
        CompactionPlan.of(
            List.of(best),
            best.level(),
            Long.MAX_VALUE,
            String.format(
                "tombstone compaction of generation %d: droppable ratio %.2f > %.2f",
                best.generation(),
                best.droppableTombstoneRatio(context.gcBeforeSeconds()),
                options.threshold())));
  }

  /** Every other live SSTable (candidate or compacting) whose key range overlaps. */
  static List<SSTableInfo> overlapping(SSTableInfo sstable, StrategyContext<?> context) {
    List<SSTableInfo> out = new ArrayList<>();
    for (List<? extends SSTableInfo> group : List.of(context.candidates(), context.compacting())) {
      for (SSTableInfo o : group) {
        if (o.generation() != sstable.generation() && o.overlaps(sstable)) {
          out.add(o);
        }
      }
    }
    return out;
  }

  /**
   * getFullyExpiredSSTables for one SSTable: all of it is past gcBefore, and its newest timestamp
   * is older than anything live that could be shadowed by it (overlapping SSTables still holding
   * live data, and the memtables).
   */
  static boolean fullyExpired(
      SSTableInfo sstable, List<SSTableInfo> overlaps, StrategyContext<?> context) {
    long gcBefore = context.gcBeforeSeconds();
    if (sstable.maxLocalDeletionTime() >= gcBefore) {
      return false;
    }
    long minTimestamp = context.memtableMinTimestamp();
    for (SSTableInfo o : overlaps) {
      if (o.maxLocalDeletionTime() >= gcBefore) {
        minTimestamp = Math.min(minTimestamp, o.minTimestamp());
      }
    }
    return sstable.maxTimestamp() < minTimestamp;
  }

  /**
   * Share of {@code sstable}'s token range not covered by the union of the overlapping SSTables'
   * token ranges, assuming evenly spread keys.
   */
  static double remainingKeyShare(SSTableInfo sstable, List<SSTableInfo> overlaps) {
    long lo = sstable.firstKey().token();
    long hi = sstable.lastKey().token();
    if (lo == hi) {
      return overlaps.isEmpty() ? 1.0 : 0.0;
    }
    List<long[]> ranges = new ArrayList<>();
    for (SSTableInfo o : overlaps) {
      long a = Math.max(lo, o.firstKey().token());
      long b = Math.min(hi, o.lastKey().token());
      if (a <= b) {
        ranges.add(new long[] {a, b});
      }
    }
    ranges.sort(Comparator.comparingLong(r -> r[0]));
    double covered = 0;
    long curA = 0;
    long curB = 0;
    boolean open = false;
    for (long[] r : ranges) {
      if (open && r[0] <= curB) {
        curB = Math.max(curB, r[1]);
      } else {
        if (open) {
          covered += (double) curB - (double) curA;
        }
        curA = r[0];
        curB = r[1];
        open = true;
      }
    }
    if (open) {
      covered += (double) curB - (double) curA;
    }
    double total = (double) hi - (double) lo;
    return Math.max(0.0, 1.0 - covered / total);
  }
}
