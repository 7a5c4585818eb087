package dev.talus.metrics;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A concurrent histogram of non-negative longs in log-linear buckets (4 sub-buckets per power of
 * two, so a percentile is within about 19% of the true value), the way latency histograms usually
 * trade precision for constant memory. Lock-free; safe for any number of recording and reading
 * threads.
 */
public final class Histogram {
  private static final int SUB = 4;
  private static final int BUCKETS = 64 * SUB;

  private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
  private final java.util.concurrent.atomic.AtomicLong max =
      new java.util.concurrent.atomic.AtomicLong();

  static int bucket(long v) {
    if (v < SUB) {
      return (int) Math.max(0, v);
    }
    int log = 63 - Long.numberOfLeadingZeros(v);
    int sub = (int) ((v >>> (log - 2)) & (SUB - 1));
    return (log - 1) * SUB + sub;
  }

  /** The smallest value that falls in bucket {@code b}. */
  static long lowerBound(int b) {
    if (b < SUB) {
      return b;
    }
    int log = b / SUB + 1;
    int sub = b % SUB;
    return (1L << log) | ((long) sub << (log - 2));
  }

  public void record(long value) {
    long v = Math.max(0, value);
    counts.incrementAndGet(bucket(v));
    if (v > max.get()) { // the maximum rarely moves: read it before any CAS
      max.accumulateAndGet(v, Math::max);
    }
  }

  public long count() {
    long n = 0;
    for (int i = 0; i < BUCKETS; i++) {
      n += counts.get(i);
    }
    return n;
  }

  public long max() {
    return max.get();
  }

  /**
   * The value below which {@code p} percent of recordings fall (the upper end of its bucket, capped
   * at the maximum seen); 0 when empty.
   */
  public long percentile(double p) {
    long[] snapshot = new long[BUCKETS];
    long total = 0;
    for (int i = 0; i < BUCKETS; i++) {
      snapshot[i] = counts.get(i);
      total += snapshot[i];
    }
    if (total == 0) {
      return 0;
    }
    long rank = (long) Math.ceil(total * p / 100.0);
    long seen = 0;
    for (int i = 0; i < BUCKETS; i++) {
      seen += snapshot[i];
      if (seen >= rank) {
        long upper = i + 1 < BUCKETS ? lowerBound(i + 1) - 1 : Long.MAX_VALUE;
        return Math.min(upper, max.get());
      }
    }
    return max.get();
  }

  /** Measures durations in microseconds with the monotonic clock. */
  public static long startTimer() {
    return System.nanoTime();
  }

  /** Records the microseconds since {@code startNanos} and returns them. */
  public long recordSinceMicros(long startNanos) {
    long micros = (System.nanoTime() - startNanos) / 1000;
    record(micros);
    return micros;
  }
}
