package dev.talus.cql.exec.meta;

import dev.talus.ResultRow;
import dev.talus.cql.ColumnType;
import dev.talus.cql.exec.support.SessionState;
import dev.talus.cql.exec.support.TableInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A table Talus answers from its own state instead of storing it — {@code system_schema.*}, {@code
 * system.local}, {@code system.peers_v2}, {@code system_virtual_schema.*} — with Cassandra 5.0's
 * columns and types, so that drivers and tools read them as they read Cassandra's. Immutable and
 * thread-safe; the rows are computed at each read.
 */
public final class VirtualTable {
  private final TableInfo info;
  private final Function<SessionState, List<Object[]>> rows;

  private VirtualTable(TableInfo info, Function<SessionState, List<Object[]>> rows) {
    this.info = info;
    this.rows = rows;
  }

  public TableInfo info() {
    return info;
  }

  /** The rows now, each as a {@link ResultRow} over the columns of {@link #info()}. */
  public List<ResultRow> rows(SessionState session) {
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < info.columns().size(); i++) {
      index.put(info.columns().get(i).name(), i);
    }
    List<String> names = info.columns().stream().map(TableInfo.Column::name).toList();
    List<ResultRow> out = new ArrayList<>();
    for (Object[] values : rows.apply(session)) {
      out.add(new Row(names, index, values));
    }
    return out;
  }

  /** Collects a table's columns in Cassandra's order of {@code SELECT *}. */
  static final class Builder {
    private final String keyspace;
    private final String name;
    private final List<TableInfo.Column> pk = new ArrayList<>();
    private final List<TableInfo.Column> ck = new ArrayList<>();
    private final List<TableInfo.Column> regular = new ArrayList<>();

    Builder(String keyspace, String name) {
      this.keyspace = keyspace;
      this.name = name;
    }

    Builder pk(String column, ColumnType type) {
      pk.add(new TableInfo.Column(column, type, TableInfo.Kind.PARTITION_KEY, pk.size()));
      return this;
    }

    Builder ck(String column, ColumnType type) {
      ck.add(new TableInfo.Column(column, type, TableInfo.Kind.CLUSTERING, ck.size()));
      return this;
    }

    Builder col(String column, ColumnType type) {
      regular.add(new TableInfo.Column(column, type, TableInfo.Kind.REGULAR, -1));
      return this;
    }

    /**
     * The table, whose rows {@code rows} computes: each an array of values in the order the columns
     * were declared (partition key, clustering, then the others as declared).
     */
    VirtualTable rows(Function<SessionState, List<Object[]>> rows) {
      List<TableInfo.Column> declared = new ArrayList<>(pk);
      declared.addAll(ck);
      declared.addAll(regular);
      List<TableInfo.Column> sorted = new ArrayList<>(regular);
      sorted.sort(Comparator.comparing(TableInfo.Column::name));
      List<TableInfo.Column> all = new ArrayList<>(pk);
      all.addAll(ck);
      all.addAll(sorted);
      int[] order = new int[all.size()];
      for (int i = 0; i < all.size(); i++) {
        order[i] = declared.indexOf(all.get(i));
      }
      Function<SessionState, List<Object[]>> reordered =
          s -> {
            List<Object[]> out = new ArrayList<>();
            for (Object[] r : rows.apply(s)) {
              Object[] x = new Object[r.length];
              for (int i = 0; i < order.length; i++) {
                x[i] = r[order[i]];
              }
              out.add(x);
            }
            return out;
          };
      return new VirtualTable(new TableInfo(keyspace, name, all), reordered);
    }
  }

  /** One row: values by column name; no write times or TTLs. */
  private record Row(List<String> columns, Map<String, Integer> index, Object[] values)
      implements ResultRow {
    @Override
    public Object get(String column) {
      Integer i = index.get(column);
      return i == null ? null : values[i];
    }

    @Override
    public <T> T get(String column, Class<T> type) {
      return type.cast(get(column));
    }

    @Override
    public Long writeTime(String column) {
      return null;
    }

    @Override
    public Integer ttl(String column) {
      return null;
    }
  }
}
