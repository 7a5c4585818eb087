package dev.talus.schema;

import dev.talus.ClusteringOrder;
import dev.talus.ColumnDef;
import dev.talus.TableSchema;
import dev.talus.codec.TypeCodec;
import dev.talus.data.ClusteringBytes;
import dev.talus.data.PartitionKey;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a table's key values into bytes and back: partition keys (the concatenated prefix-free
 * encodings of the partition key columns), clusterings and bounds (framed by {@link
 * ClusteringBytes}, DESC columns inverted), and the column ids of the non-key (regular and static)
 * columns. Ids are positions in declaration order ({@link TableSchema#nonKeyColumns()}) with the
 * ids of {@linkplain DroppedColumn dropped columns} left out: the live columns take, in order, the
 * ids no dropped column holds. So a table that never dropped a column has the ids its columns
 * always had, a dropped column's id is never reused, and a column added later (appended to the
 * declaration order) gets the next id above all of them. Immutable and thread-safe.
 */
public final class KeyCodec {
  private final TableSchema schema;
  private final TypeCodec<?>[] pkCodecs;
  private final TypeCodec<?>[] ckCodecs;
  private final boolean[] ckDesc;
  private final TypeCodec<?>[] regularCodecs;
  private final ColumnDef[] byId;
  private final Map<String, Integer> regularIds = new HashMap<>();
  private final List<DroppedColumn> dropped;
  private final java.util.BitSet droppedIds = new java.util.BitSet();

  /** The codec of a table that never dropped a column. */
  public KeyCodec(TableSchema schema) {
    this(schema, List.of());
  }

  /** The codec of a table whose dropped columns are {@code dropped}. */
  public KeyCodec(TableSchema schema, List<DroppedColumn> dropped) {
    this.schema = schema;
    this.dropped = List.copyOf(dropped);
    for (DroppedColumn d : dropped) {
      droppedIds.set(d.id());
    }
    List<ColumnDef> pk = schema.partitionKey();
    pkCodecs = new TypeCodec<?>[pk.size()];
    for (int i = 0; i < pk.size(); i++) {
      pkCodecs[i] = TypeCodec.of(pk.get(i).type());
    }
    List<ColumnDef> ck = schema.clustering();
    ckCodecs = new TypeCodec<?>[ck.size()];
    ckDesc = new boolean[ck.size()];
    for (int i = 0; i < ck.size(); i++) {
      ckCodecs[i] = TypeCodec.of(ck.get(i).type());
      ckDesc[i] = ck.get(i).order() == ClusteringOrder.DESC;
    }
    List<ColumnDef> reg = schema.nonKeyColumns();
    int slots = reg.size() + droppedIds.cardinality();
    regularCodecs = new TypeCodec<?>[slots];
    byId = new ColumnDef[slots];
    int id = -1;
    for (ColumnDef c : reg) {
      id = droppedIds.nextClearBit(id + 1);
      regularCodecs[id] = TypeCodec.of(c.type());
      byId[id] = c;
      regularIds.put(c.name(), id);
    }
    if (droppedIds.length() > slots) {
      throw new IllegalArgumentException(
          "dropped column ids " + droppedIds + " of " + schema.name() + " leave gaps");
    }
    for (DroppedColumn d : dropped) {
      regularCodecs[d.id()] = TypeCodec.of(d.type());
    }
  }

  /**
   * The column cells with id {@code id} belong to, for inspection: the live column, or for a
   * dropped column's id one named {@code "<name> (dropped)"} with the type it had.
   */
  public ColumnDef storedColumn(int id) {
    if (byId[id] != null) {
      return byId[id];
    }
    for (DroppedColumn d : dropped) {
      if (d.id() == id) {
        return new ColumnDef(d.name() + " (dropped)", d.type(), d.kind(), ClusteringOrder.ASC);
      }
    }
    throw new IllegalStateException("no column with id " + id + " in " + schema.name());
  }

  /** The table's dropped columns (their ids are never used by a live column). */
  public List<DroppedColumn> dropped() {
    return dropped;
  }

  /** True if column id {@code id} belongs to a dropped column. */
  public boolean isDropped(int id) {
    return droppedIds.get(id);
  }

  /** True if the table ever dropped a column, so stored rows may hold cells to ignore. */
  public boolean hasDropped() {
    return !dropped.isEmpty();
  }

  /** The id the next added column gets: above every live and dropped column's. */
  public int nextId() {
    return byId.length;
  }

  public TableSchema schema() {
    return schema;
  }

  /** The partition key for canonical (coerced) values of every partition key column. */
  public PartitionKey partitionKey(Object[] values) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(32);
    for (int i = 0; i < pkCodecs.length; i++) {
      pkCodecs[i].encodeKey(values[i], out);
    }
    return PartitionKey.of(out.toByteArray());
  }

  public Object[] decodePartitionKey(byte[] key) {
    Object[] values = new Object[pkCodecs.length];
    int[] pos = {0};
    for (int i = 0; i < pkCodecs.length; i++) {
      values[i] = pkCodecs[i].decodeKey(key, pos);
    }
    return values;
  }

  /** The encoded form of clustering column {@code index}, inverted if the column is DESC. */
  public byte[] clusteringComponent(int index, Object value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(16);
    ckCodecs[index].encodeKey(value, out);
    byte[] b = out.toByteArray();
    if (ckDesc[index]) {
      for (int i = 0; i < b.length; i++) {
        b[i] = (byte) ~b[i];
      }
    }
    return b;
  }

  /** A row clustering from canonical values of every clustering column. */
  public byte[] row(List<Object> values) {
    return ClusteringBytes.row(components(values));
  }

  /** A bound before or after every clustering starting with {@code prefix}. */
  public byte[] bound(List<Object> prefix, boolean after) {
    return ClusteringBytes.bound(components(prefix), after);
  }

  /** The slice of the rows whose clustering starts with {@code prefix}, encoded once. */
  public dev.talus.data.Slice prefixSlice(List<Object> prefix) {
    List<byte[]> c = components(prefix);
    return new dev.talus.data.Slice(
        ClusteringBytes.bound(c, false), ClusteringBytes.bound(c, true));
  }

  private List<byte[]> components(List<Object> values) {
    List<byte[]> c = new ArrayList<>(values.size());
    for (int i = 0; i < values.size(); i++) {
      c.add(clusteringComponent(i, values.get(i)));
    }
    return c;
  }

  /** The canonical values of a row clustering. */
  public Object[] decodeClustering(byte[] row) {
    Object[] values = new Object[ckCodecs.length];
    int p = 0;
    for (int i = 0; i < ckCodecs.length; i++) {
      if (row[p] != ClusteringBytes.SEPARATOR) {
        throw new IllegalStateException("malformed clustering at byte " + p);
      }
      p++;
      byte[] src = row;
      int start = p;
      if (ckDesc[i]) {
        src = new byte[row.length - p];
        for (int j = 0; j < src.length; j++) {
          src[j] = (byte) ~row[p + j];
        }
        start = 0;
      }
      int[] pos = {start};
      values[i] = ckCodecs[i].decodeKey(src, pos);
      p += pos[0] - start;
    }
    return values;
  }

  /** The id of a regular or static column, or -1. */
  public int regularId(String column) {
    Integer id = regularIds.get(column);
    return id == null ? -1 : id;
  }

  public TypeCodec<?> regularCodec(int id) {
    return regularCodecs[id];
  }

  /** The regular or static column with id {@code id}; null for a dropped column's id. */
  public ColumnDef column(int id) {
    return byId[id];
  }

  public TypeCodec<?> partitionKeyCodec(int i) {
    return pkCodecs[i];
  }

  public TypeCodec<?> clusteringCodec(int i) {
    return ckCodecs[i];
  }

  /** The partition key values as text, for messages (never raw bytes). */
  public String describe(PartitionKey key) {
    Object[] v = decodePartitionKey(key.bytes());
    StringBuilder b = new StringBuilder("(");
    for (int i = 0; i < v.length; i++) {
      if (i > 0) {
        b.append(", ");
      }
      b.append(schema.partitionKey().get(i).name()).append('=').append(pkCodecs[i].format(v[i]));
    }
    return b.append(')').toString();
  }
}
