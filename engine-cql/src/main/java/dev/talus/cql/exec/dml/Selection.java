package dev.talus.cql.exec.dml;

import dev.talus.Aggregator;
import dev.talus.DataType;
import dev.talus.InvalidQueryException;
import dev.talus.ResultRow;
import dev.talus.cql.ColumnType;
import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlRow;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.RowShape;
import dev.talus.cql.exec.support.TableInfo;
import dev.talus.cql.exec.term.Aggregates;
import dev.talus.cql.exec.term.Json;
import dev.talus.cql.exec.term.Operand;
import dev.talus.cql.exec.term.Selectors;
import dev.talus.cql.parse.CqlPrinter;
import dev.talus.cql.parse.ast.SelectItem;
import dev.talus.cql.parse.ast.SelectStatement;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * What a {@code SELECT} returns for each row it reads: the prepared selectors, the result columns
 * (named as Cassandra names them, or by their aliases), the table columns to fetch, and for {@code
 * SELECT JSON} the one {@code [json]} column. A selection of plain columns hands out rows that read
 * the engine's row directly; anything computed is evaluated once per row. Immutable and
 * thread-safe.
 */
final class Selection {
  private final RowShape shape;
  private final Operand[] operands;
  private final String[] plainColumns;
  private final List<String> read;
  private final boolean wildcard;
  private final boolean json;
  private final RowShape jsonShape;
  private final Aggregates.Call[] aggregates;
  private final BitSet aggregated;

  private Selection(
      List<CqlColumn> columns,
      Operand[] operands,
      List<String> read,
      boolean wildcard,
      boolean json,
      TableInfo table,
      List<Aggregates.Call> aggregates,
      BitSet aggregated) {
    this.shape = new RowShape(columns);
    this.operands = operands;
    this.aggregates = aggregates.toArray(new Aggregates.Call[0]);
    this.aggregated = aggregated;
    this.read = List.copyOf(read);
    this.wildcard = wildcard;
    this.json = json;
    String[] plain = new String[operands.length];
    for (int i = 0; i < operands.length; i++) {
      if (!(operands[i] instanceof Selectors.Read r)) {
        plain = null;
        break;
      }
      plain[i] = r.column();
    }
    this.plainColumns = plain;
    this.jsonShape =
        new RowShape(
            List.of(
                new CqlColumn(
                    table.keyspace(), table.table(), "[json]", ColumnType.of(DataType.TEXT))));
  }

  /** Prepares the selectors of {@code s} against {@code table}. */
  static Selection prepare(
      SelectStatement s, TableInfo table, Function<Object[], Long> token, PrepareContext pc) {
    List<CqlColumn> columns = new ArrayList<>();
    List<Operand> ops = new ArrayList<>();
    Set<String> read = new LinkedHashSet<>();
    List<Aggregates.Call> aggregates = new ArrayList<>();
    BitSet aggregated = new BitSet();
    if (s.isWildcard()) {
      for (TableInfo.Column c : table.columns()) {
        columns.add(new CqlColumn(table.keyspace(), table.table(), c.name(), c.type()));
        ops.add(new Selectors.Read(c.name(), c.type()));
      }
    } else {
      Selectors.Scope scope = new Selectors.Scope(table, read, token, pc, aggregates);
      for (SelectItem item : s.selectors()) {
        int before = aggregates.size();
        Selectors.Selected sel = Selectors.prepare(item.selector(), scope);
        if (aggregates.size() != before) {
          aggregated.set(ops.size());
        }
        String name = item.alias() != null ? item.alias().name() : sel.name();
        columns.add(new CqlColumn(table.keyspace(), table.table(), name, sel.operand().type()));
        ops.add(sel.operand());
      }
    }
    return new Selection(
        columns,
        ops.toArray(new Operand[0]),
        new ArrayList<>(read),
        s.isWildcard(),
        s.json(),
        table,
        aggregates,
        aggregated);
  }

  /** True if the selection has aggregates: the rows it reads fold into one row per group. */
  boolean aggregating() {
    return aggregates.length > 0;
  }

