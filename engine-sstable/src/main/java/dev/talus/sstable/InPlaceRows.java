package dev.talus.sstable;

import java.util.Arrays;

/**
 * Steps over rows in a decompressed chunk without a {@code DataInput}: a point read passes the rows
 * of a row-index block before the one it wants reading only their framing, in place. Exactly what
 * {@link PartitionSerializer#readRow} with a {@code skipThrough} bound steps over, for rows that
 * lie wholly in the chunk; anything else is left to it. Stateless.
 */
final class InPlaceRows {
  private InPlaceRows() {}

  /**
   * Steps over the rows from {@code p} whose clustering is at or before {@code skipThrough}, all
   * within {@code a[p..limit)} (a decompressed chunk), reading their framing in place as {@link
   * #skipRowBody} does; returns where the first row it did not step over starts. It stops, leaving
   * the rest to {@link PartitionSerializer#readRow}, at a row after {@code skipThrough}, at the end
   * of the partition, at a row that reaches past {@code limit}, and at anything a decode would
   * refuse (so {@link #readRow} reports it). Allocates nothing.
   */
  static int skip(byte[] a, int p, int limit, byte[] skipThrough, int version) {
    int rowFlags = PartitionSerializer.ROW_FLAGS[version];
    int cellFlags = PartitionSerializer.CELL_FLAGS[version];
    while (true) {
      int start = p;
      if (p >= limit) {
        return start;
      }
      int flags = a[p++] & 0xFF;
      if (flags == PartitionSerializer.END_OF_PARTITION || (flags & ~rowFlags) != 0) {
        return start;
      }
      int n = varLen(a, p, limit);
      if (n < 0) {
        return start;
      }
      long len = varValue(a, p);
      p += n;
      if (len > PartitionSerializer.MAX_CLUSTERING || len > limit - p) {
        return start;
      }
      int clen = (int) len;
      if (Arrays.compareUnsigned(a, p, p + clen, skipThrough, 0, skipThrough.length) > 0) {
        return start; // the first row after the bound: the caller decodes it
      }
      p += clen;
      int vars =
          ((flags & PartitionSerializer.R_LIVENESS) != 0 ? 1 : 0)
              + ((flags & PartitionSerializer.R_LIVENESS_TTL) != 0
                      && (flags & PartitionSerializer.R_LIVENESS) != 0
                  ? 1
                  : 0)
              + ((flags & PartitionSerializer.R_LIVENESS_LDT) != 0
                      && (flags & PartitionSerializer.R_LIVENESS) != 0
                  ? 1
                  : 0)
              + ((flags & PartitionSerializer.R_DELETED) != 0 ? 2 : 0);
      p = skipVars(a, p, limit, vars);
      if (p < 0) {
        return start;
      }
      if ((flags & PartitionSerializer.R_COMPLEX_DELETIONS) != 0) {
        n = varLen(a, p, limit);
        if (n < 0) {
          return start;
        }
        long count = varValue(a, p);
        p += n;
        if (count > PartitionSerializer.MAX_COUNT
            || (p = skipVars(a, p, limit, (int) count * 3)) < 0) {
          return start;
        }
      }
      if ((flags & PartitionSerializer.R_CELLS) != 0) {
        n = varLen(a, p, limit);
        if (n < 0) {
          return start;
        }
        long count = varValue(a, p);
        p += n;
        if (count > PartitionSerializer.MAX_COUNT) {
          return start;
        }
        for (long i = 0; i < count && p >= 0; i++) {
          p = skipCell(a, p, limit, cellFlags);
        }
        if (p < 0) {
          return start;
        }
      }
    }
  }

  /**
   * Past one cell at {@code p} (see {@code PartitionSerializer.skipRowBody}), or -1 if it cannot be
   * stepped over.
   */
  private static int skipCell(byte[] a, int p, int limit, int known) {
    p = skipVars(a, p, limit, 1); // column
    if (p < 0 || p >= limit) {
      return -1;
    }
    int cf = a[p++] & 0xFF;
    if ((cf & ~known) != 0) {
      return -1;
    }
    if ((cf & PartitionSerializer.C_PATH) != 0
        && (p = skipBytesAt(a, p, limit, PartitionSerializer.MAX_CLUSTERING)) < 0) {
      return -1;
    }
    p =
        skipVars(
            a,
            p,
            limit,
            1
                + ((cf & PartitionSerializer.C_TTL) != 0 ? 1 : 0)
                + ((cf & PartitionSerializer.C_LDT) != 0 ? 1 : 0));
    if (p >= 0 && (cf & PartitionSerializer.C_VALUE) != 0) {
      p = skipBytesAt(a, p, limit, PartitionSerializer.MAX_VALUE);
    }
    return p;
  }

  /** Past a length-prefixed byte string at {@code p}, or -1. */
  private static int skipBytesAt(byte[] a, int p, int limit, int max) {
    int n = varLen(a, p, limit);
    if (n < 0) {
      return -1;
    }
    long len = varValue(a, p);
    p += n;
    return len > max || len > limit - p ? -1 : p + (int) len;
  }

  /** Past {@code count} varints at {@code p}, or -1 if one does not end before {@code limit}. */
  private static int skipVars(byte[] a, int p, int limit, int count) {
    for (int i = 0; i < count; i++) {
      int n = varLen(a, p, limit);
      if (n < 0) {
        return -1;
      }
      p += n;
    }
    return p;
  }

  /** The length of the varint at {@code p}, or -1 if it does not end before {@code limit}. */
  static int varLen(byte[] a, int p, int limit) {
    int end = Math.min(limit, p + 10);
    for (int i = p; i < end; i++) {
      if (a[i] >= 0) {
        return i - p + 1;
      }
    }
    return -1; // past the limit, or malformed (the decoder reports that)
  }

  /** The value of the complete varint at {@code p}. */
  static long varValue(byte[] a, int p) {
    long v = 0;
    for (int shift = 0; ; shift += 7) {
      int b = a[p++];
      v |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return v;
      }
    }
  }
}
