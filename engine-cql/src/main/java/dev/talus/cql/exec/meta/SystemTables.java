package dev.talus.cql.exec.meta;

import static dev.talus.DataType.BLOB;
import static dev.talus.DataType.BOOLEAN;
import static dev.talus.DataType.DOUBLE;
import static dev.talus.DataType.INET;
import static dev.talus.DataType.INT;
import static dev.talus.DataType.TEXT;
import static dev.talus.DataType.TIMESTAMP;
import static dev.talus.DataType.UUID;

import dev.talus.ClusteringOrder;
import dev.talus.ColumnDef;
import dev.talus.DataType;
import dev.talus.KeyspaceSchema;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.cql.ColumnType;
import dev.talus.cql.exec.support.SessionState;
import dev.talus.cql.exec.support.TableInfo;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The system tables Talus answers, shaped as Cassandra 5.0's ({@code SchemaKeyspace}, {@code
 * SystemKeyspace}): {@code system_schema.keyspaces}, {@code tables}, {@code columns} — the user's
 * keyspaces and tables, and {@code system} and {@code system_schema} themselves — with {@code
 * types} (every user type, listed in every keyspace: Talus's types are database-wide), with {@code
 * indexes} (every storage-attached index, as Cassandra 5.0 lists it), with {@code dropped_columns},
 * {@code triggers}, {@code views}, {@code functions}, {@code aggregates} and {@code column_masks}
 * empty (Talus has none of those yet); {@code system.local} (one node, {@code datacenter1}, {@code
 * rack1}), {@code system.peers} and {@code system.peers_v2} (no peers); and {@code
 * system_virtual_schema}'s three tables. Static, thread-safe.
 */
public final class SystemTables {
  /** The release Talus reports in {@code system.local}: the Cassandra dialect it speaks. */
  public static final String RELEASE_VERSION = "5.0.0";

  public static final String CQL_VERSION = "3.4.7";
  public static final String CLUSTER_NAME = "Talus";
  public static final String PARTITIONER = "org.apache.cassandra.dht.Murmur3Partitioner";
  static final String LOCAL_STRATEGY = "org.apache.cassandra.locator.LocalStrategy";

  /** Keyspaces whose tables Talus answers itself; their names are reserved in Talus too. */
  public static final Set<String> KEYSPACES =
      Set.of("system", "system_schema", "system_virtual_schema");

  private static final ColumnType T = ColumnType.of(TEXT);
  private static final ColumnType MAP_TEXT = new ColumnType.MapOf(T, T);
  private static final ColumnType LIST_TEXT = new ColumnType.ListOf(T);
  private static final ColumnType SET_TEXT = new ColumnType.SetOf(T);

  private static final List<VirtualTable> ALL = new ArrayList<>();

