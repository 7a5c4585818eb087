package dev.talus.memtable;

import dev.talus.data.Row;
import dev.talus.data.Slice;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentNavigableMap;

/**
 * The rows of one memtable partition within a slice, in clustering order (or reversed), read chunk
 * by chunk. A chunk that splits while this iterator runs publishes its upper half before it
 * shrinks, so a row may be met twice (in the old chunk and in its upper half) but never missed: a
 * row not beyond the last one returned is skipped. Not thread-safe; the chunks it reads are.
 */
final class ChunkRows implements Iterator<Row> {
  private final Iterator<Map.Entry<byte[], RowChunk>> chunks;
  private final Slice slice;
  private final boolean reversed;
  private RowChunk chunk;
  private int index;
  private byte[] last;
  private Row next;
  private boolean done;

  ChunkRows(ConcurrentNavigableMap<byte[], RowChunk> all, Slice slice, boolean reversed) {
    this.slice = slice;
    this.reversed = reversed;
    if (slice.isEmpty()) {
      chunks = java.util.Collections.emptyIterator();
    } else if (reversed) {
      chunks = all.headMap(slice.end(), false).descendingMap().entrySet().iterator();
    } else {
      byte[] from = all.floorKey(slice.start());
      chunks =
          (from == null ? all : all.tailMap(from, true))
              .headMap(slice.end(), false)
              .entrySet()
              .iterator();
    }
  }

  @Override
  public boolean hasNext() {
    while (next == null && !done) {
      advance();
    }
    return next != null;
  }

  @Override
  public Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    Row r = next;
    next = null;
    return r;
  }

  private void advance() {
    if (chunk == null || (reversed ? index < 0 : index >= chunk.size())) {
      if (!chunks.hasNext()) {
        done = true;
        return;
      }
      chunk = chunks.next().getValue();
      index = reversed ? lastBefore(chunk, slice.end()) : firstAfter(chunk, slice.start());
      return;
    }
    int i = index;
    index += reversed ? -1 : 1;
    if (reversed) {
      if (chunk.compare(i, slice.start()) <= 0) {
        done = true; // every earlier chunk holds only earlier rows
        return;
      }
      if (last != null && chunk.compare(i, last) >= 0) {
        return;
      }
    } else {
      if (chunk.compare(i, slice.end()) >= 0) {
        done = true;
        return;
      }
      if (last != null && chunk.compare(i, last) <= 0) {
        return;
      }
    }
    Row r = chunk.row(i);
    last = r.clustering();
    next = r;
  }

  /** The first index whose clustering lies after {@code bound}. */
  private static int firstAfter(RowChunk c, byte[] bound) {
    int i = c.search(bound);
    return i >= 0 ? i + 1 : -i - 1;
  }

  /** The last index whose clustering lies before {@code bound}. */
  private static int lastBefore(RowChunk c, byte[] bound) {
    int i = c.search(bound);
    return i >= 0 ? i - 1 : -i - 2;
  }

  @Override
  public String toString() {
    return "ChunkRows{"
        + slice
        + (reversed ? ", reversed" : "")
        + ", last="
        + Arrays.toString(last)
        + "}";
  }
}
