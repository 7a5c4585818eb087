package dev.talus.cql.exec.term;

import dev.talus.DataType;
import dev.talus.ResultRow;
import dev.talus.cql.ColumnType;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Receiver;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.exec.support.TableInfo;
import dev.talus.cql.parse.CqlPrinter;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.Selector;
import dev.talus.cql.parse.ast.SourcePosition;
import dev.talus.cql.parse.ast.Term;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Prepares the selectors of a {@code SELECT} against a table: columns, {@code writetime()}, {@code
 * maxwritetime()} and {@code ttl()} of regular columns, {@code token()} of the partition key,
 * constants, native functions, {@code toJson()} and casts — each becoming an {@link Operand} that
 * reads a row, with the result column's name as Cassandra names it. Static, thread-safe.
 */
public final class Selectors {
  private Selectors() {}

  /**
   * A prepared selector.
   *
   * @param operand computes the value from a row
   * @param name the result column's name (before any alias)
   */
  public record Selected(Operand operand, String name) {}

  /**
   * What selectors read from: a table, its source columns, how to compute a token, and the
   * aggregates prepared so far (each aggregate adds itself).
   */
  public record Scope(
      TableInfo table,
      Set<String> read,
      Function<Object[], Long> token,
      PrepareContext pc,
      List<Aggregates.Call> aggregates) {}

  /** Prepares {@code s}; every column it reads is added to {@code scope.read()}. */
  public static Selected prepare(Selector s, Scope scope) {
    PrepareContext pc = scope.pc();
    Source src = pc.source();
    if (s instanceof Selector.Column c) {
      TableInfo.Column col = column(c.name(), scope);
      scope.read().add(col.name());
      return new Selected(new Read(col.name(), col.type()), col.name());
    }
    if (s instanceof Selector.WritetimeOrTtl w) {
      return metadata(w, scope);
    }
    if (s instanceof Selector.Value v) {
      return new Selected(constant(v.term(), pc), CqlPrinter.print(v.term()));
    }
    if (s instanceof Selector.TypeHint h) {
      DataType type = Terms.nativeType(h.type(), pc);
      if (h.selector() instanceof Selector.Value v) {
        Operand op = Terms.prepare(v.term(), Receiver.of("(" + type.cqlName() + ")", type), pc);
        return new Selected(op, CqlPrinter.print(v.term()));
      }
      Selected inner = prepare(h.selector(), scope);
      if (!(inner.operand().type() instanceof ColumnType.Native n)
          || !Terms.assignable(n.type(), type)) {
        throw src.invalid(
            h.position(),
            "Cannot use a value of type " + inner.operand().type().cql() + " as " + type.cqlName());
      }
      return inner;
    }
    if (s instanceof Selector.Cast c) {
      Selected inner = prepare(c.selector(), scope);
      DataType to = Terms.nativeType(c.type().type());
      if (to == null || !(inner.operand().type() instanceof ColumnType.Native from)) {
        throw Types.unsupported(c.type(), pc);
      }
      if (from.type() == to) {
        return inner; // a cast to its own type is the value itself, named as it (as in Cassandra)
      }
      UnaryOperator<Object> conversion = Casts.of(from.type(), to);
      if (conversion == null) {
        throw src.invalid(
            c.position(), "Cannot cast a value of type " + from.cql() + " to " + to.cqlName());
      }
      return new Selected(
          new Terms.Converted(inner.operand(), conversion, ColumnType.of(to)),
          "cast(" + inner.name() + " as " + to.cqlName() + ")");
    }
    if (s instanceof Selector.FunctionCall f) {
      return call(f, scope);
    }
    if (s instanceof Selector.CountRows) {
      return Aggregates.countRows(scope);
    }
    if (s instanceof Selector.Arithmetic a) {
      throw src.notYet(
          a.position(),
          1,
          "arithmetic in selectors (" + a.operator().symbol() + ")",
          "compute it in the application");
    }
    if (s instanceof Selector.Negation n) {
      throw src.notYet(n.position(), 1, "arithmetic in selectors (unary -)", "");
    }
    if (s instanceof Selector.Field f) {
      return Parts.field(f, prepare(f.receiver(), scope), pc);
    }
    if (s instanceof Selector.Element e) {
      return Parts.element(e, prepare(e.receiver(), scope), pc);
    }
    if (s instanceof Selector.Slice sl) {
      return Parts.slice(sl, prepare(sl.receiver(), scope), pc);
    }
    throw src.notYet(
        s.position(), 1, "tuple, list, set and map selectors", "select the whole collection");
  }

