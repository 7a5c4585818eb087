package dev.talus.schema;

import dev.talus.ClusteringOrder;
import dev.talus.ColumnDef;
import dev.talus.CompactionOptions;
import dev.talus.Compression;
import dev.talus.DataType;
import dev.talus.IndexDef;
import dev.talus.KeyspaceSchema;
import dev.talus.TableSchema;
import dev.talus.UserType;
import dev.talus.io.CorruptFileException;
import dev.talus.io.FileFormat;
import dev.talus.io.ReadableFile;
import dev.talus.io.StorageFs;
import dev.talus.io.WritableFile;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Persists the keyspaces, every user type and every table schema in {@code schema.db}: magic,
 * version, the keyspaces and user types (version 3), the tables (each with its keyspace, version
 * 3), and a CRC32C of everything before it ({@link FileFormat}'s trailer). Rewritten whole on each
 * change through a temporary file, a sync, an atomic rename and a directory sync, so a crash leaves
 * the old or the new schema. Not thread-safe; the engine serialises schema changes.
 *
 * <p>Versions: 1 (no partition guardrails), 2 (guardrails; column types by constant name), 3
 * (keyspaces; user types; column types by CQL name, e.g. {@code frozen<map<int, text>>}; static
 * columns), 4 (each table followed by its dropped columns), 5 (each table's dropped columns
 * followed by its secondary indexes), 6 (each index with its target and options), 7 (each table's
 * chunk length). Every version is read (the tables of versions 1 and 2 name no keyspace; no table
 * of a version before 4 dropped a column, none before 5 had an index, every index before 6 indexes
 * a whole value without options; a table before 7 takes the default chunk length); a newer one is
 * refused with its number.
 */
public final class SchemaStore {
  public static final String FILE = "schema.db";
  private static final int MAGIC = 0x544C5343; // "TLSC"
  private static final int VERSION = 7;

  /** Version 6 had no chunk length per table; it is still read. */
  private static final int VERSION_6 = 6;

  /** Version 5 had no index targets or options; it is still read. */
  private static final int VERSION_5 = 5;

  /** Version 4 had no secondary indexes; it is still read. */
  private static final int VERSION_4 = 4;

  /** Version 3 had no dropped columns; it is still read. */
  private static final int VERSION_3 = 3;

  /** Version 2 named column types by their constant name and had no user types. */
  private static final int VERSION_2 = 2;

  /** Version 1 had no partition guardrails; it is still read. */
  private static final int VERSION_1 = 1;

  private SchemaStore() {}

  /**
   * What the file holds.
   *
   * @param keyspaces keyspace name → keyspace
   * @param types user types in creation order
   * @param tables table id → schema; a table read from a version before keyspaces names none
   * @param dropped table id → its dropped columns (tables that dropped none may be absent)
   * @param indexes table id → its secondary indexes in creation order (tables without may be
   *     absent)
   */
  public record Content(
      Map<String, KeyspaceSchema> keyspaces,
      Map<String, UserType> types,
      Map<Integer, TableSchema> tables,
      Map<Integer, List<DroppedColumn>> dropped,
      Map<Integer, List<IndexDef>> indexes) {
    /** Content without secondary indexes. */
    public Content(
        Map<String, KeyspaceSchema> keyspaces,
        Map<String, UserType> types,
        Map<Integer, TableSchema> tables,
        Map<Integer, List<DroppedColumn>> dropped) {
      this(keyspaces, types, tables, dropped, Map.of());
    }

    /** Content without dropped columns. */
    public Content(
        Map<String, KeyspaceSchema> keyspaces,
        Map<String, UserType> types,
        Map<Integer, TableSchema> tables) {
      this(keyspaces, types, tables, Map.of(), Map.of());
    }

    /** The dropped columns of table {@code id}, oldest first; empty if it dropped none. */
    public List<DroppedColumn> droppedOf(int id) {
      return dropped.getOrDefault(id, List.of());
    }

    /** The secondary indexes of table {@code id}, in creation order; empty if it has none. */
    public List<IndexDef> indexesOf(int id) {
      return indexes.getOrDefault(id, List.of());
    }
  }

  /** The stored keyspaces, user types and tables, or nothing for a new directory. */
  public static Content load(StorageFs fs, Path dir) throws IOException {
    Path file = dir.resolve(FILE);
    Map<Integer, TableSchema> out = new TreeMap<>();
    Map<String, UserType> types = new LinkedHashMap<>();
    Map<String, KeyspaceSchema> keyspaces = new TreeMap<>();
    Map<Integer, List<DroppedColumn>> dropped = new TreeMap<>();
    Map<Integer, List<IndexDef>> indexes = new TreeMap<>();
    if (!fs.exists(file)) {
      return new Content(keyspaces, types, out, dropped, indexes);
    }
    byte[] all;
    try (ReadableFile f = fs.openForRead(file)) {
      long size = f.size();
      if (size < 12 || size > (64 << 20)) {
        throw corrupt(file, 0, "implausible size " + size);
      }
      ByteBuffer b = ByteBuffer.allocate((int) size);
      f.read(b, 0);
      all = b.array();
    }
    int body = FileFormat.checkCrcTrailer(file, all, "schema file is damaged: ");
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(all, 0, body))) {
      if (in.readInt() != MAGIC) {
        throw corrupt(file, 0, "not a Talus schema file (bad magic)");
      }
      int version = in.readInt();
      if (version > VERSION) {
        throw corrupt(
            file,
            4,
            "schema format version "
                + version
                + " is newer than this build reads (1 to "
                + VERSION
                + "): it was written by a newer Talus");
      }
      if (version < VERSION_1) {
        throw corrupt(file, 4, "unsupported schema format version " + version);
      }
      if (version >= VERSION_3) {
        int k = in.readInt();
        for (int i = 0; i < k; i++) {
          KeyspaceSchema ks = readKeyspace(in);
          keyspaces.put(ks.name(), ks);
        }
        int nt = in.readInt();
        for (int i = 0; i < nt; i++) {
          UserType t = readType(in, types);
          types.put(t.name(), t);
        }
      }
      int n = in.readInt();
      for (int i = 0; i < n; i++) {
        int id = in.readInt();
        String keyspace = version >= VERSION_3 ? in.readUTF() : null;
        TableSchema t = readSchema(in, version, types);
        out.put(id, keyspace == null ? t : t.withKeyspace(keyspace));
        if (version >= VERSION_4) {
          List<DroppedColumn> d = readDropped(in, types);
          if (!d.isEmpty()) {
            dropped.put(id, d);
          }
        }
        if (version >= VERSION_5) {
          List<IndexDef> ix = readIndexes(in, version);
          if (!ix.isEmpty()) {
            indexes.put(id, ix);
          }
        }
      }
    } catch (IllegalArgumentException
        | dev.talus.InvalidSchemaException
        | dev.talus.InvalidQueryException e) {
      throw corrupt(file, 0, "undecodable type or index: " + e.getMessage());
    }
    return new Content(keyspaces, types, out, dropped, indexes);
  }

  private static List<IndexDef> readIndexes(DataInputStream in, int version) throws IOException {
    int n = in.readInt();
    List<IndexDef> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String name = in.readUTF();
      String column = in.readUTF();
      IndexDef.Kind kind = IndexDef.Kind.valueOf(in.readUTF());
      IndexDef.Target target = IndexDef.Target.SIMPLE;
      TreeMap<String, String> options = new TreeMap<>();
      if (version >= VERSION_6) {
        target = IndexDef.Target.valueOf(in.readUTF());
        int k = in.readInt();
        if (k < 0) {
          throw new IllegalArgumentException("negative index option count " + k);
        }
        for (int j = 0; j < k; j++) {
          options.put(in.readUTF(), in.readUTF());
        }
      }
      out.add(new IndexDef(name, column, kind, target, options));
    }
    return out;
  }

  private static void writeIndexes(DataOutputStream out, List<IndexDef> indexes)
      throws IOException {
    out.writeInt(indexes.size());
    for (IndexDef d : indexes) {
      out.writeUTF(d.name());
      out.writeUTF(d.column());
      out.writeUTF(d.kind().name());
      out.writeUTF(d.target().name());
      out.writeInt(d.options().size());
      for (Map.Entry<String, String> e : d.options().entrySet()) {
        out.writeUTF(e.getKey());
        out.writeUTF(e.getValue());
      }
    }
  }

  private static List<DroppedColumn> readDropped(DataInputStream in, Map<String, UserType> types)
      throws IOException {
    int n = in.readInt();
    List<DroppedColumn> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      String name = in.readUTF();
      DataType type = TypeParser.parse(in.readUTF(), types);
      ColumnDef.Kind kind = ColumnDef.Kind.valueOf(in.readUTF());
      out.add(new DroppedColumn(name, type, kind, in.readInt(), in.readLong()));
    }
    return out;
  }

  private static void writeDropped(DataOutputStream out, List<DroppedColumn> dropped)
      throws IOException {
    out.writeInt(dropped.size());
    for (DroppedColumn d : dropped) {
      out.writeUTF(d.name());
      out.writeUTF(d.type().cqlName());
      out.writeUTF(d.kind().name());
      out.writeInt(d.id());
      out.writeLong(d.droppedAtMicros());
    }
  }

  private static UserType readType(DataInputStream in, Map<String, UserType> known)
      throws IOException {
    UserType.Builder b = UserType.builder(in.readUTF());
    int n = in.readInt();
    for (int i = 0; i < n; i++) {
      String field = in.readUTF();
      b.field(field, TypeParser.parse(in.readUTF(), known));
    }
    return b.build();
  }

  /** Writes every keyspace, user type and table; each table's schema names its keyspace. */
  public static void save(StorageFs fs, Path dir, Content content) throws IOException {
    Map<Integer, TableSchema> tables = content.tables();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeInt(VERSION);
      out.writeInt(content.keyspaces().size());
      for (KeyspaceSchema ks : content.keyspaces().values()) {
        writeKeyspace(out, ks);
      }
      out.writeInt(content.types().size());
      for (UserType t : content.types().values()) {
        out.writeUTF(t.name());
        out.writeInt(t.fieldNames().size());
        for (int i = 0; i < t.fieldNames().size(); i++) {
          out.writeUTF(t.fieldNames().get(i));
          out.writeUTF(t.fieldTypes().get(i).cqlName());
        }
      }
      out.writeInt(tables.size());
      for (Map.Entry<Integer, TableSchema> e : tables.entrySet()) {
        out.writeInt(e.getKey());
        out.writeUTF(e.getValue().keyspace().orElseThrow());
        writeSchema(out, e.getValue());
        writeDropped(out, content.droppedOf(e.getKey()));
        writeIndexes(out, content.indexesOf(e.getKey()));
      }
    }
    ByteBuffer all = FileFormat.withCrcTrailer(bytes.toByteArray());
    Path tmp = dir.resolve(FILE + ".tmp");
    fs.delete(tmp);
    try (WritableFile f = fs.create(tmp)) {
      f.write(all);
      f.sync();
    }
    fs.rename(tmp, dir.resolve(FILE));
    fs.syncDirectory(dir);
  }

  private static CorruptFileException corrupt(Path file, long offset, String what) {
    return new CorruptFileException(file, offset, "schema file is damaged: " + what);
  }

  private static void writeKeyspace(DataOutputStream out, KeyspaceSchema ks) throws IOException {
    out.writeUTF(ks.name());
    out.writeBoolean(ks.durableWrites());
    out.writeInt(ks.replication().size());
    for (Map.Entry<String, String> e : ks.replication().entrySet()) {
      out.writeUTF(e.getKey());
      out.writeUTF(e.getValue());
    }
  }

  private static KeyspaceSchema readKeyspace(DataInputStream in) throws IOException {
    String name = in.readUTF();
    boolean durable = in.readBoolean();
    int n = in.readInt();
    Map<String, String> replication = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      replication.put(in.readUTF(), in.readUTF());
    }
    return KeyspaceSchema.builder(name).replication(replication).durableWrites(durable).build();
  }

  private static void writeSchema(DataOutputStream out, TableSchema s) throws IOException {
    out.writeUTF(s.name());
    List<ColumnDef> cols = s.columns();
    out.writeInt(cols.size());
    for (ColumnDef c : cols) {
      out.writeUTF(c.name());
      out.writeUTF(c.type().cqlName());
      out.writeUTF(c.kind().name());
      out.writeUTF(c.order().name());
    }
    out.writeLong(s.defaultTimeToLive().getSeconds());
    out.writeLong(s.gcGrace().getSeconds());
    CompactionOptions c = s.compaction();
    out.writeUTF(c.strategy().name());
    out.writeInt(c.minThreshold());
    out.writeInt(c.maxThreshold());
    out.writeDouble(c.bucketLow());
    out.writeDouble(c.bucketHigh());
    out.writeLong(c.minSSTableSizeBytes());
    out.writeLong(c.sstableSizeBytes());
    out.writeInt(c.fanout());
    out.writeUTF(c.windowUnit().name());
    out.writeInt(c.windowSize());
    out.writeDouble(c.tombstoneThreshold());
    out.writeLong(c.tombstoneCompactionInterval().getSeconds());
    out.writeBoolean(c.uncheckedTombstoneCompaction());
    out.writeUTF(s.compression().name());
    out.writeDouble(s.bloomFilterFpChance());
    out.writeInt(s.tombstoneWarnThreshold());
    out.writeInt(s.tombstoneFailureThreshold());
    writeOptionalLong(out, s.partitionSizeWarnBytes());
    writeOptionalLong(out, s.partitionSizeFailBytes());
    writeOptionalLong(out, s.partitionRowsWarn());
    writeOptionalLong(out, s.partitionRowsFail());
    out.writeInt(s.chunkLengthKb());
  }

  /** -1 stands for null ("use the engine default"); thresholds are never negative. */
  private static void writeOptionalLong(DataOutputStream out, Long v) throws IOException {
    out.writeLong(v == null ? -1 : v);
  }

  private static Long readOptionalLong(DataInputStream in) throws IOException {
    long v = in.readLong();
    return v < 0 ? null : v;
  }

  private static TableSchema readSchema(
      DataInputStream in, int version, Map<String, UserType> types) throws IOException {
    TableSchema.Builder b = TableSchema.builder(in.readUTF());
    int n = in.readInt();
    List<ColumnDef> cols = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String name = in.readUTF();
      String type = in.readUTF();
      cols.add(
          new ColumnDef(
              name,
              version >= VERSION_3 ? TypeParser.parse(type, types) : DataType.valueOf(type),
              ColumnDef.Kind.valueOf(in.readUTF()),
              ClusteringOrder.valueOf(in.readUTF())));
    }
    for (ColumnDef c : cols) {
      switch (c.kind()) {
        case PARTITION_KEY -> b.partitionKey(c.name(), c.type());
        case CLUSTERING -> b.clusteringColumn(c.name(), c.type(), c.order());
        case REGULAR -> b.column(c.name(), c.type());
        case STATIC -> b.staticColumn(c.name(), c.type());
      }
    }
    b.defaultTimeToLive(Duration.ofSeconds(in.readLong()));
    b.gcGrace(Duration.ofSeconds(in.readLong()));
    CompactionOptions.Strategy strategy = CompactionOptions.Strategy.valueOf(in.readUTF());
    int minT = in.readInt();
    int maxT = in.readInt();
    double low = in.readDouble();
    double high = in.readDouble();
    long minSize = in.readLong();
    long sstableSize = in.readLong();
    int fanout = in.readInt();
    ChronoUnit unit = ChronoUnit.valueOf(in.readUTF());
    int windowSize = in.readInt();
    double tombThreshold = in.readDouble();
    long tombInterval = in.readLong();
    boolean unchecked = in.readBoolean();
    CompactionOptions.Builder cb =
        switch (strategy) {
          case SIZE_TIERED ->
              CompactionOptions.sizeTiered()
                  .minThreshold(minT)
                  .maxThreshold(maxT)
                  .bucketLow(low)
                  .bucketHigh(high)
                  .minSSTableSizeBytes(minSize);
          case LEVELED -> CompactionOptions.leveled().sstableSizeBytes(sstableSize).fanout(fanout);
          case TIME_WINDOW ->
              CompactionOptions.timeWindow()
                  .windowUnit(unit)
                  .windowSize(windowSize)
                  .minThreshold(minT)
                  .maxThreshold(maxT);
        };
    b.compaction(
        cb.tombstoneThreshold(tombThreshold)
            .tombstoneCompactionInterval(Duration.ofSeconds(tombInterval))
            .uncheckedTombstoneCompaction(unchecked)
            .build());
    b.compression(Compression.valueOf(in.readUTF()));
    b.bloomFilterFpChance(in.readDouble());
    int warn = in.readInt();
    int fail = in.readInt();
    b.tombstoneThresholds(warn, fail);
    if (version >= VERSION_2) {
      b.partitionSizeThresholds(readOptionalLong(in), readOptionalLong(in));
      b.partitionRowsThresholds(readOptionalLong(in), readOptionalLong(in));
    }
    if (version > VERSION_6) {
      b.chunkLengthKb(in.readInt());
    }
    return b.build();
  }
}
