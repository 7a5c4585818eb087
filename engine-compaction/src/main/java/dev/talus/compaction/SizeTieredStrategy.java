package dev.talus.compaction;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.ToLongFunction;

/**
 * Size-tiered compaction (Cassandra's {@code SizeTieredCompactionStrategy}): merge SSTables of
 * similar size, so each byte is rewritten about log(n) times.
 *
 * <ol>
 *   <li>Sort the candidates by on-disk size, smallest first, and walk them: an SSTable joins the
 *       first bucket whose average size {@code avg} satisfies {@code avg·bucketLow < size <
 *       avg·bucketHigh}, or where both it and {@code avg} are below {@code minSSTableSize} (small
 *       SSTables are lumped together); otherwise it starts a new bucket. The average is recomputed
 *       on each add.
 *   <li>Buckets with fewer than {@code minThreshold} SSTables are dropped; larger ones are cut to
 *       {@code maxThreshold}.
 *   <li>One bucket is compacted.
 *   <li>If no bucket qualifies, a single-SSTable tombstone compaction of the largest eligible
 *       SSTable ({@link TombstoneCompaction}).
 * </ol>
 *
 * <p><b>Where Talus differs.</b> Cassandra ranks by read hotness (2-hour read rate per key): it
 * keeps the hottest SSTables of a bucket when trimming and runs the hottest bucket. Talus tracks no
 * read rates, so trimming keeps the <em>smallest</em> SSTables (the cheapest merge; the larger ones
 * wait for their own tier), and the bucket chosen is the one with the <em>most</em> SSTables (the
 * largest cut in read amplification per compaction), ties going to the smallest total size, then to
 * the smallest generation. (Cassandra, with equal hotness, prefers the bucket of the smallest
 * average size.) Cassandra keeps buckets in a hash map keyed by their average, whose iteration
 * order is unspecified; Talus tries buckets in creation order, so results are deterministic.
 *
 * <p>Major compaction is one plan of every candidate. Outputs go to level 0 as one SSTable.
 * Immutable and thread-safe.
 */
public final class SizeTieredStrategy implements CompactionStrategy {
  private final StrategyOptions.SizeTiered options;

  public SizeTieredStrategy(StrategyOptions.SizeTiered options) {
    if (options.minThreshold() < 2) {
      throw new IllegalArgumentException(
          "min_threshold must be at least 2, got " + options.minThreshold());
    }
    if (options.maxThreshold() < options.minThreshold()) {
      throw new IllegalArgumentException(
          "max_threshold ("
              + options.maxThreshold()
              + ") must be at least min_threshold ("
              + options.minThreshold()
              + ")");
    }
    if (!(options.bucketLow() > 0) || !(options.bucketHigh() > options.bucketLow())) {
      throw new IllegalArgumentException(
          "need 0 < bucket_low < bucket_high, got "
              + options.bucketLow()
              + " and "
              + options.bucketHigh());
    }
    if (options.minSSTableSize() < 0) {
      throw new IllegalArgumentException(
          "min_sstable_size must be >= 0, got " + options.minSSTableSize());
    }
    this.options = options;
  }

  public StrategyOptions.SizeTiered options() {
    return options;
  }

  @Override
  public <T extends SSTableInfo> Optional<CompactionPlan<T>> nextBackgroundTask(
      StrategyContext<T> context) {
    List<List<T>> buckets =
        buckets(
            context.candidates(),
            SSTableInfo::onDiskSize,
            options.bucketLow(),
            options.bucketHigh(),
            options.minSSTableSize());
    List<T> best = mostInterestingBucket(buckets);
    if (!best.isEmpty()) {
      return Optional.of(
          CompactionPlan.of(
              best,
              0,
              Long.MAX_VALUE,
              "size-tiered: "
                  + best.size()
                  + " SSTables of about "
                  + totalSize(best) / best.size()
                  + " bytes"));
    }
    return TombstoneCompaction.pick(
        context,
        options.tombstones(),
        Comparator.comparingLong(SSTableInfo::onDiskSize)
            .thenComparing(SSTableInfo::generation, Comparator.reverseOrder()));
  }

  @Override
  public <T extends SSTableInfo> List<CompactionPlan<T>> majorCompaction(
      StrategyContext<T> context) {
    if (context.candidates().isEmpty()) {
      return List.of();
    }
    return List.of(
        CompactionPlan.of(
            context.candidates(),
            0,
            Long.MAX_VALUE,
            "major compaction of " + context.candidates().size() + " SSTables"));
  }

  @Override
  public String describe() {
    return "SizeTieredStrategy{min_threshold="
        + options.minThreshold()
        + ", max_threshold="
        + options.maxThreshold()
        + ", bucket_low="
        + options.bucketLow()
        + ", bucket_high="
        + options.bucketHigh()
        + ", min_sstable_size="
        + options.minSSTableSize()
        + ", "
        + options.tombstones()
        + "}";
  }

  /** Step 2 and 3: trim each bucket to max_threshold, keep those ≥ min_threshold, pick one. */
  <T extends SSTableInfo> List<T> mostInterestingBucket(List<List<T>> buckets) {
    List<T> best = List.of();
    for (List<T> bucket : buckets) {
      List<T> trimmed = new ArrayList<>(bucket);
      trimmed.sort(
          Comparator.comparingLong(SSTableInfo::onDiskSize)
              .thenComparingLong(SSTableInfo::generation));
      if (trimmed.size() > options.maxThreshold()) {
        trimmed = trimmed.subList(0, options.maxThreshold());
      }
      if (trimmed.size() < options.minThreshold()) {
        continue;
      }
      if (best.isEmpty() || better(trimmed, best)) {
        best = List.copyOf(trimmed);
      }
    }
    return best;
  }

  private static boolean better(List<? extends SSTableInfo> a, List<? extends SSTableInfo> b) {
    if (a.size() != b.size()) {
      return a.size() > b.size();
    }
    long sa = totalSize(a);
    long sb = totalSize(b);
    if (sa != sb) {
      return sa < sb;
    }
    return a.get(0).generation() < b.get(0).generation();
  }

  private static long totalSize(List<? extends SSTableInfo> l) {
    long s = 0;
    for (SSTableInfo i : l) {
      s += i.onDiskSize();
    }
    return s;
  }

  /**
   * Step 1, Cassandra's {@code getBuckets}: groups {@code items} of similar size. Deterministic:
   * items are sorted by size (stable for equal sizes) and buckets tried in creation order.
   */
  static <T> List<List<T>> buckets(
      List<T> items, ToLongFunction<T> size, double bucketLow, double bucketHigh, long minSize) {
    List<T> sorted = new ArrayList<>(items);
    sorted.sort(Comparator.comparingLong(size));
    List<List<T>> buckets = new ArrayList<>();
    List<Long> averages = new ArrayList<>();
    outer:
    for (T item : sorted) {
      long s = size.applyAsLong(item);
      for (int i = 0; i < buckets.size(); i++) {
        long avg = averages.get(i);
        if ((s > avg * bucketLow && s < avg * bucketHigh) || (s < minSize && avg < minSize)) {
          List<T> bucket = buckets.get(i);
          long total = avg * bucket.size();
          bucket.add(item);
          averages.set(i, (total + s) / bucket.size());
          continue outer;
        }
      }
      List<T> bucket = new ArrayList<>();
      bucket.add(item);
      buckets.add(bucket);
      averages.add(s);
    }
    return buckets;
  }
}
