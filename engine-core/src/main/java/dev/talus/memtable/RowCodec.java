package dev.talus.memtable;

import dev.talus.data.Cell;
import dev.talus.data.ComplexDeletion;
import dev.talus.data.DeletionTime;
import dev.talus.data.LivenessInfo;
import dev.talus.data.Row;
import dev.talus.data.SimpleRow;
import java.util.Arrays;

/**
 * A memtable row held as one byte array (its clustering is the skip-list key beside it), so a row
 * costs two arrays and a skip-list node instead of a graph of row, liveness, cell and value
 * objects. The layout lives only in memory (never on disk or in the commit log), so it may change
 * freely:
 *
 * <pre>
 * head     byte     bit 0 row marker, bit 1 marker has TTL/expiry, bit 2 row deletion,
 *                   bit 3 complex deletions, bits 4-7 cell count (15: a varint count follows)
 * [count]  varint   when bits 4-7 are 15: the cell count
 * [marker] long     timestamp, then when bit 1: varint ttl, long expiry
 * [delete] 2 long   marked-for-delete-at, local deletion time
 * [complex] varint n, then n × (varint column, 2 long deletion)
 * cells    each: varint column, byte flags (1 path, 2 counter, 4 same timestamp as the marker,
 *          8 ttl, 16 local deletion time), [long timestamp unless flag 4], [varint ttl],
 *          [long local deletion time], varint value length, value, [varint path length, path]
 * </pre>
 *
 * A simple row can be read where it lies ({@link #visit}), as SSTable rows can.
 *
 * <p>Stateless and thread-safe.
 */
final class RowCodec {
  private static final int MARKER = 1;
  private static final int MARKER_EXTRA = 2;
  private static final int DELETION = 4;
  private static final int COMPLEX = 8;
  private static final int COUNT_SHIFT = 4;
  private static final int COUNT_ESCAPE = 15;

  private static final int C_PATH = 1;
  private static final int C_COUNTER = 2;
  private static final int C_SAME_TS = 4;
  private static final int C_TTL = 8;
  private static final int C_LDT = 16;

  private RowCodec() {}

  /** The row without its clustering, in the layout above. */
  static byte[] encode(Row r) {
    return encode(r, null);
  }

  /**
   * The row as a {@link RowChunk} record: its clustering's length (varint), the clustering, then
   * what {@link #encode} writes; one array, so a partition's first row is not encoded and copied.
   */
  static byte[] encodeRecord(Row r) {
    return encode(r, r.clustering());
  }

