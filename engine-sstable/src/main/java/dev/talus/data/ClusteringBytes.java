package dev.talus.data;

import java.util.Arrays;
import java.util.List;

/**
 * The framing that makes every clustering comparison an unsigned byte comparison.
 *
 * <p>Each clustering column value arrives already encoded by its type into an order-preserving,
 * prefix-free byte string (inverted for DESC columns). A row's clustering is {@code SEPARATOR c1
 * SEPARATOR c2 ... ROW_END}. A bound on a prefix {@code p} is {@code p BEFORE} (sorts before every
 * clustering that starts with p) or {@code p AFTER} (sorts after all of them). With {@code BEFORE <
 * ROW_END < SEPARATOR < AFTER}, a bound never equals a row, so slices need no inclusive flags:
 *
 * <pre>
 *   c &gt;= p : start = p BEFORE      c &gt; p : start = p AFTER
 *   c &lt;= p : end   = p AFTER       c &lt; p : end   = p BEFORE
 * </pre>
 *
 * <p>The static row of a partition has the clustering {@link #STATIC}, the single byte {@code
 * 0x10}: it sorts before every row and every bound (even {@link #BOTTOM}), so no slice of rows and
 * no range tombstone ever contains it; only {@link Slice#STATIC} does.
 *
 * <p>Stateless and thread-safe.
 */
public final class ClusteringBytes {
  /** The one byte of the static row's clustering. */
  public static final byte STATIC_MARK = 0x10;

  public static final byte BEFORE = 0x20;
  public static final byte ROW_END = 0x30;
  public static final byte SEPARATOR = 0x40;
  public static final byte AFTER = 0x60;

  /** The clustering of the single row of a table without clustering columns. */
  public static final byte[] EMPTY_ROW = {ROW_END};

  /** The clustering of a partition's static row: before every other row and every bound. */
  public static final byte[] STATIC = {STATIC_MARK};

  /** Sorts before every clustering. */
  public static final byte[] BOTTOM = {BEFORE};

  /** Sorts after every clustering. */
  public static final byte[] TOP = {AFTER};

  private ClusteringBytes() {}

  /** A row's clustering from its encoded column values. */
  public static byte[] row(List<byte[]> components) {
    return frame(components, ROW_END);
  }

  /** A bound just before ({@code after == false}) or just after every extension of the prefix. */
  public static byte[] bound(List<byte[]> prefix, boolean after) {
    return frame(prefix, after ? AFTER : BEFORE);
  }

  private static byte[] frame(List<byte[]> components, byte end) {
    int len = 1;
    for (byte[] c : components) {
      len += 1 + c.length;
    }
    byte[] out = new byte[len];
    int p = 0;
    for (byte[] c : components) {
      out[p++] = SEPARATOR;
      System.arraycopy(c, 0, out, p, c.length);
      p += c.length;
    }
    out[p] = end;
    return out;
  }

  /** The bound just after {@code row} (for resuming a forward scan after it). */
  public static byte[] after(byte[] row) {
    byte[] b = Arrays.copyOf(row, row.length);
    b[b.length - 1] = AFTER;
    return b;
  }

  /** The bound just before {@code row} (for resuming a reversed scan before it). */
  public static byte[] before(byte[] row) {
    byte[] b = Arrays.copyOf(row, row.length);
    b[b.length - 1] = BEFORE;
    return b;
  }

  /** True for the static row's clustering. */
  public static boolean isStatic(byte[] clustering) {
    return clustering.length == 1 && clustering[0] == STATIC_MARK;
  }

  public static boolean isRow(byte[] clustering) {
    return clustering.length > 0 && clustering[clustering.length - 1] == ROW_END;
  }

  public static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }
}
