package dev.talus.sstable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import org.roaringbitmap.RoaringBitmap;

/**
 * The union of several {@link TermSource}s, itself a source: each distinct term once, in order,
 * with the row ids every source holds for it. A source whose term is not asked for its rows skips
 * them. Closing it closes every source. Not thread-safe.
 */
final class TermMerge implements TermSource {
  private record Head(TermSource source, int order) {}

  private final List<TermSource> sources;
  private final PriorityQueue<Head> heads =
      new PriorityQueue<>(
          (a, b) -> {
            int c = Arrays.compareUnsigned(a.source.term(), b.source.term());
            return c != 0 ? c : Integer.compare(a.order, b.order);
          });
  private final List<Head> current = new ArrayList<>();
  private boolean started;

  TermMerge(List<TermSource> sources) {
    this.sources = List.copyOf(sources);
  }

  @Override
  public boolean next() throws IOException {
    if (!started) {
      started = true;
      for (int i = 0; i < sources.size(); i++) {
        if (sources.get(i).next()) {
          heads.add(new Head(sources.get(i), i));
        }
      }
    } else {
      for (Head h : current) {
        if (h.source.next()) {
          heads.add(h);
        }
      }
    }
    current.clear();
    Head first = heads.poll();
    if (first == null) {
      return false;
    }
    current.add(first);
    while (!heads.isEmpty() && Arrays.equals(heads.peek().source.term(), first.source.term())) {
      current.add(heads.poll());
    }
    return true;
  }

  @Override
  public byte[] term() {
    return current.get(0).source.term();
  }

  @Override
  public void rowsInto(RoaringBitmap rows) throws IOException {
    for (Head h : current) {
      h.source.rowsInto(rows);
    }
  }

  @Override
  public void close() throws IOException {
    IOException failed = null;
    for (TermSource s : sources) {
      try {
        s.close();
      } catch (IOException e) {
        failed = failed == null ? e : failed;
      }
    }
    if (failed != null) {
      throw failed;
    }
  }
}
