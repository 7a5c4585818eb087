package dev.talus.memtable;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A memtable partition's chunks: an array of {@link RowChunk}s in clustering order, every row of a
 * chunk before the first row of the next. The first row of every chunk but the first never changes
 * (rows are inserted into the chunk whose first row is the greatest not after them, the first chunk
 * taking what sorts before it), so a lookup can binary-search the chunks by their first rows while
 * a writer replaces one. A writer replaces an element with a volatile write; a split makes a new
 * array holding both halves. The partition's monitor serialises writers; readers take no lock.
 * Stateless and thread-safe.
 */
final class RowChunks {
  private static final VarHandle ELEMENT = MethodHandles.arrayElementVarHandle(RowChunk[].class);

  static final RowChunk[] NONE = new RowChunk[0];

  private RowChunks() {}

  static RowChunk get(RowChunk[] d, int i) {
    return (RowChunk) ELEMENT.getVolatile(d, i);
  }

  static void set(RowChunk[] d, int i, RowChunk c) {
    ELEMENT.setVolatile(d, i, c);
  }

  /**
   * The chunk that holds or would take {@code clustering}: the last whose first row is not after it
   * (0 if none).
   */
  static int floor(RowChunk[] d, byte[] clustering) {
    long prefix = RowChunk.prefix(clustering, 0, clustering.length);
    int lo = 1;
    int hi = d.length - 1;
    int found = 0;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (get(d, mid).compareFirst(clustering, prefix) <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  /** The last chunk whose first row is before {@code bound} (0 if none). */
  static int lower(RowChunk[] d, byte[] bound) {
    long prefix = RowChunk.prefix(bound, 0, bound.length);
    int lo = 1;
    int hi = d.length - 1;
    int found = 0;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (get(d, mid).compareFirst(bound, prefix) < 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  /** {@code d} with chunk {@code at} replaced by {@code lower} and {@code upper}. */
  static RowChunk[] split(RowChunk[] d, int at, RowChunk lower, RowChunk upper) {
    RowChunk[] n = new RowChunk[d.length + 1];
    for (int i = 0; i < at; i++) {
      n[i] = get(d, i);
    }
    n[at] = lower;
    n[at + 1] = upper;
    for (int i = at + 1; i < d.length; i++) {
      n[i + 1] = get(d, i);
    }
    return n;
  }
}
