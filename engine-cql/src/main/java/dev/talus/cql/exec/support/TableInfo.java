package dev.talus.cql.exec.support;

import dev.talus.ColumnDef;
import dev.talus.TableSchema;
import dev.talus.cql.ColumnType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The columns of a table as CQL shows them — a Talus table, or one of the system tables Talus
 * answers itself — in the order of {@code SELECT *}: the partition key, the clustering columns,
 * then the static columns and then the regular ones, each by name, as Cassandra orders them.
 * Immutable and thread-safe.
 *
 * @param keyspace the keyspace
 * @param table the table
 * @param columns the columns, in {@code SELECT *} order
 */
public record TableInfo(String keyspace, String table, List<Column> columns) {
  /** The role of a column. */
  public enum Kind {
    PARTITION_KEY,
    CLUSTERING,
    /** A static column: one value per partition. */
    STATIC,
    REGULAR
  }

  /**
   * One column.
   *
   * @param name its name
   * @param type its type
   * @param kind its role
   * @param position its index within the partition key or clustering, else -1
   */
  public record Column(String name, ColumnType type, Kind kind, int position) {
    /** True for a partition key or clustering column. */
    public boolean isKey() {
      return kind == Kind.PARTITION_KEY || kind == Kind.CLUSTERING;
    }
  }

  public TableInfo {
    columns = List.copyOf(columns);
  }

  /** A Talus table's columns. */
  public static TableInfo of(TableSchema s) {
    List<Column> out = new ArrayList<>();
    for (int i = 0; i < s.partitionKey().size(); i++) {
      ColumnDef c = s.partitionKey().get(i);
      out.add(new Column(c.name(), ColumnType.of(c.type()), Kind.PARTITION_KEY, i));
    }
    for (int i = 0; i < s.clustering().size(); i++) {
      ColumnDef c = s.clustering().get(i);
      out.add(new Column(c.name(), ColumnType.of(c.type()), Kind.CLUSTERING, i));
    }
    List<ColumnDef> statics = new ArrayList<>(s.staticColumns());
    statics.sort(Comparator.comparing(ColumnDef::name));
    for (ColumnDef c : statics) {
      out.add(new Column(c.name(), ColumnType.of(c.type()), Kind.STATIC, -1));
    }
    List<ColumnDef> regular = new ArrayList<>(s.regularColumns());
    regular.sort(Comparator.comparing(ColumnDef::name));
    for (ColumnDef c : regular) {
      out.add(new Column(c.name(), ColumnType.of(c.type()), Kind.REGULAR, -1));
    }
    return new TableInfo(s.keyspace().orElseThrow(), s.name(), out);
  }

  /** The column named {@code name}, or null. */
  public Column column(String name) {
    for (Column c : columns) {
      if (c.name().equals(name)) {
        return c;
      }
    }
    return null;
  }

  /** The columns of one kind, in order. */
  public List<Column> columns(Kind kind) {
    return columns.stream().filter(c -> c.kind() == kind).toList();
  }

  /** Name → column. */
  public Map<String, Column> byName() {
    Map<String, Column> m = new HashMap<>();
    columns.forEach(c -> m.put(c.name(), c));
    return m;
  }

  /** {@code keyspace.table} as Cassandra names it in messages. */
  public String qualifiedName() {
    return keyspace + "." + table;
  }

  /** A receiver for column {@code c} of this table. */
  public Receiver receiver(Column c) {
    return new Receiver(keyspace, table, c.name(), c.type());
  }
}