  static {
    ALL.add(
        table("system_schema", "keyspaces")
            .pk("keyspace_name", T)
            .col("durable_writes", type(BOOLEAN))
            .col("replication", MAP_TEXT)
            .rows(SystemTables::keyspaces));
    VirtualTable.Builder tables =
        table("system_schema", "tables").pk("keyspace_name", T).ck("table_name", T);
    tableOptionColumns(tables).col("flags", SET_TEXT).col("id", type(UUID));
    ALL.add(tables.rows(SystemTables::tables));
    ALL.add(
        table("system_schema", "columns")
            .pk("keyspace_name", T)
            .ck("table_name", T)
            .ck("column_name", T)
            .col("clustering_order", T)
            .col("column_name_bytes", type(BLOB))
            .col("kind", T)
            .col("position", type(INT))
            .col("type", T)
            .rows(SystemTables::columns));
    ALL.add(
        table("system_schema", "column_masks")
            .pk("keyspace_name", T)
            .ck("table_name", T)
            .ck("column_name", T)
            .col("function_keyspace", T)
            .col("function_name", T)
            .col("function_argument_types", LIST_TEXT)
            .col("function_argument_values", LIST_TEXT)
            .col("function_argument_nulls", new ColumnType.ListOf(type(BOOLEAN)))
            .rows(s -> List.of()));
    ALL.add(
        table("system_schema", "dropped_columns")
            .pk("keyspace_name", T)
            .ck("table_name", T)
            .ck("column_name", T)
            .col("dropped_time", type(TIMESTAMP))
            .col("kind", T)
            .col("type", T)
            .rows(s -> List.of()));
    ALL.add(
        table("system_schema", "triggers")
            .pk("keyspace_name", T)
            .ck("table_name", T)
            .ck("trigger_name", T)
            .col("options", MAP_TEXT)
            .rows(IndexRows::rows));
    VirtualTable.Builder views =
        table("system_schema", "views")
            .pk("keyspace_name", T)
            .ck("view_name", T)
            .col("base_table_id", type(UUID))
            .col("base_table_name", T)
            .col("where_clause", T);
    tableOptionColumns(views).col("id", type(UUID)).col("include_all_columns", type(BOOLEAN));
    ALL.add(views.rows(s -> List.of()));
    ALL.add(
        table("system_schema", "types")
            .pk("keyspace_name", T)
            .ck("type_name", T)
            .col("field_names", LIST_TEXT)
            .col("field_types", LIST_TEXT)
            .rows(TypeRows::rows));
    ALL.add(
        table("system_schema", "functions")
            .pk("keyspace_name", T)
            .ck("function_name", T)
            .ck("argument_types", LIST_TEXT)
            .col("argument_names", LIST_TEXT)
            .col("body", T)
            .col("language", T)
            .col("return_type", T)
            .col("called_on_null_input", type(BOOLEAN))
            .rows(s -> List.of()));
    ALL.add(
        table("system_schema", "aggregates")
            .pk("keyspace_name", T)
            .ck("aggregate_name", T)
            .ck("argument_types", LIST_TEXT)
            .col("final_func", T)
            .col("initcond", T)
            .col("return_type", T)
            .col("state_func", T)
            .col("state_type", T)
            .rows(s -> List.of()));
    ALL.add(
        table("system_schema", "indexes")
            .pk("keyspace_name", T)
            .ck("table_name", T)
            .ck("index_name", T)
            .col("kind", T)
            .col("options", MAP_TEXT)
            .rows(IndexRows::rows));
    ALL.add(
        table("system", "local")
            .pk("key", T)
            .col("bootstrapped", T)
            .col("broadcast_address", type(INET))
            .col("broadcast_port", type(INT))
            .col("cluster_name", T)
            .col("cql_version", T)
            .col("data_center", T)
            .col("gossip_generation", type(INT))
            .col("host_id", type(UUID))
            .col("listen_address", type(INET))
            .col("listen_port", type(INT))
            .col("native_protocol_version", T)
            .col("partitioner", T)
            .col("rack", T)
            .col("release_version", T)
            .col("rpc_address", type(INET))
            .col("rpc_port", type(INT))
            .col("schema_version", type(UUID))
            .col("tokens", SET_TEXT)
            .col("truncated_at", new ColumnType.MapOf(type(UUID), type(BLOB)))
            .rows(SystemTables::local));
    ALL.add(
        table("system", "peers")
            .pk("peer", type(INET))
            .col("data_center", T)
            .col("host_id", type(UUID))
            .col("preferred_ip", type(INET))
            .col("rack", T)
            .col("release_version", T)
            .col("rpc_address", type(INET))
            .col("schema_version", type(UUID))
            .col("tokens", SET_TEXT)
            .rows(s -> List.of()));
    ALL.add(
        table("system", "peers_v2")
            .pk("peer", type(INET))
            .ck("peer_port", type(INT))
            .col("data_center", T)
            .col("host_id", type(UUID))
            .col("preferred_ip", type(INET))
            .col("preferred_port", type(INT))
            .col("rack", T)
            .col("release_version", T)
            .col("native_address", type(INET))
            .col("native_port", type(INT))
            .col("schema_version", type(UUID))
            .col("tokens", SET_TEXT)
            .rows(s -> List.of()));
    ALL.add(
        table("system_virtual_schema", "keyspaces")
            .pk("keyspace_name", T)
            .rows(s -> List.<Object[]>of(new Object[] {"system_virtual_schema"})));
    ALL.add(
        table("system_virtual_schema", "tables")
            .pk("keyspace_name", T)
            .ck("table_name", T)
            .col("comment", T)
            .rows(SystemTables::virtualTables));
    ALL.add(
        table("system_virtual_schema", "columns")
            .pk("keyspace_name", T)
            .ck("table_name", T)
            .ck("column_name", T)
            .col("clustering_order", T)
            .col("column_name_bytes", type(BLOB))
            .col("kind", T)
            .col("position", type(INT))
            .col("type", T)
            .rows(SystemTables::virtualColumns));
  }

