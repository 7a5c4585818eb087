package dev.talus.sstable;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * Local deletion times of droppable things (tombstones, expiring data), after Cassandra's
 * StreamingHistogram: each time is rounded up to a 60 s boundary, and when more than {@link
 * #MAX_BINS} bins exist the two nearest are merged into their weighted mean. Rounding up keeps the
 * estimate conservative: a bin point is never earlier than the times it stands for. Not thread-safe
 * while built; immutable in practice once read back.
 */
final class TombstoneHistogram {
  static final int MAX_BINS = 100;
  static final long ROUND_SECONDS = 60;

  private final TreeMap<Long, Long> bins = new TreeMap<>();

  void update(long localDeletionTime) {
    long p = roundUp(localDeletionTime);
    bins.merge(p, 1L, Long::sum);
    if (bins.size() > MAX_BINS) {
      mergeNearest();
    }
  }

  private static long roundUp(long t) {
    if (t > Long.MAX_VALUE - ROUND_SECONDS) {
      return t;
    }
    long r = Math.floorMod(t, ROUND_SECONDS);
    return r == 0 ? t : t - r + ROUND_SECONDS;
  }

  private void mergeNearest() {
    Long prev = null;
    long bestGap = Long.MAX_VALUE;
    long a = 0;
    long b = 0;
    for (Long k : bins.keySet()) {
      if (prev != null) {
        long gap = k - prev;
        if (gap < bestGap) {
          bestGap = gap;
          a = prev;
          b = k;
        }
      }
      prev = k;
    }
    long ca = bins.remove(a);
    long cb = bins.remove(b);
    // Weighted mean, rounded up so the merged point is still no earlier than its members' mean.
    long point = a + (long) Math.ceil((double) (b - a) * cb / (ca + cb));
    bins.merge(point, ca + cb, Long::sum);
  }

  /** Entries whose (rounded) time is before {@code gcBefore}. */
  long countBefore(long gcBefore) {
    long n = 0;
    for (Map.Entry<Long, Long> e : bins.headMap(gcBefore, false).entrySet()) {
      n += e.getValue();
    }
    return n;
  }

  long total() {
    long n = 0;
    for (long c : bins.values()) {
      n += c;
    }
    return n;
  }

  /** A copy of the bins: rounded time → count. */
  TreeMap<Long, Long> bins() {
    return new TreeMap<>(bins);
  }

  void write(DataOutputStream out) throws IOException {
    out.writeInt(bins.size());
    for (Map.Entry<Long, Long> e : bins.entrySet()) {
      out.writeLong(e.getKey());
      out.writeLong(e.getValue());
    }
  }

  static TombstoneHistogram read(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > MAX_BINS) {
      throw new IOException("bad tombstone histogram size " + n);
    }
    TombstoneHistogram h = new TombstoneHistogram();
    for (int i = 0; i < n; i++) {
      h.bins.put(in.readLong(), in.readLong());
    }
    return h;
  }
}
