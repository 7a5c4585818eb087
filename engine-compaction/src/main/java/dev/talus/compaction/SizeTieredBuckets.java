package dev.talus.compaction;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Cassandra's size-tiered bucketing, for the places other strategies tier inside themselves (STCS
 * in LCS's L0, TWCS's current window). Not the size-tiered strategy itself.
 *
 * <p>Differences from Cassandra: there is no read hotness, so a bucket is trimmed to max_threshold
 * by keeping its smallest SSTables (then oldest generation), and the most interesting bucket is the
 * one with the most SSTables, ties going to the smallest total size, then the oldest generation.
 * Stateless; thread-safe.
 */
final class SizeTieredBuckets {
  private static final Comparator<SSTableInfo> BY_SIZE =
      Comparator.comparingLong(SSTableInfo::onDiskSize).thenComparingLong(SSTableInfo::generation);

  private SizeTieredBuckets() {}

  /**
   * Groups SSTables of similar size: sorted by size, an SSTable joins the first bucket whose
   * average it is strictly within (avg·low, avg·high) of, or whose average is, like its size, below
   * {@code minSSTableSize}; otherwise it starts a new bucket.
   */
  static <T extends SSTableInfo> List<List<T>> buckets(
      Collection<? extends T> sstables, double low, double high, long minSSTableSize) {
    List<T> sorted = new ArrayList<>(sstables);
    sorted.sort(BY_SIZE);
    List<List<T>> buckets = new ArrayList<>();
    List<Long> totals = new ArrayList<>();
    for (T s : sorted) {
      long size = s.onDiskSize();
      boolean placed = false;
      for (int i = 0; i < buckets.size() && !placed; i++) {
        double avg = (double) totals.get(i) / buckets.get(i).size();
        if ((size > avg * low && size < avg * high)
            || (size < minSSTableSize && avg < minSSTableSize)) {
          buckets.get(i).add(s);
          totals.set(i, totals.get(i) + size);
          placed = true;
        }
      }
      if (!placed) {
        List<T> bucket = new ArrayList<>();
        bucket.add(s);
        buckets.add(bucket);
        totals.add(size);
      }
    }
    return buckets;
  }

  /**
   * The bucket to compact: among buckets with at least {@code minThreshold} SSTables, each trimmed
   * to {@code maxThreshold}, the one with the most SSTables, then the smallest total size. Empty if
   * none qualifies.
   */
  static <T extends SSTableInfo> List<T> mostInteresting(
      List<List<T>> buckets, int minThreshold, int maxThreshold) {
    List<T> best = List.of();
    long bestTotal = Long.MAX_VALUE;
    for (List<T> bucket : buckets) {
      if (bucket.size() < minThreshold) {
        continue;
      }
      List<T> trimmed = new ArrayList<>(bucket);
      trimmed.sort(BY_SIZE);
      trimmed = trimmed.subList(0, Math.min(maxThreshold, trimmed.size()));
      long total = totalBytes(trimmed);
      if (trimmed.size() > best.size()
          || (trimmed.size() == best.size()
              && (total < bestTotal
                  || (total == bestTotal && minGeneration(trimmed) < minGeneration(best))))) {
        best = List.copyOf(trimmed);
        bestTotal = total;
      }
    }
    return best;
  }

  /** Buckets with the given options and returns the most interesting bucket (maybe empty). */
  static <T extends SSTableInfo> List<T> pick(
      Collection<? extends T> sstables, StrategyOptions.SizeTiered options) {
    return mostInteresting(
        buckets(sstables, options.bucketLow(), options.bucketHigh(), options.minSSTableSize()),
        options.minThreshold(),
        options.maxThreshold());
  }

  static long totalBytes(Collection<? extends SSTableInfo> sstables) {
    long total = 0;
    for (SSTableInfo s : sstables) {
      total += s.onDiskSize();
    }
    return total;
  }

  private static long minGeneration(List<? extends SSTableInfo> sstables) {
    long min = Long.MAX_VALUE;
    for (SSTableInfo s : sstables) {
      min = Math.min(min, s.generation());
    }
    return min;
  }
}
