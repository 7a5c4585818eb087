package dev.talus.sstable;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;

/**
 * A histogram of non-negative values in power-of-two buckets: bucket b holds values in [2^(b-1),
 * 2^b) and bucket 0 holds 0. Coarser than Cassandra's EstimatedHistogram (ratio 1.2) but fixed in
 * size and good enough to pick compaction candidates. Immutable once read; not thread-safe while
 * being filled.
 */
public final class LogHistogram {
  private final long[] counts = new long[65];

  void add(long value) {
    counts[value <= 0 ? 0 : 64 - Long.numberOfLeadingZeros(value)]++;
  }

  /** Counts per bucket; index b covers [2^(b-1), 2^b), index 0 covers 0. A copy. */
  public long[] buckets() {
    return counts.clone();
  }

  public long count() {
    long n = 0;
    for (long c : counts) {
      n += c;
    }
    return n;
  }

  /** The upper bound of the bucket holding the {@code q} quantile (0..1), or 0 if empty. */
  public long percentile(double q) {
    long total = count();
    if (total == 0) {
      return 0;
    }
    long target = (long) Math.ceil(q * total);
    long seen = 0;
    for (int b = 0; b < counts.length; b++) {
      seen += counts[b];
      if (seen >= Math.max(1, target)) {
        return b == 0 ? 0 : b >= 63 ? Long.MAX_VALUE : (1L << b) - 1;
      }
    }
    return Long.MAX_VALUE;
  }

  void write(DataOutputStream out) throws IOException {
    for (long c : counts) {
      out.writeLong(c);
    }
  }

  static LogHistogram read(DataInputStream in) throws IOException {
    LogHistogram h = new LogHistogram();
    for (int i = 0; i < h.counts.length; i++) {
      h.counts[i] = in.readLong();
    }
    return h;
  }

  @Override
  public String toString() {
    return "LogHistogram" + Arrays.toString(counts);
  }
}
