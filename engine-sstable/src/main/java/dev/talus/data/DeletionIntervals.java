package dev.talus.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * Range tombstones normalised into disjoint, sorted intervals, each carrying the strongest deletion
 * that covers it, so the deletion covering a clustering is one binary search away.
 *
 * <p>Immutable and thread-safe.
 */
public final class DeletionIntervals {
  public static final DeletionIntervals EMPTY = new DeletionIntervals(List.of());

  private final List<RangeTombstone> intervals;

  private DeletionIntervals(List<RangeTombstone> intervals) {
    this.intervals = intervals;
  }

  /** Normalises any collection of possibly overlapping range tombstones. */
  public static DeletionIntervals of(List<RangeTombstone> tombstones) {
    if (tombstones.isEmpty()) {
      return EMPTY;
    }
    if (tombstones.size() == 1) {
      RangeTombstone t = tombstones.get(0);
      // like the general path below: an empty or inverted range, or a live deletion, is nothing
      return Arrays.compareUnsigned(t.start(), t.end()) < 0 && !t.deletion().isLive()
          ? new DeletionIntervals(List.of(t))
          : EMPTY;
    }
    TreeSet<byte[]> points = new TreeSet<>(Arrays::compareUnsigned);
    for (RangeTombstone t : tombstones) {
      points.add(t.start());
      points.add(t.end());
    }
    byte[][] p = points.toArray(new byte[0][]);
    DeletionTime[] best = new DeletionTime[p.length - 1];
    Arrays.fill(best, DeletionTime.LIVE);
    for (RangeTombstone t : tombstones) {
      int from = Arrays.binarySearch(p, t.start(), Arrays::compareUnsigned);
      int to = Arrays.binarySearch(p, t.end(), Arrays::compareUnsigned);
      for (int i = from; i < to; i++) {
        best[i] = best[i].max(t.deletion());
      }
    }
    List<RangeTombstone> out = new ArrayList<>();
    int i = 0;
    while (i < best.length) {
      if (best[i].isLive()) {
        i++;
        continue;
      }
      int j = i;
      while (j + 1 < best.length && best[j + 1].equals(best[i])) {
        j++;
      }
      out.add(new RangeTombstone(p[i], p[j + 1], best[i]));
      i = j + 1;
    }
    return new DeletionIntervals(List.copyOf(out));
  }

  /** The intervals, sorted and disjoint. */
  public List<RangeTombstone> intervals() {
    return intervals;
  }

  public boolean isEmpty() {
    return intervals.isEmpty();
  }

  /** The deletion covering {@code clustering}, or {@link DeletionTime#LIVE}. */
  public DeletionTime deletionAt(byte[] clustering) {
    int lo = 0;
    int hi = intervals.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      RangeTombstone t = intervals.get(mid);
      if (Arrays.compareUnsigned(t.end(), clustering) < 0) {
        lo = mid + 1;
      } else if (Arrays.compareUnsigned(clustering, t.start()) < 0) {
        hi = mid - 1;
      } else {
        return t.deletion();
      }
    }
    return DeletionTime.LIVE;
  }

  /** The intervals that intersect {@code slice} and are not already covered by {@code outer}. */
  public List<RangeTombstone> within(Slice slice, DeletionTime outer) {
    List<RangeTombstone> out = new ArrayList<>();
    for (RangeTombstone t : intervals) {
      if (slice.intersects(t.start(), t.end()) && t.deletion().supersedes(outer)) {
        out.add(t);
      }
    }
    return out;
  }
}