  private static Selected metadata(Selector.WritetimeOrTtl w, Scope scope) {
    Source src = scope.pc().source();
    Selector target = w.column();
    List<Selector> chain = new ArrayList<>(); // the parts, outermost first
    Selector receiver = target;
    while (receiver instanceof Selector.Element
        || receiver instanceof Selector.Slice
        || receiver instanceof Selector.Field) {
      chain.add(receiver);
      receiver = partReceiver(receiver);
    }
    if (!(receiver instanceof Selector.Column c)) {
      throw src.notYet(
          w.position(),
          w.kind().cql().length(),
          w.kind().cql() + "() of a computed value",
          "select writetime() or ttl() of a column, or of an element or field of it");
    }
    TableInfo.Column col = column(c.name(), scope);
    if (col.isKey()) {
      throw src.invalid(
          c.name(),
          "Cannot use selection function " + w.kind().cql() + " on PRIMARY KEY part " + col.name());
    }
    scope.read().add(col.name());
    DataType type = col.type() instanceof ColumnType.Native n ? n.type() : null;
    boolean multiCell = type != null && type.isMultiCell();
    if (chain.isEmpty() && !multiCell) {
      String name = w.kind().cql() + "(" + col.name() + ")";
      return new Selected(single(col.name(), w.kind()), name);
    }
    Selected named = prepare(target, scope); // checks the part as a selector would, and names it
    String name = w.kind().cql() + "(" + named.name() + ")";
    boolean slice = target instanceof Selector.Slice;
    if (!multiCell) {
      // a part of a frozen value shares its cell's time, if the part is there (Cassandra's
      // ColumnTimestamps: one timestamp for a frozen value, none for an absent part)
      Operand time = single(col.name(), w.kind());
      return new Selected(new IfPresent(time, named.operand(), slice), name);
    }
    if (chain.size() <= 1) {
      return new Selected(cellTimes(w, target, named.operand(), col, type, scope), name);
    }
    Selector cellPart = chain.get(chain.size() - 1); // the element or field the column holds
    if (!(cellPart instanceof Selector.Slice)) {
      Operand cells = cellTimes(w, cellPart, null, col, type, scope);
      return new Selected(new IfPresent(cells, named.operand(), slice), name);
    }
    throw src.notYet(
        w.position(),
        w.kind().cql().length(),
        w.kind().cql() + "() of a part of a slice of a non-frozen collection",
        "select writetime() or ttl() of the slice, or of one element of the collection");
  }

  private static Selector partReceiver(Selector s) {
    if (s instanceof Selector.Element e) {
      return e.receiver();
    }
    if (s instanceof Selector.Slice sl) {
      return sl.receiver();
    }
    return ((Selector.Field) s).receiver();
  }

  private static Operand single(String column, Selector.MetadataKind kind) {
    return kind == Selector.MetadataKind.TTL
        ? new Meta(column, ColumnType.of(DataType.INT), true)
        : new Meta(column, ColumnType.of(DataType.BIGINT), false);
  }

  /**
   * writetime()/maxwritetime()/ttl() of the whole multi-cell column {@code target}, or of an
   * element, slice or field of it: the times of the cells it reads ({@code sliced} is the prepared
   * slice when {@code target} is one).
   */
  private static Operand cellTimes(
      Selector.WritetimeOrTtl w,
      Selector target,
      Operand sliced,
      TableInfo.Column col,
      DataType type,
      Scope s) {
    if (target instanceof Selector.Field f) {
      int field = type.userType().fieldIndex(f.field().name());
      return CellTimes.of(col.name(), w.kind(), null, true, field);
    }
    if (target instanceof Selector.Element e) {
      Selector.Slice one = new Selector.Slice(e.receiver(), e.key(), e.key());
      Selected part = Parts.slice(one, prepare(e.receiver(), s), s.pc());
      return CellTimes.of(col.name(), w.kind(), part.operand(), true, -1);
    }
    if (target instanceof Selector.Slice) {
      return CellTimes.of(col.name(), w.kind(), sliced, false, -1);
    }
    return CellTimes.of(col.name(), w.kind(), null, false, -1);
  }

  /**
   * The time of the cell a part of a frozen value lies in, or null if the part is absent: a null
   * element or field, or (for a slice) one that keeps nothing.
   */
  record IfPresent(Operand time, Operand part, boolean slice) implements Operand {
    @Override
    public Object eval(ExecContext ctx, ResultRow row) {
      Object v = part.eval(ctx, row);
      if (v == null
          || (slice && v instanceof java.util.Collection<?> c && c.isEmpty())
          || (slice && v instanceof java.util.Map<?, ?> m && m.isEmpty())) {
        return null;
      }
      return time.eval(ctx, row);
    }

    @Override
    public ColumnType type() {
      return time.type();
    }
  }

  private static TableInfo.Column column(Identifier name, Scope scope) {
    TableInfo.Column col = scope.table().column(name.name());
    if (col == null) {
      throw scope
          .pc()
          .source()
          .invalid(
              name,
              "Undefined column name "
                  + CqlPrinter.quoteName(name.name())
                  + " in table "
                  + scope.table().qualifiedName());
    }
    return col;
  }

