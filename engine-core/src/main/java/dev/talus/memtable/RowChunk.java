package dev.talus.memtable;

import dev.talus.data.Row;
import dev.talus.data.SimpleRow;
import java.util.Arrays;

/**
 * A run of consecutive rows of one memtable partition, packed into one array: per row a varint
 * clustering length, the clustering, and the row in {@link RowCodec}'s layout; {@code starts} holds
 * where each row begins, in clustering order. A partition is an array of chunks ({@link
 * RowChunks}), so a row costs its bytes and a 4-byte offset instead of a skip-list node and two
 * arrays of its own.
 *
 * <p>A chunk is a view of its first {@code count} rows: a write builds the chunk's successor. A row
 * added after the last one is written into the arrays' spare room when there is some, and the
 * successor shares the arrays with a count one higher; rows this chunk shows are never written
 * again, so it stays valid. Any other change copies the rows into arrays of exactly their size;
 * growing copies them into arrays a quarter larger. Only the partition's writer (holding its
 * monitor) builds successors, and only of the current chunk, so spare room is written once.
 *
 * <p>Immutable as far as it shows, and thread-safe.
 */
final class RowChunk {
  /** A chunk splits in two past this many rows. */
  static final int MAX_ROWS = 32;

  /** A chunk of at least two rows splits in two past this many bytes. */
  static final int MAX_BYTES = 8 * 1024;

  /** Rows' bytes in [0, end), spare room after it. */
  private final byte[] data;

  /** Where each row starts, in [0, count); spare room after it. */
  private final int[] starts;

  private final int count;
  private final int end;

  /**
   * The first row's clustering as {@link #prefix} gives it: the partition's binary search over its
   * chunks compares it before touching the chunk's arrays (on a memtable larger than the CPU's
   * caches, each array touched is a cache miss).
   */
  private final long firstPrefix;

  private RowChunk(byte[] data, int[] starts, int count, int end) {
    this.data = data;
    this.starts = starts;
    this.count = count;
    this.end = end;
    this.firstPrefix = count == 0 ? 0 : firstPrefix(data, starts[0]);
  }

  private RowChunk(byte[] data, int[] starts) {
    this(data, starts, starts.length, data.length);
  }

  static RowChunk of(byte[] clustering, byte[] body) {
    byte[] record = record(clustering, body);
    return new RowChunk(record, new int[] {0});
  }

  /** A chunk of one row, encoded straight into its record ({@link RowCodec#encodeRecord}). */
  static RowChunk of(Row r) {
    return new RowChunk(RowCodec.encodeRecord(r), new int[] {0});
  }

  int size() {
    return count;
  }

  /** Heap bytes of this chunk: the object and its two arrays, spare room included. */
  long heapSize() {
    return HeapLayout.object(2L * HeapLayout.REF + 16)
        + HeapLayout.byteArray(data.length)
        + HeapLayout.intArray(starts.length);
  }

  /** Whether the chunk should split in two. */
  boolean full() {
    return count > MAX_ROWS || (count > 1 && end > MAX_BYTES);
  }

  /** Index of the row at {@code clustering}, or {@code -(insertion point) - 1}. */
  int search(byte[] clustering) {
    int lo = 0;
    int hi = count - 1;
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
    long at = clusteringAt(data, starts[i]);
    int from = (int) (at >>> 32);
    return Arrays.compareUnsigned(data, from, from + (int) at, clustering, 0, clustering.length);
  }

  /**
   * Where the clustering of the record at {@code p} lies: its offset in the high 32 bits, its
   * length in the low 32 (the record starts with the length as a varint).
   */
  private static long clusteringAt(byte[] data, int p) {
    int len = 0;
    int shift = 0;
    int b;
    do {
      b = data[p++] & 0xFF;
      len |= (b & 0x7F) << shift;
      shift += 7;
    } while ((b & 0x80) != 0);
    return ((long) p << 32) | len;
  }

  /**
   * The first 8 bytes of {@code b[from, from + length)} as an unsigned big-endian number, zeros
   * after its end. Two prefixes that differ order their arrays as {@link
   * java.util.Arrays#compareUnsigned} does (a shorter array padded with zeros sorts before a longer
   * one that differs from it only past its end); equal prefixes say nothing.
   */
  static long prefix(byte[] b, int from, int length) {
    long p = 0;
    int n = Math.min(8, length);
    for (int k = 0; k < n; k++) {
      p |= (b[from + k] & 0xFFL) << (56 - 8 * k);
    }
    return p;
  }

  private static long firstPrefix(byte[] data, int p) {
    long at = clusteringAt(data, p);
    return prefix(data, (int) (at >>> 32), (int) at);
  }

