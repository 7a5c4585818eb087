package dev.talus.sstable;

import dev.talus.data.Cell;
import dev.talus.data.ComplexDeletion;
import dev.talus.data.DeletionTime;
import dev.talus.data.LivenessInfo;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.data.VarInts;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes partitions in the Data stream. Timestamps and local deletion times are zig-zag varint
 * deltas against a base stored in each partition's header (the first timestamp and deletion time
 * the writer sees for the partition): the writer streams rows and cannot know SSTable-wide minimums
 * up front, and values inside one partition are usually close, so deltas stay 1-4 bytes. Long
 * arithmetic wraps consistently, so any base decodes exactly.
 *
 * <p>Format version 2 added a row flag for complex-column deletions and cell flags for element
 * paths and counter cells; a version 1 file is the same layout without them, so one decoder reads
 * both, refusing the new flags in a version 1 file. Stateless.
 */
final class PartitionSerializer {
  static final int MAX_KEY = 65_535;
  static final int MAX_CLUSTERING = 1 << 24;
  static final int MAX_VALUE = 256 << 20;
  static final int MAX_COUNT = 1 << 24;

  // Partition header flags.
  private static final int P_DELETED = 0x01;
  private static final int P_RANGE_TOMBSTONES = 0x02;

  // Row flags; a flags byte of END_OF_PARTITION alone ends the partition.
  static final int END_OF_PARTITION = 0x01;
  static final int R_LIVENESS = 0x02;
  static final int R_LIVENESS_TTL = 0x04;
  static final int R_LIVENESS_LDT = 0x08;
  static final int R_DELETED = 0x10;
  static final int R_CELLS = 0x20;
  static final int R_COMPLEX_DELETIONS = 0x40; // format 2

  // Cell flags.
  static final int C_TTL = 0x01;
  static final int C_LDT = 0x02;
  static final int C_VALUE = 0x04;
  static final int C_PATH = 0x08; // format 2
  static final int C_COUNTER = 0x10; // format 2

  /**
   * The row flags known in each format version (index = version; 3 changed only the TOC, 4 only the
   * Filter component).
   */
  static final int[] ROW_FLAGS = {
    0,
    0x3E,
    0x3E | R_COMPLEX_DELETIONS,
    0x3E | R_COMPLEX_DELETIONS,
    0x3E | R_COMPLEX_DELETIONS,
    0x3E | R_COMPLEX_DELETIONS,
  };

  /** The cell flags known in each format version (index = version). */
  static final int[] CELL_FLAGS = {
    0,
    C_TTL | C_LDT | C_VALUE,
    C_TTL | C_LDT | C_VALUE | C_PATH | C_COUNTER,
    C_TTL | C_LDT | C_VALUE | C_PATH | C_COUNTER,
    C_TTL | C_LDT | C_VALUE | C_PATH | C_COUNTER,
    C_TTL | C_LDT | C_VALUE | C_PATH | C_COUNTER,
  };

  private PartitionSerializer() {}

  /**
   * What precedes the rows of a partition, and the format version of the file it is read from
   * (never written: it comes from the component header).
   */
  record Header(
      byte[] key,
      DeletionTime partitionDeletion,
      List<RangeTombstone> rangeTombstones,
      long baseTimestamp,
      long baseLocalDeletionTime,
      int version) {}

  static void writeHeader(DataOutput out, Header h) throws IOException {
    writeBytes(out, h.key());
    writeHeaderSummary(out, h);
    if (!h.rangeTombstones().isEmpty()) {
      VarInts.writeUnsigned(out, h.rangeTombstones().size());
      for (RangeTombstone t : h.rangeTombstones()) {
        writeBytes(out, t.start());
        writeBytes(out, t.end());
        writeDeletion(out, t.deletion(), h);
      }
    }
  }