  private static Operand constant(Term t, PrepareContext pc) {
    ColumnType known = Terms.knownType(t);
    if (known instanceof ColumnType.Native n) {
      return Terms.prepare(t, Receiver.of("selection", n.type()), pc);
    }
    if (t instanceof Term.Literal l) {
      DataType type = Values.naturalType(l.kind(), l.text());
      return Terms.prepare(t, Receiver.of("selection", type), pc);
    }
    throw pc.source()
        .invalid(
            t.position(),
            "Cannot infer the type of "
                + CqlPrinter.print(t)
                + " in the selection; give it a type hint, e.g. (int) ?");
  }

  private static Selected call(Selector.FunctionCall f, Scope scope) {
    PrepareContext pc = scope.pc();
    String name = Functions.nameOf(f.name(), pc);
    List<Selected> argsSelected = new ArrayList<>();
    if (name.equals("token")) {
      return token(f, scope);
    }
    if (Aggregates.isAggregate(name)) {
      return Aggregates.prepare(name, f, scope);
    }
    if (name.equals("tojson")) {
      if (f.arguments().size() != 1) {
        throw pc.source()
            .invalid(
                f.position(), "toJson() takes exactly one argument, got " + f.arguments().size());
      }
      Selected inner = prepare(f.arguments().get(0), scope);
      Operand json = new ToJson(inner.operand());
      return new Selected(json, "system.tojson(" + inner.name() + ")");
    }
    List<Arg> args = new ArrayList<>();
    for (Selector a : f.arguments()) {
      args.add(arg(a, scope, argsSelected));
    }
    Operand op = Functions.call(f.name(), f.position(), args, null, pc);
    List<String> texts = new ArrayList<>();
    for (Arg a : args) {
      texts.add(a.text());
    }
    return new Selected(op, "system." + name + "(" + String.join(", ", texts) + ")");
  }

  private static Arg arg(Selector s, Scope scope, List<Selected> prepared) {
    if (s instanceof Selector.Value v) {
      return Terms.args(List.of(v.term()), scope.pc()).get(0);
    }
    Selected sel = prepare(s, scope);
    prepared.add(sel);
    return new Arg() {
      @Override
      public SourcePosition position() {
        return s.position();
      }

      @Override
      public ColumnType knownType() {
        return sel.operand().type();
      }

      @Override
      public boolean accepts(DataType type) {
        return sel.operand().type() instanceof ColumnType.Native n
            && Terms.assignable(n.type(), type);
      }

      @Override
      public Operand prepare(Receiver receiver) {
        return sel.operand();
      }

      @Override
      public String text() {
        return sel.name();
      }
    };
  }

  private static Selected token(Selector.FunctionCall f, Scope scope) {
    Source src = scope.pc().source();
    List<TableInfo.Column> pk = scope.table().columns(TableInfo.Kind.PARTITION_KEY);
    if (scope.token() == null) {
      throw src.invalid(
          f.position(), "token() is not available on " + scope.table().qualifiedName());
    }
    List<String> names = new ArrayList<>();
    for (int i = 0; i < f.arguments().size(); i++) {
      if (!(f.arguments().get(i) instanceof Selector.Column c)) {
        throw src.invalid(
            f.arguments().get(i).position(),
            "The arguments of token() must be the partition key columns");
      }
      names.add(c.name().name());
    }
    List<String> expected = pk.stream().map(TableInfo.Column::name).toList();
    if (!names.equals(expected)) {
      throw src.invalid(
          f.position(),
          "The token function arguments must be in the partition key order: "
              + String.join(", ", expected));
    }
    scope.read().addAll(expected);
    Function<Object[], Long> token = scope.token();
    Operand op =
        new Operand() {
          @Override
          public Object eval(ExecContext ctx, ResultRow row) {
            Object[] values = new Object[expected.size()];
            for (int i = 0; i < values.length; i++) {
              values[i] = row.get(expected.get(i));
            }
            return token.apply(values);
          }

          @Override
          public ColumnType type() {
            return ColumnType.of(DataType.BIGINT);
          }
        };
    return new Selected(op, "system.token(" + String.join(", ", expected) + ")");
  }

  /** Reads a column of the row. */
  public record Read(String column, ColumnType type) implements Operand {
    @Override
    public Object eval(ExecContext ctx, ResultRow row) {
      return row.get(column);
    }
  }

  /** Reads a column's write time or TTL. */
  record Meta(String column, ColumnType type, boolean ttl) implements Operand {
    @Override
    public Object eval(ExecContext ctx, ResultRow row) {
      if (ttl) {
        return row.ttl(column);
      }
      return row.writeTime(column);
    }
  }

  /** {@code toJson(x)}. */
  record ToJson(Operand inner) implements Operand {
    @Override
    public Object eval(ExecContext ctx, ResultRow row) {
      return Json.write(inner.type(), inner.eval(ctx, row));
    }

    @Override
    public ColumnType type() {
      return ColumnType.of(DataType.TEXT);
    }
  }
}
