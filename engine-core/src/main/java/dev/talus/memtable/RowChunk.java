package dev.talus.memtable;

import dev.talus.data.Row;
import java.util.Arrays;

/**
 * A run of consecutive rows of one memtable partition, packed into one array: per row a varint
 * clustering length, the clustering, and the row in {@link RowCodec}'s layout; {@code starts} holds
 * where each row begins, in clustering order. A partition is an array of chunks ({@link
 * RowChunks}), so a row costs its bytes and a 4-byte offset instead of a skip-list node and two
 * arrays of its own. Chunks are never modified: a write builds the chunk's successor.
 *
 * <p>Immutable and thread-safe.
 */
final class RowChunk {
  /** A chunk splits in two past this many rows. */
  static final int MAX_ROWS = 32;

  /** A chunk of at least two rows splits in two past this many bytes. */
  static final int MAX_BYTES = 8 * 1024;

  private final byte[] data;
  private final int[] starts;

  private RowChunk(byte[] data, int[] starts) {
    this.data = data;
    this.starts = starts;
  }

  static RowChunk of(byte[] clustering, byte[] body) {
    byte[] record = record(clustering, body);
    return new RowChunk(record, new int[] {0});
  }

  int size() {
    return starts.length;
  }

  /** Heap bytes of this chunk: the object and its two arrays. */
  long heapSize() {
    return HeapLayout.object(2L * HeapLayout.REF)
        + HeapLayout.byteArray(data.length)
        + HeapLayout.intArray(starts.length);
  }

  /** Whether the chunk should split in two. */
  boolean full() {
    return starts.length > MAX_ROWS || (starts.length > 1 && data.length > MAX_BYTES);
  }

  /** Index of the row at {@code clustering}, or {@code -(insertion point) - 1}. */
  int search(byte[] clustering) {
    int lo = 0;
    int hi = starts.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = compare(mid, clustering);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -(lo + 1);
  }

  /** Compares row {@code i}'s clustering with {@code clustering} (unsigned bytes). */
  int compare(int i, byte[] clustering) {
    int p = starts[i];
    int len = 0;
    int shift = 0;
    int b;
    do {
      b = data[p++] & 0xFF;
      len |= (b & 0x7F) << shift;
      shift += 7;
    } while ((b & 0x80) != 0);
    return Arrays.compareUnsigned(data, p, p + len, clustering, 0, clustering.length);
  }

  /** Row {@code i}'s clustering (a copy). */
  byte[] clustering(int i) {
    int p = starts[i];
    int len = 0;
    int shift = 0;
    int b;
    do {
      b = data[p++] & 0xFF;
      len |= (b & 0x7F) << shift;
      shift += 7;
    } while ((b & 0x80) != 0);
    return Arrays.copyOfRange(data, p, p + len);
  }

  /** Row {@code i}, decoded. */
  Row row(int i) {
    byte[] clustering = clustering(i);
    int bodyStart = starts[i] + RowCodec.varIntSize(clustering.length) + clustering.length;
    return RowCodec.decode(clustering, data, bodyStart);
  }

  /** This chunk with the row at index {@code i} replaced by {@code body}. */
  RowChunk replace(int i, byte[] clustering, byte[] body) {
    return splice(i, i + 1, record(clustering, body));
  }

  /** This chunk with a row inserted at index {@code i}. */
  RowChunk insert(int i, byte[] clustering, byte[] body) {
    return splice(i, i, record(clustering, body));
  }

  /** The rows from index {@code from} (inclusive) to {@code to} (exclusive). */
  RowChunk range(int from, int to) {
    int start = starts[from];
    int end = to == starts.length ? data.length : starts[to];
    int[] s = new int[to - from];
    for (int k = 0; k < s.length; k++) {
      s[k] = starts[from + k] - start;
    }
    return new RowChunk(Arrays.copyOfRange(data, start, end), s);
  }

  /** Rows [from, to) replaced by the one {@code record}. */
  private RowChunk splice(int from, int to, byte[] record) {
    int cut = from == starts.length ? data.length : starts[from];
    int resume = to == starts.length ? data.length : starts[to];
    byte[] d = new byte[data.length - (resume - cut) + record.length];
    System.arraycopy(data, 0, d, 0, cut);
    System.arraycopy(record, 0, d, cut, record.length);
    System.arraycopy(data, resume, d, cut + record.length, data.length - resume);
    int removed = to - from;
    int[] s = new int[starts.length - removed + 1];
    System.arraycopy(starts, 0, s, 0, from);
    s[from] = cut;
    int shift = record.length - (resume - cut);
    for (int k = to; k < starts.length; k++) {
      s[k - removed + 1] = starts[k] + shift;
    }
    return new RowChunk(d, s);
  }

  private static byte[] record(byte[] clustering, byte[] body) {
    int h = RowCodec.varIntSize(clustering.length);
    byte[] r = new byte[h + clustering.length + body.length];
    int p = 0;
    long v = clustering.length;
    while ((v & ~0x7FL) != 0) {
      r[p++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    r[p++] = (byte) v;
    System.arraycopy(clustering, 0, r, p, clustering.length);
    System.arraycopy(body, 0, r, p + clustering.length, body.length);
    return r;
  }
}