  private SystemTables() {}

  private static VirtualTable.Builder table(String keyspace, String name) {
    return new VirtualTable.Builder(keyspace, name);
  }

  private static ColumnType type(DataType t) {
    return ColumnType.of(t);
  }

  /**
   * The option columns {@code tables} and {@code views} share, in Cassandra's declaration order.
   */
  private static VirtualTable.Builder tableOptionColumns(VirtualTable.Builder b) {
    return b.col("allow_auto_snapshot", type(BOOLEAN))
        .col("bloom_filter_fp_chance", type(DOUBLE))
        .col("caching", MAP_TEXT)
        .col("comment", T)
        .col("compaction", MAP_TEXT)
        .col("compression", MAP_TEXT)
        .col("memtable", T)
        .col("crc_check_chance", type(DOUBLE))
        .col("dclocal_read_repair_chance", type(DOUBLE))
        .col("default_time_to_live", type(INT))
        .col("extensions", new ColumnType.MapOf(T, type(BLOB)))
        .col("gc_grace_seconds", type(INT))
        .col("incremental_backups", type(BOOLEAN))
        .col("max_index_interval", type(INT))
        .col("memtable_flush_period_in_ms", type(INT))
        .col("min_index_interval", type(INT))
        .col("read_repair_chance", type(DOUBLE))
        .col("speculative_retry", T)
        .col("additional_write_policy", T)
        .col("cdc", type(BOOLEAN))
        .col("read_repair", T);
  }

  /** The system table {@code keyspace.name}, or null. */
  public static VirtualTable find(String keyspace, String name) {
    for (VirtualTable t : ALL) {
      if (t.info().keyspace().equals(keyspace) && t.info().table().equals(name)) {
        return t;
      }
    }
    return null;
  }

  /** Every system table. */
  public static List<VirtualTable> all() {
    return List.copyOf(ALL);
  }

  /** A stable id for a table (Talus's are numbers; Cassandra's are UUIDs). */
  public static java.util.UUID tableId(String keyspace, String table) {
    return java.util.UUID.nameUUIDFromBytes(
        ("talus-table:" + keyspace + "." + table).getBytes(StandardCharsets.UTF_8));
  }

  private static List<Object[]> keyspaces(SessionState s) {
    List<Object[]> out = new ArrayList<>();
    for (String system : List.of("system", "system_schema")) {
      out.add(new Object[] {system, true, Map.of("class", LOCAL_STRATEGY)});
    }
    for (KeyspaceSchema k : s.db().keyspaces()) {
      out.add(new Object[] {k.name(), k.durableWrites(), k.replication()});
    }
    out.sort((a, b) -> ((String) a[0]).compareTo((String) b[0]));
    return out;
  }

  private static List<Object[]> tables(SessionState s) {
    List<Object[]> out = new ArrayList<>();
    for (VirtualTable v : ALL) {
      if (!v.info().keyspace().equals("system_virtual_schema")) {
        out.add(tableRow(v.info().keyspace(), v.info().table(), null));
      }
    }
    for (Table t : s.db().tables()) {
      out.add(tableRow(t.keyspace(), t.name(), t.schema()));
    }
    out.sort(SystemTables::byKeys);
    return out;
  }

  private static Object[] tableRow(String keyspace, String name, TableSchema s) {
    TableSchema schema =
        s != null ? s : TableSchema.builder("x").partitionKey("k", DataType.INT).build();
    Map<String, byte[]> extensions = new LinkedHashMap<>();
    CqlOptions.extensions(schema)
        .forEach((k, v) -> extensions.put(k, v.getBytes(StandardCharsets.UTF_8)));
    return new Object[] {
      keyspace,
      name,
      true,
      schema.bloomFilterFpChance(),
      Map.of("keys", "ALL", "rows_per_partition", "NONE"),
      "",
      CqlOptions.compaction(schema.compaction()),
      CqlOptions.compression(schema.compression(), schema.chunkLengthKb()),
      "default",
      1.0,
      0.0,
      (int) schema.defaultTimeToLive().getSeconds(),
      extensions,
      (int) Math.min(Integer.MAX_VALUE, schema.gcGrace().getSeconds()),
      true,
      2048,
      0,
      128,
      0.0,
      "99p",
      "99p",
      false,
      "BLOCKING",
      Set.of("compound"),
      tableId(keyspace, name)
    };
  }

