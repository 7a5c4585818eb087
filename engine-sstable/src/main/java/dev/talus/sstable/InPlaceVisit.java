package dev.talus.sstable;

import dev.talus.data.SimpleRow;
import dev.talus.data.VarInts;

/**
 * Parses one row of a decompressed chunk in place for a {@link dev.talus.data.RowVisitor}: a simple
 * row (a marker without TTL, live cells of single-cell columns) into a reused {@link SimpleRow}, a
 * bare row deletion into two numbers. Anything else, a row that reaches past the chunk and anything
 * a decode would refuse is left to {@link PartitionSerializer#readRow}. Not thread-safe; one per
 * visit.
 */
final class InPlaceVisit {
  /** {@link #parse} results: the partition ended, or the row must be decoded. */
  static final int END = -2;

  static final int DECODE = -1;

  private final long baseTimestamp;
  private final long baseLocalDeletionTime;
  private final int rowFlags;
  final SimpleRow simple = new SimpleRow();

  /** After {@link #parse}: whether the row was a bare row deletion, and its two times. */
  boolean tombstone;

  long markedForDeleteAt;
  long localDeletionTime;

  /** After {@link #parse}: where the row's clustering lies. */
  int clusteringFrom;

  int clusteringLength;

  InPlaceVisit(PartitionSerializer.Header h) {
    this.baseTimestamp = h.baseTimestamp();
    this.baseLocalDeletionTime = h.baseLocalDeletionTime();
    this.rowFlags = PartitionSerializer.ROW_FLAGS[h.version()];
  }

  /**
   * Parses the row at {@code a[p..limit)}: the position after it, {@link #END} or {@link #DECODE}.
   */
  int parse(byte[] a, int p, int limit) {
    if (p >= limit) {
      return DECODE;
    }
    int flags = a[p++] & 0xFF;
    if (flags == PartitionSerializer.END_OF_PARTITION) {
      return END;
    }
    if ((flags & ~rowFlags) != 0) {
      return DECODE;
    }
    int n = InPlaceRows.varLen(a, p, limit);
    if (n < 0) {
      return DECODE;
    }
    long len = InPlaceRows.varValue(a, p);
    p += n;
    if (len > PartitionSerializer.MAX_CLUSTERING || len > limit - p) {
      return DECODE;
    }
    clusteringFrom = p;
    clusteringLength = (int) len;
    p += clusteringLength;
    if (flags == PartitionSerializer.R_DELETED) {
      int n1 = InPlaceRows.varLen(a, p, limit);
      int n2 = n1 < 0 ? -1 : InPlaceRows.varLen(a, p + n1, limit);
      if (n2 < 0) {
        return DECODE;
      }
      simple.start(a, clusteringFrom, clusteringLength);
      markedForDeleteAt = VarInts.zigZagDecode(InPlaceRows.varValue(a, p)) + baseTimestamp;
      localDeletionTime =
          VarInts.zigZagDecode(InPlaceRows.varValue(a, p + n1)) + baseLocalDeletionTime;
      tombstone = true;
      return p + n1 + n2;
    }
    if ((flags & ~(PartitionSerializer.R_LIVENESS | PartitionSerializer.R_CELLS)) != 0) {
      return DECODE; // a TTL'd marker, a deletion beside data, complex deletions
    }
    tombstone = false;
    simple.start(a, clusteringFrom, clusteringLength);
    if ((flags & PartitionSerializer.R_LIVENESS) != 0) {
      n = InPlaceRows.varLen(a, p, limit);
      if (n < 0) {
        return DECODE;
      }
      simple.marker(VarInts.zigZagDecode(InPlaceRows.varValue(a, p)) + baseTimestamp);
      p += n;
    }
    if ((flags & PartitionSerializer.R_CELLS) != 0) {
      n = InPlaceRows.varLen(a, p, limit);
      if (n < 0) {
        return DECODE;
      }
      long count = InPlaceRows.varValue(a, p);
      p += n;
      if (count > PartitionSerializer.MAX_COUNT) {
        return DECODE;
      }
      simple.reserve((int) Math.min(count, (limit - p) / 3)); // a cell takes 3 bytes or more
      for (long i = 0; i < count; i++) {
        p = cell(a, p, limit);
        if (p < 0) {
          return DECODE;
        }
      }
    }
    return p;
  }

  /** One live cell without TTL into {@link #simple}; the position after it, or -1. */
  private int cell(byte[] a, int p, int limit) {
    int n = InPlaceRows.varLen(a, p, limit);
    if (n < 0 || p + n >= limit) {
      return -1;
    }
    int column = (int) VarInts.zigZagDecode(InPlaceRows.varValue(a, p));
    p += n;
    int cf = a[p++] & 0xFF;
    if ((cf & ~PartitionSerializer.C_VALUE) != 0) {
      return -1; // TTL, deletion time, element path, counter: decoded
    }
    n = InPlaceRows.varLen(a, p, limit);
    if (n < 0) {
      return -1;
    }
    long ts = VarInts.zigZagDecode(InPlaceRows.varValue(a, p)) + baseTimestamp;
    p += n;
    if ((cf & PartitionSerializer.C_VALUE) == 0) {
      simple.cell(column, ts, -1, 0);
      return p;
    }
    n = InPlaceRows.varLen(a, p, limit);
    if (n < 0) {
      return -1;
    }
    long len = InPlaceRows.varValue(a, p);
    p += n;
    if (len > PartitionSerializer.MAX_VALUE || len > limit - p) {
      return -1;
    }
    simple.cell(column, ts, p, (int) len);
    return p + (int) len;
  }
}
