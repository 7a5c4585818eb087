package dev.talus.data;

import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * The changes one write makes to one partition: an optional partition deletion, range tombstones,
 * and rows (sorted by clustering, one per clustering). This is the unit the commit log records and
 * the memtable applies.
 *
 * <p>Immutable and thread-safe once built.
 */
public final class PartitionUpdate {
  /** Largest key, clustering or value accepted when reading a serialized update. */
  public static final int MAX_FIELD = Integer.MAX_VALUE - 16;

  private final PartitionKey key;
  private final DeletionTime partitionDeletion;
  private final List<RangeTombstone> rangeTombstones;
  private final List<Row> rows;

  public PartitionUpdate(
      PartitionKey key,
      DeletionTime partitionDeletion,
      List<RangeTombstone> rangeTombstones,
      List<Row> rows) {
    this.key = key;
    this.partitionDeletion = partitionDeletion;
    this.rangeTombstones = List.copyOf(rangeTombstones);
    this.rows = List.copyOf(rows);
  }

  public static Builder builder(PartitionKey key) {
    return new Builder(key);
  }

  public PartitionKey key() {
    return key;
  }

  public DeletionTime partitionDeletion() {
    return partitionDeletion;
  }

  public List<RangeTombstone> rangeTombstones() {
    return rangeTombstones;
  }

  public List<Row> rows() {
    return rows;
  }

  /** Approximate heap footprint once applied to a memtable. */
  public long heapSize() {
    long s = 64L + key.bytes().length;
    for (RangeTombstone t : rangeTombstones) {
      s += 64L + t.start().length + t.end().length;
    }
    for (Row r : rows) {
      s += r.heapSize();
    }
    return s;
  }

  public long maxTimestamp() {
    long m = partitionDeletion.markedForDeleteAt();
    for (RangeTombstone t : rangeTombstones) {
      m = Math.max(m, t.deletion().markedForDeleteAt());
    }
    for (Row r : rows) {
      m = Math.max(m, r.maxTimestamp());
    }
    return m;
  }

  // ---- serialization (commit log records) ----

  /**
   * The layout {@link #serialize} writes: version 2 added complex-column deletions, element paths
   * and counter cells. Version 1 (no such fields) is still read.
   */
  public static final int SERIAL_VERSION = 2;

  private static final int CELL_PATH = 0x01;
  private static final int CELL_COUNTER = 0x02;

