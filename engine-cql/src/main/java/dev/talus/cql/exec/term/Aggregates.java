package dev.talus.cql.exec.term;

import dev.talus.Aggregator;
import dev.talus.DataType;
import dev.talus.InvalidQueryException;
import dev.talus.ResultRow;
import dev.talus.cql.ColumnType;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.parse.ast.LiteralKind;
import dev.talus.cql.parse.ast.Selector;
import dev.talus.cql.parse.ast.SourcePosition;
import dev.talus.cql.parse.ast.Term;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The native aggregates of a selection — {@code count(*)}, {@code count(1)}, {@code count(x)},
 * {@code min}, {@code max}, {@code sum}, {@code avg} — with Cassandra 5.0's result types and column
 * names ({@code count} for the row count, {@code system.max(v)} for the others). Each becomes a
 * {@link Call}, whose per-row value is its argument's; the executor feeds those to an {@link
 * Aggregator} per group. Static, thread-safe.
 */
public final class Aggregates {
  private static final Set<String> NAMES = Set.of("count", "min", "max", "sum", "avg");

  private Aggregates() {}

  /** True if {@code name} (lower case, no keyspace) is a native aggregate. */
  public static boolean isAggregate(String name) {
    return NAMES.contains(name);
  }

  /**
   * A prepared aggregate.
   *
   * @param function the function
   * @param input its argument, or null for the row count
   * @param type the result's type
   * @param inputType the argument's type (bigint for the row count)
   * @param what the argument as written, for errors
   */
  public record Call(
      Aggregator.Function function, Operand input, ColumnType type, DataType inputType, String what)
      implements Operand {
    /**
     * The value this row adds: the argument's value (null is skipped), or a mark per row; or, read
     * from a group's {@link Results}, this aggregate's result (so that a function or cast of an
     * aggregate computes on the result).
     */
    @Override
    public Object eval(ExecContext ctx, ResultRow row) {
      if (row instanceof Results r) {
        return r.result(this);
      }
      return input == null ? Boolean.TRUE : input.eval(ctx, row);
    }

    /** A new, empty accumulator of this aggregate. */
    public Aggregator start() {
      return Aggregator.of(function, inputType, what);
    }
  }

  /**
   * A group's finished aggregates, read as a row: each {@link Call} evaluates to its result, and a
   * plain column reads the group's first row (null over no rows), as in Cassandra.
   *
   * @param first the group's first row, or null
   * @param results each aggregate's result, by identity
   */
  public record Results(ResultRow first, IdentityHashMap<Call, Object> results)
      implements ResultRow {
    Object result(Call c) {
      return results.get(c);
    }

    @Override
    public List<String> columns() {
      return first == null ? List.of() : first.columns();
    }

    @Override
    public Object get(String column) {
      return first == null ? null : first.get(column);
    }

    @Override
    public <T> T get(String column, Class<T> type) {
      return first == null ? null : first.get(column, type);
    }

    @Override
    public Long writeTime(String column) {
      return first == null ? null : first.writeTime(column);
    }

    @Override
    public Integer ttl(String column) {
      return first == null ? null : first.ttl(column);
    }

    @Override
    public List<Long> writeTimes(String column) {
      return first == null ? null : first.writeTimes(column);
    }

    @Override
    public List<Integer> ttls(String column) {
      return first == null ? null : first.ttls(column);
    }
  }

  /** {@code count(*)}. */
  static Selectors.Selected countRows(Selectors.Scope scope) {
    Call c =
        new Call(
            Aggregator.Function.COUNT, null, ColumnType.of(DataType.BIGINT), DataType.BIGINT, "*");
    scope.aggregates().add(c);
    return new Selectors.Selected(c, "count");
  }

  /** {@code name(argument)} with {@code name} one of {@link #isAggregate}. */
  static Selectors.Selected prepare(String name, Selector.FunctionCall f, Selectors.Scope scope) {
    Source src = scope.pc().source();
    Aggregator.Function fn = Aggregator.Function.valueOf(name.toUpperCase(Locale.ROOT));
    if (f.arguments().size() != 1) {
      throw src.invalid(
          f.position(),
          name.length(),
          "Invalid number of arguments in call to function system."
              + name
              + ": 1 required but "
              + f.arguments().size()
              + " provided");
    }
    Selector arg = f.arguments().get(0);
    if (fn == Aggregator.Function.COUNT
        && arg instanceof Selector.Value v
        && v.term() instanceof Term.Literal l
        && l.kind() == LiteralKind.INTEGER) {
      if (l.text().equals("1")) {
        return countRows(scope); // count(1) is count(*), as in Cassandra
      }
      throw src.invalid(v.position(), "Only COUNT(1) is supported, got COUNT(" + l.text() + ")");
    }
    int before = scope.aggregates().size();
    Selectors.Selected inner = Selectors.prepare(arg, scope);
    SourcePosition at = arg.position();
    if (scope.aggregates().size() != before) {
      throw src.invalid(
          f.position(),
          name.length(),
          "Aggregate functions cannot be used as arguments of aggregate functions (in "
              + name
              + "("
              + inner.name()
              + "))");
    }
    if (!(inner.operand().type() instanceof ColumnType.Native n)) {
      throw src.invalid(
          at,
          "Invalid call to function system."
              + name
              + ": "
              + inner.name()
              + " is of type "
              + inner.operand().type().cql());
    }
    DataType resultType;
    try {
      resultType = Aggregator.of(fn, n.type(), inner.name()).resultType();
    } catch (InvalidQueryException e) {
      throw src.invalid(at, "Invalid call to function system." + name + ": " + e.getMessage());
    }
    Call c = new Call(fn, inner.operand(), ColumnType.of(resultType), n.type(), inner.name());
    scope.aggregates().add(c);
    return new Selectors.Selected(c, "system." + name + "(" + inner.name() + ")");
  }
}