  /**
   * A new group: every aggregate empty, every other selector waiting for the group's first row (as
   * Cassandra, a plain column in an aggregating selection shows the first row's value).
   */
  Group group() {
    return new Group();
  }

  /**
   * The rows of one group folded into one result row: every aggregate (also one inside a function
   * or cast) accumulates each row; a selector that holds aggregates is computed at the end over
   * their results, any other shows the group's first row. Not thread-safe.
   */
  final class Group {
    private final Aggregator[] accumulators = new Aggregator[aggregates.length];
    private final Object[] firstValues = new Object[operands.length];
    private ResultRow first;

    private Group() {
      for (int i = 0; i < aggregates.length; i++) {
        accumulators[i] = aggregates[i].start();
      }
    }

    /** Adds one row of the group. */
    void add(ResultRow row, ExecContext ctx) {
      for (int i = 0; i < aggregates.length; i++) {
        accumulators[i].add(aggregates[i].eval(ctx, row));
      }
      if (first == null) {
        first = row;
        for (int i = 0; i < operands.length; i++) {
          if (!aggregated.get(i)) {
            firstValues[i] = operands[i].eval(ctx, row);
          }
        }
      }
    }

    /** True if no row was added. */
    boolean isEmpty() {
      return first == null;
    }

    /** The group's result row. */
    CqlRow row(ExecContext ctx) {
      IdentityHashMap<Aggregates.Call, Object> results = new IdentityHashMap<>();
      for (int i = 0; i < aggregates.length; i++) {
        results.put(aggregates[i], accumulators[i].result());
      }
      Aggregates.Results done = new Aggregates.Results(first, results);
      Object[] values = firstValues.clone();
      for (int i = aggregated.nextSetBit(0); i >= 0; i = aggregated.nextSetBit(i + 1)) {
        values[i] = operands[i].eval(ctx, done);
      }
      return json ? jsonRow(values) : shape.row(values);
    }
  }

  /** The result columns. */
  List<CqlColumn> columns() {
    return json ? jsonShape.columns() : shape.columns();
  }

  /** The table columns to read, or empty for all of them. */
  List<String> read() {
    return wildcard ? List.of() : read;
  }

  /** The result row for one row the engine returned. */
  CqlRow row(ResultRow source, ExecContext ctx) {
    if (json) {
      Object[] values = new Object[operands.length];
      for (int i = 0; i < values.length; i++) {
        values[i] = operands[i].eval(ctx, source);
      }
      return jsonRow(values);
    }
    if (plainColumns != null) {
      return new EngineRow(shape, plainColumns, source);
    }
    Object[] values = new Object[operands.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = operands[i].eval(ctx, source);
    }
    return shape.row(values);
  }

  private CqlRow jsonRow(Object[] values) {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < operands.length; i++) {
      if (i > 0) {
        sb.append(", ");
      }
      String name = shape.columns().get(i).name();
      String key = CqlPrinter.quoteName(name);
      sb.append(Json.quote(key)).append(": ");
      sb.append(Json.write(operands[i].type(), values[i]));
    }
    return jsonShape.row(new Object[] {sb.append('}').toString()});
  }

  /** A row of plain columns, read from the engine's row when asked. */
  private record EngineRow(RowShape shape, String[] names, ResultRow source) implements CqlRow {
    @Override
    public List<CqlColumn> columns() {
      return shape.columns();
    }

    @Override
    public int indexOf(String name) {
      return shape.indexOf(name);
    }

    @Override
    public Object get(int i) {
      if (i < 0 || i >= names.length) {
        throw new InvalidQueryException(
            "no column at position " + i + "; this row has " + names.length);
      }
      return source.get(names[i]);
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder("Row{");
      for (int i = 0; i < names.length; i++) {
        if (i > 0) {
          sb.append(", ");
        }
        sb.append(shape.columns().get(i).name()).append('=').append(get(i));
      }
      return sb.append('}').toString();
    }
  }
}
