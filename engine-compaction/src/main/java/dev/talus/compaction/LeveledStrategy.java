package dev.talus.compaction;

import dev.talus.data.PartitionKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Leveled compaction (Cassandra's LCS). L0 holds flushes, which may overlap; each level n ≥ 1 is a
 * run of non-overlapping SSTables of about {@code sstableSize} bytes whose capacity is {@code
 * fanout^n × sstableSize} (L0: 4 × sstableSize), over at most {@value #MAX_LEVEL_COUNT} levels.
 *
 * <p>Choosing the next compaction, as Cassandra's {@code LeveledManifest.getCompactionCandidates}:
 *
 * <ol>
 *   <li>Levels are scored from the highest down, score = non-compacting bytes / capacity. The first
 *       level n ≥ 1 with a score above {@value #SCORE_THRESHOLD} compacts one of its SSTables with
 *       every SSTable of level n+1 overlapping it, into level n+1. Before that, if L0 holds more
 *       than {@value #MAX_COMPACTING_L0} SSTables, a size-tiered round inside L0 runs instead
 *       (output level 0): L0 is too far behind to wait for the higher levels.
 *   <li>With every higher level within capacity, L0 compacts: the oldest L0 SSTables (by
 *       generation) with all L0 SSTables overlapping them, at most {@value #MAX_COMPACTING_L0}. If
 *       they hold more than one sstableSize, every L1 SSTable overlapping their key span joins and
 *       the output goes to L1; otherwise they are merged and stay in L0. Fewer than two: nothing,
 *       unless L0 is over {@value #MAX_COMPACTING_L0} SSTables and a size-tiered round applies.
 * </ol>
 *
 * Outputs are split at {@code sstableSize} (size-tiered L0 rounds write one output). A plan never
 * involves a compacting SSTable, and a plan into level n ≥ 1 is refused if its key span overlaps an
 * SSTable of level n that is compacting, so levels stay non-overlapping with compactions in flight.
 *
 * <p>Differences from Cassandra, all because a strategy here is a pure function of its context:
 *
 * <ul>
 *   <li>Cassandra walks each level round-robin from the last key it compacted; Talus picks the
 *       oldest SSTable (lowest generation) of the level whose compaction is possible. Outputs get
 *       fresh generations, so every SSTable of a level is eventually picked in turn.
 *   <li>No starvation guard (Cassandra pulls an idle level's SSTables into lower compactions after
 *       25 rounds): it needs memory of past rounds.
 *   <li>L0 stays in L0 when its candidates hold at most (Cassandra: less than) one sstableSize, so
 *       the "exactly one sstableSize" case cannot reach L1 without its overlapping L1 SSTables.
 *   <li>Size-tiered rounds in L0 use Cassandra's default size-tiered options (4, 32, 0.5, 1.5, 50
 *       MiB) and cannot be switched off.
 *   <li>Single-SSTable tombstone compactions are not proposed here; the engine adds them when this
 *       strategy has nothing to do.
 *   <li>The top level (8) is never compacted upward; an overfull top level is left as it is.
 * </ul>
 *
 * Immutable and thread-safe.
 */
public final class LeveledStrategy implements CompactionStrategy {
  /** Levels 0 to 8. */
  public static final int MAX_LEVEL_COUNT = 9;

  /** L0 above this many SSTables gets size-tiered rounds; also the largest L0 batch. */
  public static final int MAX_COMPACTING_L0 = 32;

  /** A level compacts when its score exceeds this. */
  public static final double SCORE_THRESHOLD = 1.001;

  private static final Comparator<SSTableInfo> BY_GENERATION =
      Comparator.comparingLong(SSTableInfo::generation);
  private static final Comparator<SSTableInfo> BY_FIRST_KEY =
      Comparator.comparing(SSTableInfo::firstKey).thenComparing(BY_GENERATION);

  private final StrategyOptions.Leveled options;
  private final StrategyOptions.SizeTiered l0Options = StrategyOptions.SizeTiered.defaults();

  public LeveledStrategy(StrategyOptions.Leveled options) {
    if (options.sstableSize() <= 0) {
      throw new IllegalArgumentException("sstableSize must be positive: " + options.sstableSize());
    }
    if (options.fanout() < 2) {
      throw new IllegalArgumentException("fanout must be at least 2: " + options.fanout());
    }
    this.options = options;
  }

  public StrategyOptions.Leveled options() {
    return options;
  }

  /** The bytes level {@code level} may hold: 4 × sstableSize for L0, fanout^n × sstableSize. */
  public long capacity(int level) {
    if (level < 0 || level >= MAX_LEVEL_COUNT) {
      throw new IllegalArgumentException(
          "level out of range 0.." + (MAX_LEVEL_COUNT - 1) + ": " + level);
    }
    if (level == 0) {
      return saturatingMultiply(4, options.sstableSize());
    }
    long capacity = options.sstableSize();
    for (int i = 0; i < level; i++) {
      capacity = saturatingMultiply(capacity, options.fanout());
    }
    return capacity;
  }

  /** The level an SSTable is counted in (levels beyond the top are counted in the top level). */
  static int levelOf(SSTableInfo s) {
    return Math.max(0, Math.min(MAX_LEVEL_COUNT - 1, s.level()));
  }

  @Override
  public <T extends SSTableInfo> Optional<CompactionPlan<T>> nextBackgroundTask(
      StrategyContext<T> context) {
    Levels<T> candidates = new Levels<>(context.candidates());
    Levels<T> compacting = new Levels<>(context.compacting());
    Optional<CompactionPlan<T>> l0SizeTiered = sizeTieredInL0(candidates, compacting);

    for (int level = MAX_LEVEL_COUNT - 1; level > 0; level--) {
      List<T> sstables = candidates.get(level);
      if (sstables.isEmpty()) {
        continue;
      }
      double score = (double) SizeTieredBuckets.totalBytes(sstables) / capacity(level);
      if (score > SCORE_THRESHOLD) {
        if (l0SizeTiered.isPresent()) {
          return l0SizeTiered;
        }
        if (level == MAX_LEVEL_COUNT - 1) {
          continue;
        }
        Optional<CompactionPlan<T>> plan = promote(level, candidates, compacting, score);
        if (plan.isPresent()) {
          return plan;
        }
      }
    }
    if (candidates.get(0).isEmpty()) {
      return Optional.empty();
    }
    Optional<CompactionPlan<T>> l0 = fromL0(candidates, compacting);
    return l0.isPresent() ? l0 : l0SizeTiered;
  }

  private <T extends SSTableInfo> Optional<CompactionPlan<T>> sizeTieredInL0(
      Levels<T> candidates, Levels<T> compacting) {
    if (candidates.get(0).size() + compacting.get(0).size() <= MAX_COMPACTING_L0) {
      return Optional.empty();
    }
    List<T> bucket = SizeTieredBuckets.pick(candidates.get(0), l0Options);
    if (bucket.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        CompactionPlan.of(
            bucket,
            0,
            Long.MAX_VALUE,
            "size-tiered in L0: "
                + (candidates.get(0).size() + compacting.get(0).size())
                + " SSTables in L0 > "
                + MAX_COMPACTING_L0));
  }

  /** One SSTable of {@code level} (the oldest possible) plus what it overlaps in the next level. */
  private <T extends SSTableInfo> Optional<CompactionPlan<T>> promote(
      int level, Levels<T> candidates, Levels<T> compacting, double score) {
    List<T> source = new ArrayList<>(candidates.get(level));
    source.sort(BY_GENERATION);
    List<T> nextAll = new ArrayList<>(candidates.get(level + 1));
    nextAll.addAll(compacting.get(level + 1));
    for (T s : source) {
      List<T> inputs = new ArrayList<>();
      inputs.add(s);
      boolean busy = false;
      for (T n : overlapping(s.firstKey(), s.lastKey(), nextAll)) {
        busy |= compacting.get(level + 1).contains(n);
        inputs.add(n);
      }
      if (busy || spanOverlapsAny(inputs, compacting.get(level + 1))) {
        continue;
      }
      return Optional.of(
          CompactionPlan.of(
              inputs,
              level + 1,
              options.sstableSize(),
              String.format("L%d score %.3f > %s", level, score, SCORE_THRESHOLD)));
    }
    return Optional.empty();
  }

  /** Cassandra's L0 candidates: oldest first, with their L0 overlaps, then L1 if big enough. */
  private <T extends SSTableInfo> Optional<CompactionPlan<T>> fromL0(
      Levels<T> candidates, Levels<T> compacting) {
    List<T> compactingL0 = compacting.get(0);
    PartitionKey[] compactingSpan = span(compactingL0);
    List<T> remaining = new ArrayList<>(candidates.get(0));
    remaining.addAll(compactingL0);
    List<T> ordered = new ArrayList<>(candidates.get(0));
    ordered.sort(BY_GENERATION);

    Set<T> chosen = new LinkedHashSet<>();
    for (T s : ordered) {
      if (chosen.contains(s) || !remaining.contains(s)) {
        continue;
      }
      Set<T> group = new LinkedHashSet<>();
      group.add(s);
      group.addAll(overlapping(s.firstKey(), s.lastKey(), remaining));
      if (group.stream().anyMatch(compactingL0::contains)) {
        continue;
      }
      for (T g : group) {
        if (compactingSpan == null
            || g.lastKey().compareTo(compactingSpan[0]) < 0
            || g.firstKey().compareTo(compactingSpan[1]) > 0) {
          chosen.add(g);
        }
        remaining.remove(g);
      }
      if (chosen.size() > MAX_COMPACTING_L0) {
        List<T> oldest = new ArrayList<>(chosen);
        oldest.sort(BY_GENERATION);
        chosen = new LinkedHashSet<>(oldest.subList(0, MAX_COMPACTING_L0));
        break;
      }
    }

    List<T> inputs = new ArrayList<>(chosen);
    long l0Bytes = SizeTieredBuckets.totalBytes(inputs);
    boolean toL1 = l0Bytes > options.sstableSize();
    if (toL1) {
      PartitionKey[] chosenSpan = span(inputs);
      List<T> l1All = new ArrayList<>(candidates.get(1));
      l1All.addAll(compacting.get(1));
      List<T> l1 = overlapping(chosenSpan[0], chosenSpan[1], l1All);
      if (l1.stream().anyMatch(compacting.get(1)::contains)
          || !overlapping(chosenSpan[0], chosenSpan[1], compactingL0).isEmpty()) {
        return Optional.empty();
      }
      inputs.addAll(l1);
      if (spanOverlapsAny(inputs, compacting.get(1))) {
        return Optional.empty();
      }
    }
    if (inputs.size() < 2) {
      return Optional.empty();
    }
    return Optional.of(
        CompactionPlan.of(
            inputs,
            toL1 ? 1 : 0,
            options.sstableSize(),
            toL1
                ? "L0 to L1: " + chosen.size() + " L0 SSTables"
                : "L0 merge: " + chosen.size() + " SSTables below one sstable size"));
  }

  /**
   * All candidates into one plan whose output, split at sstableSize, goes to the highest level
   * present (at least 1). Background compaction then moves data up as the capacities require. Empty
   * while any compaction runs (stop them first) or when there are no candidates.
   */
  @Override
  public <T extends SSTableInfo> List<CompactionPlan<T>> majorCompaction(
      StrategyContext<T> context) {
    if (!context.compacting().isEmpty() || context.candidates().isEmpty()) {
      return List.of();
    }
    int level = 1;
    for (SSTableInfo s : context.candidates()) {
      level = Math.max(level, levelOf(s));
    }
    List<T> inputs = new ArrayList<>(context.candidates());
    inputs.sort(BY_GENERATION);
    return List.of(CompactionPlan.of(inputs, level, options.sstableSize(), "major compaction"));
  }

  @Override
  public String describe() {
    return "LeveledStrategy{sstableSize="
        + options.sstableSize()
        + ", fanout="
        + options.fanout()
        + ", tombstones="
        + options.tombstones()
        + "}";
  }

  /**
   * Problems with the leveled layout of {@code sstables} (all live SSTables, compacting or not): an
   * SSTable whose first key is after its last key, or two SSTables of one level ≥ 1 whose key
   * ranges overlap. Empty when the layout is sound.
   */
  public static List<String> checkInvariants(List<? extends SSTableInfo> sstables) {
    List<String> problems = new ArrayList<>();
    Levels<SSTableInfo> levels = new Levels<>(sstables);
    for (SSTableInfo s : sstables) {
      if (s.firstKey().compareTo(s.lastKey()) > 0) {
        problems.add("generation " + s.generation() + ": first key after last key");
      }
    }
    for (int level = 1; level < MAX_LEVEL_COUNT; level++) {
      List<SSTableInfo> run = new ArrayList<>(levels.get(level));
      run.sort(BY_FIRST_KEY);
      for (int i = 1; i < run.size(); i++) {
        SSTableInfo a = run.get(i - 1);
        SSTableInfo b = run.get(i);
        if (a.lastKey().compareTo(b.firstKey()) >= 0) {
          problems.add(
              "L"
                  + level
                  + ": generation "
                  + a.generation()
                  + " [token "
                  + a.firstKey().token()
                  + ".."
                  + a.lastKey().token()
                  + "] overlaps generation "
                  + b.generation()
                  + " [token "
                  + b.firstKey().token()
                  + ".."
                  + b.lastKey().token()
                  + "]");
        }
      }
    }
    return problems;
  }

  private static <T extends SSTableInfo> List<T> overlapping(
      PartitionKey first, PartitionKey last, Collection<T> sstables) {
    List<T> result = new ArrayList<>();
    for (T s : sstables) {
      if (s.firstKey().compareTo(last) <= 0 && first.compareTo(s.lastKey()) <= 0) {
        result.add(s);
      }
    }
    return result;
  }

  private static <T extends SSTableInfo> boolean spanOverlapsAny(List<T> inputs, List<T> others) {
    PartitionKey[] span = span(inputs);
    for (T o : overlapping(span[0], span[1], others)) {
      if (!inputs.contains(o)) {
        return true;
      }
    }
    return false;
  }

  /** {first, last} over all, or null if empty. */
  private static PartitionKey[] span(Collection<? extends SSTableInfo> sstables) {
    PartitionKey first = null;
    PartitionKey last = null;
    for (SSTableInfo s : sstables) {
      if (first == null || s.firstKey().compareTo(first) < 0) {
        first = s.firstKey();
      }
      if (last == null || s.lastKey().compareTo(last) > 0) {
        last = s.lastKey();
      }
    }
    return first == null ? null : new PartitionKey[] {first, last};
  }

  private static long saturatingMultiply(long a, long b) {
    long r = a * b;
    return (a != 0 && (r / a != b || r < 0)) ? Long.MAX_VALUE : r;
  }

  /** SSTables grouped by level. */
  private static final class Levels<T extends SSTableInfo> {
    private final List<List<T>> byLevel = new ArrayList<>();

    Levels(Collection<? extends T> sstables) {
      for (int i = 0; i < MAX_LEVEL_COUNT; i++) {
        byLevel.add(new ArrayList<>());
      }
      for (T s : sstables) {
        byLevel.get(levelOf(s)).add(s);
      }
    }

    List<T> get(int level) {
      return byLevel.get(level);
    }
  }
}