  public byte[] serialize() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      serialize(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** Writes the update in layout {@link #SERIAL_VERSION}. */
  public void serialize(DataOutput out) throws IOException {
    writeBytes(out, key.bytes());
    writeDeletion(out, partitionDeletion);
    VarInts.writeUnsigned(out, rangeTombstones.size());
    for (RangeTombstone t : rangeTombstones) {
      writeBytes(out, t.start());
      writeBytes(out, t.end());
      writeDeletion(out, t.deletion());
    }
    VarInts.writeUnsigned(out, rows.size());
    for (Row r : rows) {
      writeBytes(out, r.clustering());
      LivenessInfo l = r.liveness();
      out.writeLong(l.timestamp());
      VarInts.writeUnsigned(out, l.ttl());
      out.writeLong(l.localExpirationTime());
      writeDeletion(out, r.deletion());
      VarInts.writeUnsigned(out, r.complexDeletions().length);
      for (ComplexDeletion d : r.complexDeletions()) {
        VarInts.writeUnsigned(out, d.column());
        writeDeletion(out, d.deletion());
      }
      VarInts.writeUnsigned(out, r.cells().length);
      for (Cell c : r.cells()) {
        VarInts.writeUnsigned(out, c.column());
        out.writeByte((c.hasPath() ? CELL_PATH : 0) | (c.isCounter() ? CELL_COUNTER : 0));
        out.writeLong(c.timestamp());
        VarInts.writeUnsigned(out, c.ttl());
        out.writeLong(c.localDeletionTime());
        writeBytes(out, c.value());
        if (c.hasPath()) {
          writeBytes(out, c.path());
        }
      }
    }
  }

  /** The length of what {@link #serialize(ByteBuffer)} writes. */
  public int serializedSize() {
    long n = sizeOfBytes(key.bytes()) + 16L;
    n += VarInts.sizeOfUnsigned(rangeTombstones.size());
    for (RangeTombstone t : rangeTombstones) {
      n += sizeOfBytes(t.start()) + sizeOfBytes(t.end()) + 16;
    }
    n += VarInts.sizeOfUnsigned(rows.size());
    for (Row r : rows) {
      LivenessInfo l = r.liveness();
      n += sizeOfBytes(r.clustering()) + 16 + VarInts.sizeOfUnsigned(l.ttl()) + 16;
      n += VarInts.sizeOfUnsigned(r.complexDeletions().length);
      for (ComplexDeletion d : r.complexDeletions()) {
        n += VarInts.sizeOfUnsigned(d.column()) + 16;
      }
      n += VarInts.sizeOfUnsigned(r.cells().length);
      for (Cell c : r.cells()) {
        n += VarInts.sizeOfUnsigned(c.column()) + 1 + 8 + VarInts.sizeOfUnsigned(c.ttl()) + 8;
        n += sizeOfBytes(c.value()) + (c.hasPath() ? sizeOfBytes(c.path()) : 0);
      }
    }
    if (n > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("a partition update of " + n + " bytes");
    }
    return (int) n;
  }

  /**
   * Writes the update in layout {@link #SERIAL_VERSION} into {@code out} at its position, exactly
   * {@link #serializedSize()} bytes, as {@link #serialize(DataOutput)} writes it.
   */
  public void serialize(ByteBuffer out) {
    putBytes(out, key.bytes());
    putDeletion(out, partitionDeletion);
    VarInts.putUnsigned(out, rangeTombstones.size());
    for (RangeTombstone t : rangeTombstones) {
      putBytes(out, t.start());
      putBytes(out, t.end());
      putDeletion(out, t.deletion());
    }
    VarInts.putUnsigned(out, rows.size());
    for (Row r : rows) {
      putBytes(out, r.clustering());
      LivenessInfo l = r.liveness();
      out.putLong(l.timestamp());
      VarInts.putUnsigned(out, l.ttl());
      out.putLong(l.localExpirationTime());
      putDeletion(out, r.deletion());
      VarInts.putUnsigned(out, r.complexDeletions().length);
      for (ComplexDeletion d : r.complexDeletions()) {
        VarInts.putUnsigned(out, d.column());
        putDeletion(out, d.deletion());
      }
      VarInts.putUnsigned(out, r.cells().length);
      for (Cell c : r.cells()) {
        VarInts.putUnsigned(out, c.column());
        out.put((byte) ((c.hasPath() ? CELL_PATH : 0) | (c.isCounter() ? CELL_COUNTER : 0)));
        out.putLong(c.timestamp());
        VarInts.putUnsigned(out, c.ttl());
        out.putLong(c.localDeletionTime());
        putBytes(out, c.value());
        if (c.hasPath()) {
          putBytes(out, c.path());
        }
      }
    }
  }

  private static long sizeOfBytes(byte[] b) {
    return VarInts.sizeOfUnsigned(b.length) + (long) b.length;
  }

  private static void putBytes(ByteBuffer out, byte[] b) {
    VarInts.putUnsigned(out, b.length);
    out.put(b);
  }

  private static void putDeletion(ByteBuffer out, DeletionTime d) {
    out.putLong(d.markedForDeleteAt());
    out.putLong(d.localDeletionTime());
  }

  /** Reads an update written by {@link #serialize} (layout {@link #SERIAL_VERSION}). */
  public static PartitionUpdate deserialize(byte[] data) throws IOException {
    return deserialize(new DataInputStream(new java.io.ByteArrayInputStream(data)), SERIAL_VERSION);
  }

  /** Reads an update written in layout {@code version} (1 or 2). */
  public static PartitionUpdate deserialize(DataInput in, int version) throws IOException {
    if (version < 1 || version > SERIAL_VERSION) {
      throw new IOException(
          "unknown partition update layout " + version + " (this build reads 1 to 2)");
    }
    boolean v2 = version >= 2;
    PartitionKey key = PartitionKey.of(readBytes(in));
    DeletionTime pd = readDeletion(in);
    int rtCount = VarInts.readLength(in, MAX_FIELD);
    List<RangeTombstone> rts = new ArrayList<>(Math.min(rtCount, 1024));
    for (int i = 0; i < rtCount; i++) {
      rts.add(new RangeTombstone(readBytes(in), readBytes(in), readDeletion(in)));
    }
    int rowCount = VarInts.readLength(in, MAX_FIELD);
    List<Row> rows = new ArrayList<>(Math.min(rowCount, 1024));
    for (int i = 0; i < rowCount; i++) {
      byte[] clustering = readBytes(in);
      LivenessInfo l =
          new LivenessInfo(in.readLong(), (int) VarInts.readUnsigned(in), in.readLong());
      DeletionTime d = readDeletion(in);
      ComplexDeletion[] cds = Row.NO_COMPLEX_DELETIONS;
      if (v2) {
        int m = VarInts.readLength(in, MAX_FIELD);
        if (m > 0) {
          cds = new ComplexDeletion[Math.min(m, 4096)];
          for (int j = 0; j < m; j++) {
            if (j == cds.length) {
              cds = Arrays.copyOf(cds, cds.length * 2);
            }
            cds[j] = new ComplexDeletion((int) VarInts.readUnsigned(in), readDeletion(in));
          }
          cds = cds.length == m ? cds : Arrays.copyOf(cds, m);
        }
      }
      int n = VarInts.readLength(in, MAX_FIELD);
      Cell[] cells = new Cell[Math.min(n, 4096)];
      for (int j = 0; j < n; j++) {
        if (j == cells.length) {
          cells = Arrays.copyOf(cells, cells.length * 2);
        }
        cells[j] = v2 ? readCellV2(in) : readCellV1(in);
      }
      rows.add(new Row(clustering, l, d, cds, cells.length == n ? cells : Arrays.copyOf(cells, n)));
    }
    return new PartitionUpdate(key, pd, rts, rows);
  }

  private static Cell readCellV1(DataInput in) throws IOException {
    return new Cell(
        (int) VarInts.readUnsigned(in),
        in.readLong(),
        (int) VarInts.readUnsigned(in),
        in.readLong(),
        readBytes(in));
  }

  private static Cell readCellV2(DataInput in) throws IOException {
    int column = (int) VarInts.readUnsigned(in);
    int flags = in.readUnsignedByte();
    if ((flags & ~(CELL_PATH | CELL_COUNTER)) != 0) {
      throw new IOException("unknown cell flags " + flags);
    }
    long ts = in.readLong();
    int ttl = (int) VarInts.readUnsigned(in);
    long ldt = in.readLong();
    byte[] value = readBytes(in);
    byte[] path = (flags & CELL_PATH) != 0 ? readBytes(in) : null;
    return new Cell(column, path, ts, ttl, ldt, value, (flags & CELL_COUNTER) != 0);
  }

  private static void writeBytes(DataOutput out, byte[] b) throws IOException {
    VarInts.writeUnsigned(out, b.length);
    out.write(b);
  }

  private static byte[] readBytes(DataInput in) throws IOException {
    byte[] b = new byte[VarInts.readLength(in, MAX_FIELD)];
    in.readFully(b);
    return b;
  }

  private static void writeDeletion(DataOutput out, DeletionTime d) throws IOException {
    out.writeLong(d.markedForDeleteAt());
    out.writeLong(d.localDeletionTime());
  }

  private static DeletionTime readDeletion(DataInput in) throws IOException {
    long m = in.readLong();
    long l = in.readLong();
    return m == Long.MIN_VALUE ? DeletionTime.LIVE : new DeletionTime(m, l);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PartitionUpdate u
        && u.key.equals(key)
        && u.partitionDeletion.equals(partitionDeletion)
        && u.rangeTombstones.equals(rangeTombstones)
        && u.rows.equals(rows);
  }

  @Override
  public int hashCode() {
    return key.hashCode() * 31 + rows.hashCode();
  }

  @Override
  public String toString() {
    return "PartitionUpdate{"
        + key
        + ", pd="
        + partitionDeletion
        + ", rts="
        + rangeTombstones
        + ", rows="
        + rows
        + "}";
  }

  /** Collects the parts of an update; rows with the same clustering are merged. Not thread-safe. */
  public static final class Builder {
    private final PartitionKey key;
    private DeletionTime partitionDeletion = DeletionTime.LIVE;
    private final List<RangeTombstone> rangeTombstones = new ArrayList<>();
    private final TreeMap<byte[], Row> rows = new TreeMap<>(Arrays::compareUnsigned);

    private Builder(PartitionKey key) {
      this.key = key;
    }

    public Builder deletePartition(DeletionTime d) {
      partitionDeletion = partitionDeletion.max(d);
      return this;
    }

    public Builder addRangeTombstone(RangeTombstone t) {
      rangeTombstones.add(t);
      return this;
    }

    public Builder addRow(Row r) {
      rows.merge(r.clustering(), r, Row::merge);
      return this;
    }

    public PartitionUpdate build() {
      return new PartitionUpdate(
          key, partitionDeletion, rangeTombstones, new ArrayList<>(rows.values()));
    }
  }
}
