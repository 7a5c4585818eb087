package dev.talus.read;

import dev.talus.data.ClusteringBytes;
import dev.talus.data.Slice;
import java.util.ArrayList;
import java.util.List;

/**
 * Sets of clustering slices as sorted lists of disjoint, non-empty slices (in storage order), and
 * the operations a read's planning needs on them. A slice excludes its bounds and a bound never
 * equals a row, so two slices meeting at a bound cover together what one slice between their outer
 * bounds covers. Stateless.
 */
final class Slices {
  private Slices() {}

  /** {@code slices} sorted, empty ones dropped, overlapping and touching ones joined. */
  static List<Slice> normalise(List<Slice> slices) {
    List<Slice> sorted = new ArrayList<>(slices.size());
    for (Slice s : slices) {
      if (!s.isEmpty()) {
        sorted.add(s);
      }
    }
    sorted.sort((a, b) -> ClusteringBytes.compare(a.start(), b.start()));
    List<Slice> out = new ArrayList<>(sorted.size());
    for (Slice s : sorted) {
      int last = out.size() - 1;
      if (last >= 0 && ClusteringBytes.compare(s.start(), out.get(last).end()) <= 0) {
        Slice prev = out.get(last);
        if (ClusteringBytes.compare(s.end(), prev.end()) > 0) {
          out.set(last, new Slice(prev.start(), s.end()));
        }
      } else {
        out.add(s);
      }
    }
    return out;
  }

  /** The clusterings in both normalised sets, normalised. */
  static List<Slice> intersect(List<Slice> a, List<Slice> b) {
    List<Slice> out = new ArrayList<>(Math.max(a.size(), b.size()));
    int i = 0;
    int j = 0;
    while (i < a.size() && j < b.size()) {
      Slice x = a.get(i);
      Slice y = b.get(j);
      Slice both = x.intersect(y);
      if (!both.isEmpty()) {
        out.add(both);
      }
      if (ClusteringBytes.compare(x.end(), y.end()) <= 0) {
        i++;
      } else {
        j++;
      }
    }
    return out;
  }

  /** Each slice of {@code slices} cut to {@code range}; those left empty are dropped. */
  static List<Slice> within(List<Slice> slices, Slice range) {
    if (slices.size() == 1) {
      Slice s = slices.get(0).intersect(range);
      return s.isEmpty() ? List.of() : List.of(s);
    }
    List<Slice> out = new ArrayList<>(slices.size());
    for (Slice s : slices) {
      Slice cut = s.intersect(range);
      if (!cut.isEmpty()) {
        out.add(cut);
      }
    }
    return out;
  }

  /** The one slice spanning every slice of a non-empty normalised set. */
  static Slice cover(List<Slice> slices) {
    return slices.size() == 1
        ? slices.get(0)
        : new Slice(slices.get(0).start(), slices.get(slices.size() - 1).end());
  }
}
