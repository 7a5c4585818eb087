package dev.talus.cql.exec.dml;

import dev.talus.GroupedRow;
import dev.talus.ResultRow;
import dev.talus.Select;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlRow;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.exec.support.TableInfo;
import dev.talus.cql.exec.term.Operand;
import dev.talus.cql.exec.term.Selectors;
import dev.talus.cql.parse.ast.Selector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * A {@code GROUP BY} that ends in a function of a clustering column, as Cassandra 5.0 allows it
 * ({@code GROUP BY sensor, floor(ts, 1h)}; its {@code SelectStatement} and {@code
 * AggregationSpecification}): the rows, in primary key order, form one group while the primary key
 * columns before that column and the function's value stay the same. The engine groups by the
 * column itself; consecutive engine groups with the same key merge here. {@code LIMIT} and {@code
 * PER PARTITION LIMIT} count these groups; the result is one page. Immutable and thread-safe.
 */
final class FunctionGroups {
  private final Operand function;
  private final String column;
  private final String[] keyColumns;
  private final int partitionColumns;

  private FunctionGroups(
      Operand function, String column, List<String> keyColumns, int partitionColumns) {
    this.function = function;
    this.column = column;
    this.keyColumns = keyColumns.toArray(new String[0]);
    this.partitionColumns = partitionColumns;
  }

  /** Prepares the function {@code f}, the last element of a {@code GROUP BY}. */
  static FunctionGroups prepare(
      Selector.FunctionCall f, TableInfo info, Function<Object[], Long> token, PrepareContext pc) {
    Source src = pc.source();
    String name = f.name().name().name().toLowerCase(Locale.ROOT);
    if (dev.talus.cql.exec.term.Aggregates.isAggregate(name)) {
      throw src.invalid(
          f.position(),
          "Aggregate functions are not supported within the GROUP BY clause, got: system." + name);
    }
    Set<String> read = new LinkedHashSet<>();
    List<dev.talus.cql.exec.term.Aggregates.Call> none = new ArrayList<>();
    Selectors.Selected sel = Selectors.prepare(f, new Selectors.Scope(info, read, token, pc, none));
    if (read.isEmpty()) {
      throw src.invalid(
          f.position(), "GROUP BY functions must have one clustering column name as parameter");
    }
    if (read.size() > 1) {
      throw src.invalid(
          f.position(),
          "GROUP BY functions accept only one clustering column as parameter, got: "
              + String.join(",", read));
    }
    TableInfo.Column def = info.column(read.iterator().next());
    if (def.kind() != TableInfo.Kind.CLUSTERING) {
      throw src.invalid(
          f.position(),
          "Group by functions are only supported on clustering columns, got " + def.name());
    }
    List<String> key = new ArrayList<>();
    int partition = 0;
    for (TableInfo.Column c : info.columns()) {
      if (c.name().equals(def.name())) {
        break;
      }
      if (c.kind() == TableInfo.Kind.PARTITION_KEY) {
        partition++;
        key.add(c.name());
      } else if (c.kind() == TableInfo.Kind.CLUSTERING) {
        key.add(c.name());
      }
    }
    return new FunctionGroups(sel.operand(), def.name(), key, partition);
  }

  /** The clustering column the function reads: the engine groups by it. */
  String column() {
    return column;
  }

  /** The columns a row must carry to compute its group. */
  List<String> columns() {
    List<String> all = new ArrayList<>(Arrays.asList(keyColumns));
    all.add(column);
    return all;
  }

  /** Reads every group of {@code s} (already grouped by {@link #column}), one result row each. */
  CqlResult run(Select s, Selection selection, Limits limits, ExecContext ctx) {
    Grouper g = new Grouper(selection, limits.limit(ctx), limits.perPartitionLimit(ctx), ctx);
    s.forEachGroupedRow(g);
    g.finish();
    return CqlResult.rows(selection.columns(), g.rows, null, ctx.warnings());
  }

  /** Merges the engine's groups into the function's groups. Not thread-safe. */
  private final class Grouper implements GroupedRow {
    private final Selection selection;
    private final int limit;
    private final int perPartition;
    private final ExecContext ctx;
    private final List<CqlRow> rows = new ArrayList<>();
    private Object[] key;
    private int inPartition;
    private Selection.Group group;
    private boolean taking;

    Grouper(Selection selection, int limit, int perPartition, ExecContext ctx) {
      this.selection = selection;
      this.limit = limit;
      this.perPartition = perPartition;
      this.ctx = ctx;
    }

    @Override
    public void accept(ResultRow row, boolean firstOfGroup) {
      if (firstOfGroup) {
        Object[] next = new Object[keyColumns.length + 1];
        for (int i = 0; i < keyColumns.length; i++) {
          next[i] = row.get(keyColumns[i]);
        }
        next[keyColumns.length] = function.eval(ctx, row);
        if (key == null || !Arrays.deepEquals(key, next)) {
          boolean samePartition =
              key != null
                  && Arrays.deepEquals(
                      Arrays.copyOf(key, partitionColumns), Arrays.copyOf(next, partitionColumns));
          inPartition = samePartition ? inPartition : 0;
          finish();
          key = next;
          taking = rows.size() < limit && inPartition < perPartition;
          if (taking) {
            inPartition++;
            if (selection.aggregating()) {
              group = selection.group();
            } else {
              rows.add(selection.row(row, ctx));
            }
          }
        }
      }
      if (taking && group != null) {
        group.add(row, ctx);
      }
    }

    void finish() {
      if (group != null) {
        rows.add(group.row(ctx));
        group = null;
      }
    }
  }
}
