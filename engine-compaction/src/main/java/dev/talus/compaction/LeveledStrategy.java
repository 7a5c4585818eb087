package dev.talus.compaction;

import dev.talus.data.PartitionKey;
import dev.talus.sstable.SeekAllowance;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Leveled compaction: Cassandra's LCS options and L0 rules, with RocksDB's level sizing. L0 holds
 * flushes, which may overlap; each level n ≥ 1 is a run of non-overlapping SSTables of about {@code
 * sstableSize} bytes, over levels 0 to {@value #LAST_LEVEL}. Level targets are sized from the
 * bottom up ({@link LevelTargets}): data goes from L0 into the <em>base level</em> — L8 itself
 * while the data is small — and each level above the bottom holds {@code fanout} times less than
 * the next.
 *
 * <p>Choosing the next compaction:
 *
 * <ol>
 *   <li>Every level gets a score. L0: its idle SSTables ÷ {@value #L0_COMPACTION_TRIGGER}, or its
 *       bytes ÷ the level base if that is more. Levels 1–7: idle bytes ÷ target; a level above the
 *       base level that still holds data scores {@value #DRAIN_SCORE}. Levels are tried from the
 *       highest score down (ties: the lower level); L0 needs a score of at least 1, the others more
 *       than {@value #SCORE_THRESHOLD}.
 *   <li>L0: the oldest L0 SSTables (by generation) with every L0 SSTable overlapping them, at most
 *       {@value #MAX_COMPACTING_L0}, plus every base-level SSTable overlapping their key span, into
 *       the base level.
 *   <li>A level n ≥ 1: the SSTable whose overlap with level n+1 is the smallest share of its own
 *       size (RocksDB's {@code kMinOverlappingRatio}; ties: the oldest), with every SSTable of
 *       level n+1 it overlaps, into level n+1 — or, above the base level, with what it overlaps in
 *       the base level, into the base level.
 *   <li>If L0 holds more than {@value #MAX_COMPACTING_L0} SSTables and cannot go to the base level
 *       now (a compaction holds what it overlaps), a size-tiered round runs inside L0.
 *   <li>Otherwise, LevelDB's seek compaction: if L0 holds at least two idle SSTables, one of them
 *       has used up its reads' allowance ({@link SSTableInfo#seeksExhausted}) and the reads charged
 *       to them all ({@link SSTableInfo#seeksCharged}, at {@value #BYTES_PER_SEEK} bytes each) add
 *       up to the bytes the L0 plan would rewrite (base-level overlaps included), that plan runs:
 *       data that is read but no longer written does not stay split, yet a plan that would rewrite
 *       a large base level waits until reads have paid for it.
 * </ol>
 *
 * Outputs are split at {@code sstableSize} (size-tiered L0 rounds write one output). A plan never
 * involves a compacting SSTable, and a plan into level n ≥ 1 is refused if its key span overlaps a
 * compacting SSTable of level n, so levels stay non-overlapping with compactions in flight.
 *
 * <p>Where this differs from Cassandra (docs/compaction.md has the measurements):
 *
 * <ul>
 *   <li>Level capacities are RocksDB's dynamic ones, not {@code fanout^n × sstableSize}, and data
 *       lives at the bottom level (L8), not from L1 up. An SSTable's level number means only which
 *       run it belongs to: reads and purges never depend on level order.
 *   <li>L0 waits for {@value #L0_COMPACTION_TRIGGER} SSTables (RocksDB's {@code
 *       level0_file_num_compaction_trigger}) instead of merging any two, and always goes to the
 *       base level: Cassandra's "merge small L0 SSTables and keep them in L0" rewrote the whole of
 *       L0 on every flush.
 *   <li>The SSTable picked in a level is the one with the least overlap below, not the next one
 *       round-robin; no starvation guard; no single-SSTable up-levelling (Talus cannot yet change
 *       an SSTable's level without rewriting it, so a plan with nothing to merge below is a copy).
 *   <li>Size-tiered rounds in L0 use Cassandra's default size-tiered options (4, 32, 0.5, 1.5, 50
 *       MiB) and cannot be switched off.
 *   <li>Single-SSTable tombstone compactions are not proposed here; the engine adds them when this
 *       strategy has nothing to do.
 * </ul>
 *
 * Immutable and thread-safe.
 */
public final class LeveledStrategy implements CompactionStrategy {
  /** Levels 0 to 8. */
  public static final int MAX_LEVEL_COUNT = 9;

  /** The bottom level, where most data lives; never compacted further. */
  public static final int LAST_LEVEL = MAX_LEVEL_COUNT - 1;

  /** L0 above this many SSTables gets size-tiered rounds; also the largest L0 batch. */
  public static final int MAX_COMPACTING_L0 = 32;

  /** L0 compacts once it holds this many idle SSTables. */
  public static final int L0_COMPACTION_TRIGGER = 4;

  /** A level ≥ 1 compacts when its score exceeds this. */
  public static final double SCORE_THRESHOLD = 1.001;

  /** The score of a level above the base level that holds data. */
  public static final double DRAIN_SCORE = 1.01;

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
    if (options.levelBaseBytes() <= 0) {
      throw new IllegalArgumentException(
          "levelBaseBytes must be positive: " + options.levelBaseBytes());
    }
    this.options = options;
  }

  public StrategyOptions.Leveled options() {
    return options;
  }

  /** The level targets for these live SSTables (compacting or not). */
  public LevelTargets targets(Collection<? extends SSTableInfo> live) {
    return LevelTargets.of(live, options);
  }

  /** The level an SSTable is counted in (levels beyond the bottom are counted in the bottom). */
  static int levelOf(SSTableInfo s) {
    return Math.max(0, Math.min(LAST_LEVEL, s.level()));
  }

  @Override
  public <T extends SSTableInfo> Optional<CompactionPlan<T>> nextBackgroundTask(
      StrategyContext<T> context) {
    Levels<T> candidates = new Levels<>(context.candidates());
    Levels<T> compacting = new Levels<>(context.compacting());
    List<T> live = new ArrayList<>(context.candidates());
    live.addAll(context.compacting());
    LevelTargets targets = targets(live);
    boolean l0Flooded = candidates.get(0).size() + compacting.get(0).size() > MAX_COMPACTING_L0;

    for (int level : byScore(candidates, targets)) {
      Optional<CompactionPlan<T>> plan;
      if (level == 0) {
        plan = fromL0(candidates, compacting, targets.baseLevel());
        if (plan.isEmpty() && l0Flooded) {
          plan = sizeTieredInL0(candidates, compacting);
        }
      } else {
        int into = level < targets.baseLevel() ? targets.baseLevel() : level + 1;
        plan = promote(level, into, candidates, compacting, targets);
      }
      if (plan.isPresent()) {
        return plan;
      }
    }
    return l0Flooded
        ? sizeTieredInL0(candidates, compacting)
        : seekCompaction(candidates, compacting, targets);
  }

  /** Bytes of compaction one charged read is worth (LevelDB's allowance: one per 16 KiB). */
  public static final long BYTES_PER_SEEK = SeekAllowance.BYTES_PER_SEEK;

  /** The L0 plan, if reads have paid for it (see the class comment); else empty. */
  private <T extends SSTableInfo> Optional<CompactionPlan<T>> seekCompaction(
      Levels<T> candidates, Levels<T> compacting, LevelTargets targets) {
    List<T> l0 = candidates.get(0);
    if (l0.size() < 2 || l0.stream().noneMatch(SSTableInfo::seeksExhausted)) {
      return Optional.empty();
    }
    long paid = 0;
    for (T s : l0) {
      paid += s.seeksCharged() * BYTES_PER_SEEK;
    }
    Optional<CompactionPlan<T>> plan = fromL0(candidates, compacting, targets.baseLevel());
    if (plan.isEmpty() || SizeTieredBuckets.totalBytes(plan.get().inputs()) > paid) {
      return Optional.empty();
    }
    return Optional.of(
        CompactionPlan.of(
            plan.get().inputs(),
            plan.get().outputLevel(),
            options.sstableSize(),
            "reads merged L0 SSTables " + paid / BYTES_PER_SEEK + " times"));
  }

  /** The levels worth compacting, highest score first (ties: the lower level). */
  private <T extends SSTableInfo> List<Integer> byScore(
      Levels<T> candidates, LevelTargets targets) {
    double[] score = new double[LAST_LEVEL];
    List<Integer> levels = new ArrayList<>();
    List<T> l0 = candidates.get(0);
    score[0] =
        Math.max(
            (double) l0.size() / L0_COMPACTION_TRIGGER,
            (double) SizeTieredBuckets.totalBytes(l0) / options.levelBaseBytes());
    if (score[0] >= 1) {
      levels.add(0);
    }
    for (int n = 1; n < LAST_LEVEL; n++) {
      List<T> sstables = candidates.get(n);
      if (sstables.isEmpty()) {
        continue;
      }
      long target = targets.target(n);
      score[n] =
          target == 0
              ? DRAIN_SCORE
              : (double) SizeTieredBuckets.totalBytes(sstables) / Math.max(1, target);
      if (score[n] > SCORE_THRESHOLD) {
        levels.add(n);
      }
    }
    levels.sort((a, b) -> Double.compare(score[b], score[a])); // stable: ties keep level order
    return levels;
  }

  private <T extends SSTableInfo> Optional<CompactionPlan<T>> sizeTieredInL0(
      Levels<T> candidates, Levels<T> compacting) {
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

  /**
   * One SSTable of {@code level} (the least overlap below first) plus what it overlaps in level
   * {@code into}, into {@code into}.
   */
  private <T extends SSTableInfo> Optional<CompactionPlan<T>> promote(
      int level, int into, Levels<T> candidates, Levels<T> compacting, LevelTargets targets) {
    List<T> below = new ArrayList<>(candidates.get(into));
    below.addAll(compacting.get(into));
    List<Choice<T>> choices = new ArrayList<>();
    for (T s : candidates.get(level)) {
      List<T> overlaps = overlapping(s.firstKey(), s.lastKey(), below);
      double ratio = (double) SizeTieredBuckets.totalBytes(overlaps) / Math.max(1, s.onDiskSize());
      choices.add(new Choice<>(s, overlaps, ratio));
    }
    choices.sort(
        Comparator.<Choice<T>>comparingDouble(Choice::ratio)
            .thenComparingLong(c -> c.sstable().generation()));
    for (Choice<T> c : choices) {
      List<T> inputs = new ArrayList<>();
      inputs.add(c.sstable());
      boolean busy = false;
      for (T n : c.overlaps()) {
        busy |= compacting.get(into).contains(n);
        inputs.add(n);
      }
      if (busy || spanOverlapsAny(inputs, compacting.get(into))) {
        continue;
      }
      String reason =
          targets.target(level) == 0
              ? String.format("L%d is above the base level L%d", level, into)
              : String.format(
                  "L%d holds %d bytes > target %d",
                  level,
                  SizeTieredBuckets.totalBytes(candidates.get(level)),
                  targets.target(level));
      return Optional.of(CompactionPlan.of(inputs, into, options.sstableSize(), reason));
    }
    return Optional.empty();
  }

  /** An SSTable of a level, what it overlaps below, and that overlap's share of its size. */
  private record Choice<T extends SSTableInfo>(T sstable, List<T> overlaps, double ratio) {}

  /** The oldest L0 SSTables with their L0 overlaps, and what they overlap in the base level. */
  private <T extends SSTableInfo> Optional<CompactionPlan<T>> fromL0(
      Levels<T> candidates, Levels<T> compacting, int base) {
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
    if (chosen.isEmpty()) {
      return Optional.empty();
    }
    List<T> inputs = new ArrayList<>(chosen);
    PartitionKey[] chosenSpan = span(inputs);
    List<T> baseAll = new ArrayList<>(candidates.get(base));
    baseAll.addAll(compacting.get(base));
    List<T> overlaps = overlapping(chosenSpan[0], chosenSpan[1], baseAll);
    if (overlaps.stream().anyMatch(compacting.get(base)::contains)
        || !overlapping(chosenSpan[0], chosenSpan[1], compactingL0).isEmpty()) {
      return Optional.empty();
    }
    inputs.addAll(overlaps);
    if (spanOverlapsAny(inputs, compacting.get(base))) {
      return Optional.empty();
    }
    return Optional.of(
        CompactionPlan.of(
            inputs,
            base,
            options.sstableSize(),
            "L0 to L" + base + ": " + chosen.size() + " L0 SSTables"));
  }

  /**
   * All candidates into one plan whose output, split at sstableSize, goes to the bottom level;
   * background compaction then moves data up as the targets require. Empty while any compaction
   * runs (stop them first) or when there are no candidates.
   */
  @Override
  public <T extends SSTableInfo> List<CompactionPlan<T>> majorCompaction(
      StrategyContext<T> context) {
    if (!context.compacting().isEmpty() || context.candidates().isEmpty()) {
      return List.of();
    }
    List<T> inputs = new ArrayList<>(context.candidates());
    inputs.sort(BY_GENERATION);
    return List.of(
        CompactionPlan.of(inputs, LAST_LEVEL, options.sstableSize(), "major compaction"));
  }

  @Override
  public String describe() {
    return "LeveledStrategy{sstableSize="
        + options.sstableSize()
        + ", fanout="
        + options.fanout()
        + ", levelBase="
        + options.levelBaseBytes()
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
