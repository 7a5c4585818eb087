package dev.talus.memtable;

import dev.talus.data.Row;
import dev.talus.data.RowVisitor;
import dev.talus.data.SimpleRow;
import dev.talus.data.Slice;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The rows of one memtable partition within a slice, in clustering order (or reversed), read chunk
 * by chunk from the partition's chunk array as it was when the iterator was made ({@link
 * RowChunks}): a chunk replaced meanwhile is read as it is when reached, a split made meanwhile is
 * not seen. Every chunk read is a state the partition once had, so a row is met once. Not
 * thread-safe; the chunks it reads are.
 */
final class ChunkRows implements Iterator<Row> {
  private final RowChunk[] chunks;
  private final Slice slice;
  private final boolean reversed;
  private int at;
  private RowChunk chunk;
  private int index;
  private Row next;
  private boolean done;

  ChunkRows(RowChunk[] chunks, Slice slice, boolean reversed) {
    this.chunks = chunks;
    this.slice = slice;
    this.reversed = reversed;
    if (slice.isEmpty() || chunks.length == 0) {
      done = true;
    } else if (reversed) {
      at = RowChunks.lower(chunks, slice.end());
      chunk = RowChunks.get(chunks, at);
      index = lastBefore(chunk, slice.end());
    } else {
      at = RowChunks.floor(chunks, slice.start());
      chunk = RowChunks.get(chunks, at);
      index = firstAfter(chunk, slice.start());
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
    if (reversed ? index < 0 : index >= chunk.size()) {
      at += reversed ? -1 : 1;
      if (at < 0 || at >= chunks.length) {
        done = true;
        return;
      }
      chunk = RowChunks.get(chunks, at);
      index = reversed ? chunk.size() - 1 : 0;
      return;
    }
    int i = index;
    index += reversed ? -1 : 1;
    if (reversed ? chunk.compare(i, slice.start()) <= 0 : chunk.compare(i, slice.end()) >= 0) {
      done = true; // every later row (earlier, reversed) lies outside the slice too
      return;
    }
    next = chunk.row(i);
  }

  /**
   * Hands the rows this iterator has not returned yet to {@code visitor} ({@link
   * dev.talus.data.PartitionData#visit}): simple rows and bare row deletions read in place, others
   * decoded; stops when the slice ends or the visitor says so. Ascending only.
   */
  void visit(RowVisitor visitor) {
    if (reversed) {
      throw new IllegalStateException("a visit is ascending");
    }
    SimpleRow simple = new SimpleRow();
    long[] deletion = new long[2];
    while (!done) {
      if (index >= chunk.size()) {
        if (++at >= chunks.length) {
          done = true;
          return;
        }
        chunk = RowChunks.get(chunks, at);
        index = 0;
        continue;
      }
      int i = index++;
      int kind = chunk.visit(i, slice.end(), simple, deletion);
      if (kind == RowChunk.PAST_END) {
        done = true;
        return;
      }
      boolean more =
          switch (kind) {
            case RowCodec.SIMPLE -> visitor.simple(simple);
            case RowCodec.TOMBSTONE -> visitor.rowTombstone(simple, deletion[0], deletion[1]);
            default -> visitor.other(chunk.row(i));
          };
      if (!more) {
        return;
      }
    }
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
    return "ChunkRows{" + slice + (reversed ? ", reversed" : "") + ", chunk " + at + "}";
  }
}