  private static byte[] encode(Row r, byte[] prefix) {
    LivenessInfo l = r.liveness();
    boolean marker =
        !l.isEmpty() || l.ttl() != 0 || l.localExpirationTime() != Cell.NO_DELETION_TIME;
    boolean markerExtra = l.ttl() != 0 || l.localExpirationTime() != Cell.NO_DELETION_TIME;
    boolean deleted = !r.deletion().equals(DeletionTime.LIVE);
    ComplexDeletion[] cds = r.complexDeletions();
    Cell[] cells = r.cells();
    long rowTs = marker ? l.timestamp() : Long.MIN_VALUE;
    int size = 1 + (cells.length >= COUNT_ESCAPE ? varIntSize(cells.length) : 0);
    if (marker) {
      size += 8 + (markerExtra ? varIntSize(l.ttl()) + 8 : 0);
    }
    size += deleted ? 16 : 0;
    if (cds.length > 0) {
      size += varIntSize(cds.length);
      for (ComplexDeletion d : cds) {
        size += varIntSize(d.column()) + 16;
      }
    }
    for (Cell c : cells) {
      size += varIntSize(c.column()) + 1;
      size += marker && c.timestamp() == rowTs ? 0 : 8;
      size += c.ttl() != 0 ? varIntSize(c.ttl()) : 0;
      size += c.localDeletionTime() != Cell.NO_DELETION_TIME ? 8 : 0;
      size += varIntSize(c.value().length) + c.value().length;
      size += c.hasPath() ? varIntSize(c.path().length) + c.path().length : 0;
    }
    int pre = prefix == null ? 0 : varIntSize(prefix.length) + prefix.length;
    Writer w = new Writer(new byte[pre + size]);
    if (prefix != null) {
      w.varInt(prefix.length);
      System.arraycopy(prefix, 0, w.b, w.p, prefix.length);
      w.p += prefix.length;
    }
    int head =
        (marker ? MARKER : 0)
            | (markerExtra ? MARKER_EXTRA : 0)
            | (deleted ? DELETION : 0)
            | (cds.length > 0 ? COMPLEX : 0)
            | (Math.min(cells.length, COUNT_ESCAPE) << COUNT_SHIFT);
    w.b[w.p++] = (byte) head;
    if (cells.length >= COUNT_ESCAPE) {
      w.varInt(cells.length);
    }
    if (marker) {
      w.longValue(l.timestamp());
      if (markerExtra) {
        w.varInt(l.ttl());
        w.longValue(l.localExpirationTime());
      }
    }
    if (deleted) {
      w.longValue(r.deletion().markedForDeleteAt());
      w.longValue(r.deletion().localDeletionTime());
    }
    if (cds.length > 0) {
      w.varInt(cds.length);
      for (ComplexDeletion d : cds) {
        w.varInt(d.column());
        w.longValue(d.deletion().markedForDeleteAt());
        w.longValue(d.deletion().localDeletionTime());
      }
    }
    for (Cell c : cells) {
      boolean sameTs = marker && c.timestamp() == rowTs;
      int flags =
          (c.hasPath() ? C_PATH : 0)
              | (c.isCounter() ? C_COUNTER : 0)
              | (sameTs ? C_SAME_TS : 0)
              | (c.ttl() != 0 ? C_TTL : 0)
              | (c.localDeletionTime() != Cell.NO_DELETION_TIME ? C_LDT : 0);
      w.varInt(c.column());
      w.b[w.p++] = (byte) flags;
      if (!sameTs) {
        w.longValue(c.timestamp());
      }
      if (c.ttl() != 0) {
        w.varInt(c.ttl());
      }
      if (c.localDeletionTime() != Cell.NO_DELETION_TIME) {
        w.longValue(c.localDeletionTime());
      }
      w.bytes(c.value());
      if (c.hasPath()) {
        w.bytes(c.path());
      }
    }
    if (w.p != pre + size) {
      throw new IllegalStateException(
          "memtable row encoded to " + (w.p - pre) + " bytes, sized " + size);
    }
    return w.b;
  }

  /** The row {@link #encode} encoded, with {@code clustering} (shared, not copied). */
  static Row decode(byte[] clustering, byte[] body) {
    return decode(clustering, body, 0);
  }

  /** The row {@link #encode} encoded into {@code buf} from {@code offset} on. */
  static Row decode(byte[] clustering, byte[] buf, int offset) {
    byte[] body = buf;
    Reader in = new Reader(buf);
    in.p = offset;
    int head = body[in.p++] & 0xFF;
    int n = head >>> COUNT_SHIFT;
    if (n == COUNT_ESCAPE) {
      n = in.varInt();
    }
    LivenessInfo l = LivenessInfo.EMPTY;
    if ((head & MARKER) != 0) {
      long ts = in.longValue();
      l =
          (head & MARKER_EXTRA) != 0
              ? new LivenessInfo(ts, in.varInt(), in.longValue())
              : LivenessInfo.of(ts);
    }
    DeletionTime del =
        (head & DELETION) != 0
            ? new DeletionTime(in.longValue(), in.longValue())
            : DeletionTime.LIVE;
    ComplexDeletion[] cds = Row.NO_COMPLEX_DELETIONS;
    if ((head & COMPLEX) != 0) {
      cds = new ComplexDeletion[in.varInt()];
      for (int i = 0; i < cds.length; i++) {
        cds[i] = new ComplexDeletion(in.varInt(), new DeletionTime(in.longValue(), in.longValue()));
      }
    }
    Cell[] cells = new Cell[n];
    for (int i = 0; i < n; i++) {
      int column = in.varInt();
      int flags = body[in.p++];
      long ts = (flags & C_SAME_TS) != 0 ? l.timestamp() : in.longValue();
      int ttl = (flags & C_TTL) != 0 ? in.varInt() : 0;
      long ldt = (flags & C_LDT) != 0 ? in.longValue() : Cell.NO_DELETION_TIME;
      byte[] value = in.bytes();
      byte[] path = (flags & C_PATH) != 0 ? in.bytes() : null;
      cells[i] = new Cell(column, path, ts, ttl, ldt, value, (flags & C_COUNTER) != 0);
    }
    return new Row(clustering, l, del, cds, cells);
  }

