package dev.talus.data;

import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
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

  public byte[] serialize() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      serialize(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

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
      VarInts.writeUnsigned(out, r.cells().length);
      for (Cell c : r.cells()) {
        VarInts.writeUnsigned(out, c.column());
        out.writeLong(c.timestamp());
        VarInts.writeUnsigned(out, c.ttl());
        out.writeLong(c.localDeletionTime());
        writeBytes(out, c.value());
      }
    }
  }

  public static PartitionUpdate deserialize(byte[] data) throws IOException {
    return deserialize(new DataInputStream(new java.io.ByteArrayInputStream(data)));
  }

  public static PartitionUpdate deserialize(DataInput in) throws IOException {
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
      int n = VarInts.readLength(in, MAX_FIELD);
      Cell[] cells = new Cell[Math.min(n, 4096)];
      for (int j = 0; j < n; j++) {
        if (j == cells.length) {
          cells = Arrays.copyOf(cells, cells.length * 2);
        }
        cells[j] =
            new Cell(
                (int) VarInts.readUnsigned(in),
                in.readLong(),
                (int) VarInts.readUnsigned(in),
                in.readLong(),
                readBytes(in));
      }
      rows.add(new Row(clustering, l, d, cells.length == n ? cells : Arrays.copyOf(cells, n)));
    }
    return new PartitionUpdate(key, pd, rts, rows);
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