  /**
   * As {@code compare(0, clustering)}, given {@code prefix(clustering, 0, clustering.length)}:
   * decided by the prefixes when they differ, without reading the arrays.
   */
  int compareFirst(byte[] clustering, long clusteringPrefix) {
    if (firstPrefix != clusteringPrefix) {
      return Long.compareUnsigned(firstPrefix, clusteringPrefix) < 0 ? -1 : 1;
    }
    return compare(0, clustering);
  }

  /** Row {@code i}'s clustering (a copy). */
  byte[] clustering(int i) {
    long at = clusteringAt(data, starts[i]);
    int from = (int) (at >>> 32);
    return Arrays.copyOfRange(data, from, from + (int) at);
  }

  /** Row {@code i}, decoded. */
  Row row(int i) {
    byte[] clustering = clustering(i);
    int bodyStart = starts[i] + RowCodec.varIntSize(clustering.length) + clustering.length;
    return RowCodec.decode(clustering, data, bodyStart);
  }

  /** What {@link #visit} returns for a row at or after the slice's end. */
  static final int PAST_END = -1;

  /**
   * Row {@code i} read in place ({@link RowCodec#visit}): {@link RowCodec#SIMPLE} with {@code into}
   * started on this chunk's bytes, {@link RowCodec#TOMBSTONE} with its times in {@code deletion},
   * {@link RowCodec#OTHER} for {@link #row} to decode, or {@link #PAST_END} if its clustering is
   * not before {@code end} (the row is not read).
   */
  int visit(int i, byte[] end, SimpleRow into, long[] deletion) {
    long at = clusteringAt(data, starts[i]);
    int from = (int) (at >>> 32);
    int len = (int) at;
    if (Arrays.compareUnsigned(data, from, from + len, end, 0, end.length) >= 0) {
      return PAST_END;
    }
    into.start(data, from, len);
    return RowCodec.visit(data, from + len, into, deletion);
  }

  /** This chunk with the row at index {@code i} replaced by {@code body}. */
  RowChunk replace(int i, byte[] clustering, byte[] body) {
    return splice(i, i + 1, record(clustering, body));
  }

  /** This chunk with a row inserted at index {@code i}. */
  RowChunk insert(int i, byte[] clustering, byte[] body) {
    if (i == count) {
      return append(clustering, body);
    }
    return splice(i, i, record(clustering, body));
  }

  /** This chunk with a row after its last: in the spare room, or in arrays a quarter larger. */
  private RowChunk append(byte[] clustering, byte[] body) {
    int len = RowCodec.varIntSize(clustering.length) + clustering.length + body.length;
    byte[] d = data;
    int[] s = starts;
    if (d.length - end < len) {
      d = Arrays.copyOf(d, Math.max(end + len, Math.min(end + end / 4, MAX_BYTES)));
    }
    if (s.length == count) {
      s = Arrays.copyOf(s, Math.min(MAX_ROWS + 1, count + Math.max(1, count / 4)));
    }
    write(d, end, clustering, body);
    s[count] = end;
    return new RowChunk(d, s, count + 1, end + len);
  }

  /** The rows from index {@code from} (inclusive) to {@code to} (exclusive). */
  RowChunk range(int from, int to) {
    int start = starts[from];
    int stop = to == count ? end : starts[to];
    int[] s = new int[to - from];
    for (int k = 0; k < s.length; k++) {
      s[k] = starts[from + k] - start;
    }
    return new RowChunk(Arrays.copyOfRange(data, start, stop), s);
  }

  /** Rows [from, to) replaced by the one {@code record}, in arrays of exactly their size. */
  private RowChunk splice(int from, int to, byte[] record) {
    int cut = from == count ? end : starts[from];
    int resume = to == count ? end : starts[to];
    byte[] d = new byte[end - (resume - cut) + record.length];
    System.arraycopy(data, 0, d, 0, cut);
    System.arraycopy(record, 0, d, cut, record.length);
    System.arraycopy(data, resume, d, cut + record.length, end - resume);
    int removed = to - from;
    int[] s = new int[count - removed + 1];
    System.arraycopy(starts, 0, s, 0, from);
    s[from] = cut;
    int shift = record.length - (resume - cut);
    for (int k = to; k < count; k++) {
      s[k - removed + 1] = starts[k] + shift;
    }
    return new RowChunk(d, s);
  }

  private static byte[] record(byte[] clustering, byte[] body) {
    byte[] r = new byte[RowCodec.varIntSize(clustering.length) + clustering.length + body.length];
    write(r, 0, clustering, body);
    return r;
  }

  /** Writes a row's record (clustering length, clustering, body) into {@code to} at {@code p}. */
  private static void write(byte[] to, int p, byte[] clustering, byte[] body) {
    long v = clustering.length;
    while ((v & ~0x7FL) != 0) {
      to[p++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    to[p++] = (byte) v;
    System.arraycopy(clustering, 0, to, p, clustering.length);
    System.arraycopy(body, 0, to, p + clustering.length, body.length);
  }
}