  private static List<Object[]> columns(SessionState s) {
    List<Object[]> out = new ArrayList<>();
    for (VirtualTable v : ALL) {
      if (!v.info().keyspace().equals("system_virtual_schema")) {
        columnRows(v.info(), out);
      }
    }
    for (Table t : s.db().tables()) {
      TableSchema schema = t.schema();
      TableInfo info = TableInfo.of(schema);
      for (TableInfo.Column c : info.columns()) {
        String order = "none";
        if (c.kind() == TableInfo.Kind.CLUSTERING) {
          ColumnDef def = schema.clustering().get(c.position());
          order = def.order() == ClusteringOrder.DESC ? "desc" : "asc";
        }
        out.add(columnRow(info, c, order));
      }
    }
    out.sort(SystemTables::byKeys);
    return out;
  }

  private static void columnRows(TableInfo info, List<Object[]> out) {
    for (TableInfo.Column c : info.columns()) {
      out.add(columnRow(info, c, c.kind() == TableInfo.Kind.CLUSTERING ? "asc" : "none"));
    }
  }

  private static Object[] columnRow(TableInfo info, TableInfo.Column c, String order) {
    String kind =
        switch (c.kind()) {
          case PARTITION_KEY -> "partition_key";
          case CLUSTERING -> "clustering";
          case STATIC -> "static";
          case REGULAR -> "regular";
        };
    String type = c.type().cql();
    if (!(c.type() instanceof ColumnType.Native) && info.keyspace().equals("system_schema")) {
      // system_schema declares its collections frozen; system.local's are not
      type = "frozen<" + type + ">";
    }
    return new Object[] {
      info.keyspace(),
      info.table(),
      c.name(),
      order,
      c.name().getBytes(StandardCharsets.UTF_8),
      kind,
      c.position(),
      type
    };
  }

  private static List<Object[]> virtualTables(SessionState s) {
    List<Object[]> out = new ArrayList<>();
    for (VirtualTable v : ALL) {
      if (v.info().keyspace().equals("system_virtual_schema")) {
        out.add(new Object[] {v.info().keyspace(), v.info().table(), ""});
      }
    }
    out.sort(SystemTables::byKeys);
    return out;
  }

  private static List<Object[]> virtualColumns(SessionState s) {
    List<Object[]> out = new ArrayList<>();
    for (VirtualTable v : ALL) {
      if (v.info().keyspace().equals("system_virtual_schema")) {
        columnRows(v.info(), out);
      }
    }
    out.sort(SystemTables::byKeys);
    return out;
  }

  private static List<Object[]> local(SessionState s) {
    TalusDb db = s.db();
    InetAddress loopback = loopback();
    String dir = db.options().dataDirectory().toAbsolutePath().normalize().toString();
    java.util.UUID hostId =
        java.util.UUID.nameUUIDFromBytes(("talus-host:" + dir).getBytes(StandardCharsets.UTF_8));
    return List.<Object[]>of(
        new Object[] {
          "local",
          "COMPLETED",
          loopback,
          7000,
          CLUSTER_NAME,
          CQL_VERSION,
          KeyspaceSchema.LOCAL_DATACENTER,
          null,
          hostId,
          loopback,
          7000,
          "5",
          PARTITIONER,
          "rack1",
          RELEASE_VERSION,
          loopback,
          9042,
          schemaVersion(db),
          Set.of(Long.toString(Long.MIN_VALUE)),
          null
        });
  }

  private static InetAddress loopback() {
    try {
      return InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
    } catch (java.net.UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A digest of the whole schema: it changes when, and only when, the schema does. */
  public static java.util.UUID schemaVersion(TalusDb db) {
    StringBuilder sb = new StringBuilder();
    for (KeyspaceSchema k : db.keyspaces()) {
      sb.append(k).append('\n');
    }
    for (Table t : db.tables()) {
      sb.append(t.keyspace()).append(' ').append(t.schema()).append('\n');
    }
    return java.util.UUID.nameUUIDFromBytes(sb.toString().getBytes(StandardCharsets.UTF_8));
  }

  private static int byKeys(Object[] a, Object[] b) {
    for (int i = 0; i < Math.min(3, Math.min(a.length, b.length)); i++) {
      if (!(a[i] instanceof String x) || !(b[i] instanceof String y)) {
        break;
      }
      int c = x.compareTo(y);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }
}