  static Header readHeader(ChunkInput in, int version) throws IOException {
    byte[] key = in.readLengthPrefixed(MAX_KEY);
    int flags = in.readUnsignedByte();
    if ((flags & ~(P_DELETED | P_RANGE_TOMBSTONES)) != 0) {
      throw new IOException("unknown partition flags " + flags);
    }
    long baseTs = in.readVarSigned();
    long baseLdt = in.readVarSigned();
    Header base = new Header(key, DeletionTime.LIVE, List.of(), baseTs, baseLdt, version);
    DeletionTime pd = (flags & P_DELETED) != 0 ? readDeletion(in, base) : DeletionTime.LIVE;
    List<RangeTombstone> rts = List.of();
    if ((flags & P_RANGE_TOMBSTONES) != 0) {
      int n = in.readVarLength(MAX_COUNT);
      List<RangeTombstone> l = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        byte[] s = in.readLengthPrefixed(MAX_CLUSTERING);
        byte[] e = in.readLengthPrefixed(MAX_CLUSTERING);
        l.add(new RangeTombstone(s, e, readDeletion(in, base)));
      }
      rts = List.copyOf(l);
    }
    return new Header(key, pd, rts, baseTs, baseLdt, version);
  }

  /**
   * Writes what a read needs of {@code h} before it can decode a row in the middle of the partition
   * (format {@value FormatVersion#HEADER_IN_INDEX}, in an index entry with a row index): the flags,
   * the bases and the partition deletion: the bytes of the Data header between its key and its
   * range tombstones. Range tombstones stay in Data only; their flag tells the reader to read the
   * header there.
   */
  static void writeHeaderSummary(DataOutput out, Header h) throws IOException {
    boolean deleted = !h.partitionDeletion().equals(DeletionTime.LIVE);
    out.writeByte(
        (deleted ? P_DELETED : 0) | (h.rangeTombstones().isEmpty() ? 0 : P_RANGE_TOMBSTONES));
    VarInts.writeSigned(out, h.baseTimestamp());
    VarInts.writeSigned(out, h.baseLocalDeletionTime());
    if (deleted) {
      writeDeletion(out, h.partitionDeletion(), h);
    }
  }

  /**
   * Reads what {@link #writeHeaderSummary} wrote: the header of partition {@code key} without its
   * range tombstones, or null if it has some (the reader reads the header from Data then).
   */
  static Header readHeaderSummary(DataInput in, byte[] key, int version) throws IOException {
    int flags = in.readUnsignedByte();
    if ((flags & ~(P_DELETED | P_RANGE_TOMBSTONES)) != 0) {
      throw new IOException("unknown partition flags " + flags + " in an index entry");
    }
    long baseTs = VarInts.readSigned(in);
    long baseLdt = VarInts.readSigned(in);
    DeletionTime pd = DeletionTime.LIVE;
    if ((flags & P_DELETED) != 0) {
      pd = new DeletionTime(VarInts.readSigned(in) + baseTs, VarInts.readSigned(in) + baseLdt);
    }
    return (flags & P_RANGE_TOMBSTONES) != 0
        ? null
        : new Header(key, pd, List.of(), baseTs, baseLdt, version);
  }

  static void writeRow(DataOutput out, Row r, Header h) throws IOException {
    LivenessInfo l = r.liveness();
    boolean hasL = !l.equals(LivenessInfo.EMPTY);
    boolean deleted = !r.deletion().equals(DeletionTime.LIVE);
    int flags =
        (hasL ? R_LIVENESS : 0)
            | (hasL && l.ttl() != 0 ? R_LIVENESS_TTL : 0)
            | (hasL && l.localExpirationTime() != Cell.NO_DELETION_TIME ? R_LIVENESS_LDT : 0)
            | (deleted ? R_DELETED : 0)
            | (r.cells().length > 0 ? R_CELLS : 0)
            | (r.complexDeletions().length > 0 ? R_COMPLEX_DELETIONS : 0);
    out.writeByte(flags);
    writeBytes(out, r.clustering());
    if (hasL) {
      VarInts.writeSigned(out, l.timestamp() - h.baseTimestamp());
      if ((flags & R_LIVENESS_TTL) != 0) {
        VarInts.writeSigned(out, l.ttl());
      }
      if ((flags & R_LIVENESS_LDT) != 0) {
        VarInts.writeSigned(out, l.localExpirationTime() - h.baseLocalDeletionTime());
      }
    }
    if (deleted) {
      writeDeletion(out, r.deletion(), h);
    }
    if (r.complexDeletions().length > 0) {
      VarInts.writeUnsigned(out, r.complexDeletions().length);
      for (ComplexDeletion d : r.complexDeletions()) {
        VarInts.writeSigned(out, d.column());
        writeDeletion(out, d.deletion(), h);
      }
    }
    if (r.cells().length > 0) {
      VarInts.writeUnsigned(out, r.cells().length);
      for (Cell c : r.cells()) {
        writeCell(out, c, h);
      }
    }
  }

  /**
   * Returned by {@link #readRow(DataInput, Header, byte[])} for a row it stepped over. A marker
   * only: never merged or returned to callers.
   */
  static final Row SKIPPED =
      new Row(new byte[0], LivenessInfo.EMPTY, DeletionTime.LIVE, new Cell[0]);

  /** Reads the next row, or returns null at the end of the partition. */
  static Row readRow(ChunkInput in, Header h) throws IOException {
    return readRow(in, h, null);
  }

  /**
   * Reads the next row, or returns null at the end of the partition. If {@code skipThrough} is not
   * null and the row's clustering is at or before it (unsigned byte order), the rest of the row is
   * parsed without being materialised and {@link #SKIPPED} is returned: a read seeking into a
   * row-index block pays for the rows before its slice only their framing, not their cells.
   */
  static Row readRow(ChunkInput in, Header h, byte[] skipThrough) throws IOException {
    int flags = in.readUnsignedByte();
    if (flags == END_OF_PARTITION) {
      return null;
    }
    if ((flags & ~ROW_FLAGS[h.version()]) != 0) {
      throw new IOException("unknown row flags " + flags + " in format version " + h.version());
    }
    byte[] clustering;
    if (skipThrough != null) {
      int len = in.readVarLength(MAX_CLUSTERING);
      int c = in.compareInPlace(len, skipThrough);
      if (c != Integer.MIN_VALUE && c <= 0) { // compared in the chunk, nothing allocated
        if (in.skipBytes(len) != len) {
          throw new java.io.EOFException("clustering truncated");
        }
        skipRowBody(in, flags, h.version());
        return SKIPPED;
      }
      clustering = new byte[len];
      in.readFully(clustering);
      if (c == Integer.MIN_VALUE
          && java.util.Arrays.compareUnsigned(clustering, skipThrough) <= 0) {
        skipRowBody(in, flags, h.version());
        return SKIPPED;
      }
    } else {
      clustering = in.readLengthPrefixed(MAX_CLUSTERING);
    }
    LivenessInfo l = LivenessInfo.EMPTY;
    if ((flags & R_LIVENESS) != 0) {
      long ts = in.readVarSigned() + h.baseTimestamp();
      int ttl = (flags & R_LIVENESS_TTL) != 0 ? (int) in.readVarSigned() : 0;
      long ldt =
          (flags & R_LIVENESS_LDT) != 0
              ? in.readVarSigned() + h.baseLocalDeletionTime()
              : Cell.NO_DELETION_TIME;
      l = new LivenessInfo(ts, ttl, ldt);
    }
    DeletionTime d = (flags & R_DELETED) != 0 ? readDeletion(in, h) : DeletionTime.LIVE;
    ComplexDeletion[] cds = Row.NO_COMPLEX_DELETIONS;
    if ((flags & R_COMPLEX_DELETIONS) != 0) {
      int n = in.readVarLength(MAX_COUNT);
      cds = new ComplexDeletion[n];
      for (int i = 0; i < n; i++) {
        cds[i] = new ComplexDeletion((int) in.readVarSigned(), readDeletion(in, h));
      }
    }
    Cell[] cells = NO_CELLS;
    if ((flags & R_CELLS) != 0) {
      int n = in.readVarLength(MAX_COUNT);
      cells = new Cell[n];
      for (int i = 0; i < n; i++) {
        cells[i] = readCell(in, h);
      }
    }
    return new Row(clustering, l, d, cds, cells);
  }

  private static final Cell[] NO_CELLS = new Cell[0];

  /** Steps over what follows a row's clustering, checking flags and lengths as a decode would. */
  private static void skipRowBody(ChunkInput in, int flags, int version) throws IOException {
    if ((flags & R_LIVENESS) != 0) {
      in.readVarSigned();
      if ((flags & R_LIVENESS_TTL) != 0) {
        in.readVarSigned();
      }
      if ((flags & R_LIVENESS_LDT) != 0) {
        in.readVarSigned();
      }
    }
    if ((flags & R_DELETED) != 0) {
      in.readVarSigned();
      in.readVarSigned();
    }
    if ((flags & R_COMPLEX_DELETIONS) != 0) {
      int n = in.readVarLength(MAX_COUNT);
      for (int i = 0; i < n; i++) {
        in.readVarSigned();
        in.readVarSigned();
        in.readVarSigned();
      }
    }
    if ((flags & R_CELLS) != 0) {
      int n = in.readVarLength(MAX_COUNT);
      for (int i = 0; i < n; i++) {
        in.readVarSigned();
        int cf = in.readUnsignedByte();
        if ((cf & ~CELL_FLAGS[version]) != 0) {
          throw new IOException("unknown cell flags " + cf + " in format version " + version);
        }
        if ((cf & C_PATH) != 0) {
          int len = in.readVarLength(MAX_CLUSTERING);
          if (in.skipBytes(len) != len) {
            throw new java.io.EOFException("cell path truncated");
          }
        }
        in.readVarSigned();
        if ((cf & C_TTL) != 0) {
          in.readVarSigned();
        }
        if ((cf & C_LDT) != 0) {
          in.readVarSigned();
        }
        if ((cf & C_VALUE) != 0) {
          int len = in.readVarLength(MAX_VALUE);
          if (in.skipBytes(len) != len) {
            throw new java.io.EOFException("cell value truncated");
          }
        }
      }
    }
  }

  static void writeEnd(DataOutput out) throws IOException {
    out.writeByte(END_OF_PARTITION);
  }

  private static void writeCell(DataOutput out, Cell c, Header h) throws IOException {
    boolean ldt = c.localDeletionTime() != Cell.NO_DELETION_TIME;
    int flags =
        (c.ttl() != 0 ? C_TTL : 0)
            | (ldt ? C_LDT : 0)
            | (c.value().length > 0 ? C_VALUE : 0)
            | (c.hasPath() ? C_PATH : 0)
            | (c.isCounter() ? C_COUNTER : 0);
    VarInts.writeSigned(out, c.column());
    out.writeByte(flags);
    if (c.hasPath()) {
      writeBytes(out, c.path());
    }
    VarInts.writeSigned(out, c.timestamp() - h.baseTimestamp());
    if (c.ttl() != 0) {
      VarInts.writeSigned(out, c.ttl());
    }
    if (ldt) {
      VarInts.writeSigned(out, c.localDeletionTime() - h.baseLocalDeletionTime());
    }
    if (c.value().length > 0) {
      writeBytes(out, c.value());
    }
  }

  private static Cell readCell(ChunkInput in, Header h) throws IOException {
    int column = (int) in.readVarSigned();
    int flags = in.readUnsignedByte();
    if ((flags & ~CELL_FLAGS[h.version()]) != 0) {
      throw new IOException("unknown cell flags " + flags + " in format version " + h.version());
    }
    byte[] path = (flags & C_PATH) != 0 ? in.readLengthPrefixed(MAX_CLUSTERING) : null;
    long ts = in.readVarSigned() + h.baseTimestamp();
    int ttl = (flags & C_TTL) != 0 ? (int) in.readVarSigned() : 0;
    long ldt =
        (flags & C_LDT) != 0
            ? in.readVarSigned() + h.baseLocalDeletionTime()
            : Cell.NO_DELETION_TIME;
    byte[] value = (flags & C_VALUE) != 0 ? in.readLengthPrefixed(MAX_VALUE) : Cell.EMPTY;
    return path == null && (flags & C_COUNTER) == 0
        ? new Cell(column, ts, ttl, ldt, value)
        : new Cell(column, path, ts, ttl, ldt, value, (flags & C_COUNTER) != 0);
  }

  private static void writeDeletion(DataOutput out, DeletionTime d, Header h) throws IOException {
    VarInts.writeSigned(out, d.markedForDeleteAt() - h.baseTimestamp());
    VarInts.writeSigned(out, d.localDeletionTime() - h.baseLocalDeletionTime());
  }

  private static DeletionTime readDeletion(ChunkInput in, Header h) throws IOException {
    long m = in.readVarSigned() + h.baseTimestamp();
    long l = in.readVarSigned() + h.baseLocalDeletionTime();
    return new DeletionTime(m, l);
  }

  static void writeBytes(DataOutput out, byte[] b) throws IOException {
    VarInts.writeUnsigned(out, b.length);
    out.write(b);
  }

  static byte[] readBytes(DataInput in, int max) throws IOException {
    byte[] b = new byte[VarInts.readLength(in, max)];
    in.readFully(b);
    return b;
  }

  /** The base for a partition: its first timestamp and deletion time seen, else 0. */
  static long[] chooseBase(DeletionTime pd, List<RangeTombstone> rts, Row first) {
    if (first != null) {
      if (first.cells().length > 0) {
        Cell c = first.cells()[0];
        long ldt = c.localDeletionTime() != Cell.NO_DELETION_TIME ? c.localDeletionTime() : 0;
        return new long[] {c.timestamp(), ldt};
      }
      if (!first.liveness().equals(LivenessInfo.EMPTY)) {
        LivenessInfo l = first.liveness();
        long ldt = l.localExpirationTime() != Cell.NO_DELETION_TIME ? l.localExpirationTime() : 0;
        return new long[] {l.timestamp(), ldt};
      }
      if (!first.deletion().isLive()) {
        return new long[] {
          first.deletion().markedForDeleteAt(), first.deletion().localDeletionTime()
        };
      }
    }
    if (!pd.isLive()) {
      return new long[] {pd.markedForDeleteAt(), pd.localDeletionTime()};
    }
    if (!rts.isEmpty()) {
      DeletionTime d = rts.get(0).deletion();
      return new long[] {d.markedForDeleteAt(), d.localDeletionTime()};
    }
    return new long[] {0, 0};
  }
}