  /** What {@link #visit} found: a simple row, a bare row deletion, or a row to decode. */
  static final int SIMPLE = 0;

  static final int TOMBSTONE = 1;
  static final int OTHER = 2;

  /**
   * Reads the row {@link #encode} encoded into {@code buf} from {@code offset} on without building
   * it, when it is simple — at most a marker without TTL, no deletion, only live cells without TTL,
   * path or counter — into {@code into} (whose {@link SimpleRow#start} the caller made, on {@code
   * buf}), or when it is a bare row deletion, whose two times go into {@code deletion}. Anything
   * else is {@link #OTHER}: the caller decodes it. {@code into} may hold a partial row then.
   */
  static int visit(byte[] buf, int offset, SimpleRow into, long[] deletion) {
    Reader in = new Reader(buf);
    in.p = offset;
    int head = buf[in.p++] & 0xFF;
    int n = head >>> COUNT_SHIFT;
    if (n == COUNT_ESCAPE) {
      n = in.varInt();
    }
    if ((head & (MARKER_EXTRA | COMPLEX)) != 0) {
      return OTHER;
    }
    if ((head & DELETION) != 0) {
      if (n != 0 || (head & MARKER) != 0) {
        return OTHER;
      }
      deletion[0] = in.longValue();
      deletion[1] = in.longValue();
      return TOMBSTONE;
    }
    long rowTs = Long.MIN_VALUE;
    if ((head & MARKER) != 0) {
      rowTs = in.longValue();
      into.marker(rowTs);
    }
    into.reserve(n);
    for (int i = 0; i < n; i++) {
      int column = in.varInt();
      int flags = buf[in.p++];
      if ((flags & ~C_SAME_TS) != 0) {
        return OTHER; // a path, a counter, a TTL or a deletion time
      }
      long ts = (flags & C_SAME_TS) != 0 ? rowTs : in.longValue();
      int len = in.varInt();
      into.cell(column, ts, len == 0 ? -1 : in.p, len);
      in.p += len;
    }
    return SIMPLE;
  }

  static int varIntSize(long v) {
    int n = 1;
    while ((v & ~0x7FL) != 0) {
      n++;
      v >>>= 7;
    }
    return n;
  }

  private static final class Writer {
    final byte[] b;
    int p;

    Writer(byte[] b) {
      this.b = b;
    }

    void varInt(long v) {
      while ((v & ~0x7FL) != 0) {
        b[p++] = (byte) ((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      b[p++] = (byte) v;
    }

    void longValue(long v) {
      for (int shift = 56; shift >= 0; shift -= 8) {
        b[p++] = (byte) (v >>> shift);
      }
    }

    void bytes(byte[] v) {
      varInt(v.length);
      System.arraycopy(v, 0, b, p, v.length);
      p += v.length;
    }
  }

  private static final class Reader {
    final byte[] b;
    int p;

    Reader(byte[] b) {
      this.b = b;
    }

    int varInt() {
      long v = 0;
      for (int shift = 0; ; shift += 7) {
        int x = b[p++] & 0xFF;
        v |= (long) (x & 0x7F) << shift;
        if ((x & 0x80) == 0) {
          return (int) v;
        }
      }
    }

    long longValue() {
      long v = 0;
      for (int i = 0; i < 8; i++) {
        v = (v << 8) | (b[p++] & 0xFF);
      }
      return v;
    }

    byte[] bytes() {
      int len = varInt();
      if (len == 0) {
        return Cell.EMPTY;
      }
      byte[] v = Arrays.copyOfRange(b, p, p + len);
      p += len;
      return v;
    }
  }
}
