package dev.talus.cql.exec.dml;

import dev.talus.DataType;
import dev.talus.Select;
import dev.talus.TupleValue;
import dev.talus.cql.ColumnType;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Receiver;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.exec.support.TableInfo;
import dev.talus.cql.exec.term.Operand;
import dev.talus.cql.exec.term.Terms;
import dev.talus.cql.exec.term.Values;
import dev.talus.cql.parse.CqlPrinter;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.InValues;
import dev.talus.cql.parse.ast.Relation;
import dev.talus.cql.parse.ast.SourcePosition;
import dev.talus.cql.parse.ast.Term;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The multi-column relations of a {@code SELECT}'s {@code WHERE} clause, prepared: {@code (b, c) =
 * (1, 2)}, {@code (b, c) > (1, 2)} and the other comparisons, {@code (b, c) IN ((1, 2), (3, 4))}.
 * Preparing checks what Cassandra checks on the relation itself — clustering columns only, each
 * once, in primary key order, one value per column — and types each element by its column; how the
 * relation combines with the others (left to right, merging two bounds, filtering) is the engine's
 * {@link Select} to decide. A whole tuple may be one bind marker, as in Cassandra ({@code
 * org.apache.cassandra.cql3.Tuples#makeReceiver} and {@code #makeInReceiver}): {@code (b, c) > ?}
 * and each marker of {@code (b, c) IN (?, ?)} is typed {@code tuple<type of b, type of c>} and
 * named {@code (b,c)}; {@code (b, c) IN ?} is typed {@code list<tuple<...>>} and named {@code
 * in(b,c)}. Immutable and thread-safe.
 */
final class TupleWhere {
  /**
   * One tuple of a relation: one operand per column, or one operand for the whole tuple.
   *
   * @param elements the operands of {@code (x, y)}, or null
   * @param whole the marker bound to a {@link TupleValue}, or null
   */
  record TupleTerm(List<Operand> elements, Operand whole) {}

  /**
   * One multi-column relation.
   *
   * @param columns the clustering columns, in primary key order
   * @param types their types
   * @param op the comparison ({@link Where.Op#IN} for a list of tuples)
   * @param tuples the tuple (one) or the listed IN tuples
   * @param inMarker the marker of {@code IN ?}, bound to a list of tuples, or null
   * @param at where the relation starts
   * @param source for errors at execution
   */
  record Restriction(
      List<String> columns,
      List<DataType> types,
      Where.Op op,
      List<TupleTerm> tuples,
      Operand inMarker,
      SourcePosition at,
      Source source) {

    /** Adds this relation to {@code select}, its values evaluated and checked. */
    void addTo(Select select, ExecContext ctx) {
      List<List<Object>> values = new ArrayList<>(tuples.size());
      if (inMarker != null) {
        Object list = inMarker.eval(ctx, null);
        if (list == ExecContext.UNSET) {
          throw source.invalid(at, "Invalid unset value for " + name());
        }
        if (list == null) {
          throw source.invalid(at, "Invalid null value for IN restriction on " + name());
        }
        for (Object t : (Collection<?>) list) {
          values.add(bound(t));
        }
      }
      for (TupleTerm term : tuples) {
        if (term.whole() != null) {
          values.add(bound(term.whole().eval(ctx, null)));
          continue;
        }
        List<Object> t = new ArrayList<>(term.elements().size());
        for (int i = 0; i < term.elements().size(); i++) {
          t.add(checked(term.elements().get(i).eval(ctx, null), columns.get(i)));
        }
        values.add(t);
      }
      switch (op) {
        case EQ -> select.eq(columns, values.get(0));
        case IN -> select.in(columns, values);
        case GT -> select.gt(columns, values.get(0));
        case GE -> select.ge(columns, values.get(0));
        case LT -> select.lt(columns, values.get(0));
        case LE -> select.le(columns, values.get(0));
      }
    }

    /** The elements of a tuple bound as a whole, checked against the columns. */
    private List<Object> bound(Object v) {
      if (v == ExecContext.UNSET) {
        throw source.invalid(at, "Invalid unset value for " + name());
      }
      if (v == null) {
        throw source.invalid(at, "Invalid null value in condition for " + name());
      }
      TupleValue tuple = (TupleValue) v;
      if (tuple.size() != columns.size()) {
        throw source.invalid(
            at,
            "Expected "
                + columns.size()
                + " elements in value tuple, but got "
                + tuple.size()
                + ": "
                + tuple);
      }
      List<Object> out = new ArrayList<>(tuple.size());
      for (int i = 0; i < tuple.size(); i++) {
        Object e = checked(tuple.get(i), columns.get(i));
        if (!Values.bindable(types.get(i), e)) {
          throw source.invalid(
              at,
              "Invalid value for column "
                  + columns.get(i)
                  + " in the tuple bound to "
                  + name()
                  + ": expected "
                  + types.get(i).javaType().getName()
                  + ", got "
                  + e.getClass().getName());
        }
        out.add(e);
      }
      return out;
    }

    private String name() {
      return "(" + String.join(",", columns) + ")";
    }

    private Object checked(Object v, String column) {
      if (v == ExecContext.UNSET) {
        throw source.invalid(at, "Invalid unset value for column " + column);
      }
      if (v == null) {
        throw source.invalid(at, "Invalid null value in condition for column " + column);
      }
      return v;
    }
  }

  private TupleWhere() {}

  /** True for {@code (a, b) op ...} and {@code (a, b) IN ...}. */
  static boolean isMultiColumn(Relation r) {
    return r instanceof Relation.MultiColumn || r instanceof Relation.MultiColumnIn;
  }

  /** Prepares one multi-column relation against {@code table}. */
  static Restriction prepare(Relation r, TableInfo table, PrepareContext pc) {
    Source src = pc.source();
    List<Identifier> names =
        r instanceof Relation.MultiColumn m ? m.columns() : ((Relation.MultiColumnIn) r).columns();
    String text = CqlPrinter.print(r);
    List<TableInfo.Column> columns = columns(names, table, text, pc);
    List<String> columnNames = columns.stream().map(TableInfo.Column::name).toList();
    List<DataType> types = columns.stream().map(c -> table.receiver(c).dataType()).toList();
    Receiver whole =
        table
            .receiver(columns.get(0))
            .as(
                "(" + String.join(",", columnNames) + ")",
                ColumnType.of(DataType.tuple(types.toArray(DataType[]::new))));
    if (r instanceof Relation.MultiColumn m) {
      Where.Op op =
          switch (m.operator()) {
            case EQ -> Where.Op.EQ;
            case LT -> Where.Op.LT;
            case LTE -> Where.Op.LE;
            case GT -> Where.Op.GT;
            case GTE -> Where.Op.GE;
            default ->
                throw src.invalid(
                    m.position(), "Unsupported \"" + m.operator().cql() + "\" relation: " + text);
          };
      return new Restriction(
          columnNames,
          types,
          op,
          List.of(tuple(m.value(), columns, whole, table, text, pc)),
          null,
          r.position(),
          src);
    }
    Relation.MultiColumnIn in = (Relation.MultiColumnIn) r;
    if (in.values() instanceof InValues.Marker marker) {
      Receiver list =
          whole.as(
              "in(" + String.join(",", columnNames) + ")", new ColumnType.ListOf(whole.type()));
      return new Restriction(
          columnNames,
          types,
          Where.Op.IN,
          List.of(),
          Terms.prepare(marker.marker(), list, pc),
          r.position(),
          src);
    }
    List<TupleTerm> tuples = new ArrayList<>();
    for (Term t : ((InValues.Listed) in.values()).terms()) {
      tuples.add(tuple(t, columns, whole, table, text, pc));
    }
    return new Restriction(columnNames, types, Where.Op.IN, tuples, null, r.position(), src);
  }

  private static List<TableInfo.Column> columns(
      List<Identifier> names, TableInfo table, String text, PrepareContext pc) {
    Source src = pc.source();
    List<TableInfo.Column> clustering = table.columns(TableInfo.Kind.CLUSTERING);
    List<TableInfo.Column> out = new ArrayList<>(names.size());
    for (Identifier name : names) {
      TableInfo.Column c = Where.column(name, table, pc);
      if (c.kind() != TableInfo.Kind.CLUSTERING) {
        throw src.invalid(
            name,
            "Multi-column relations can only be applied to clustering columns but was applied"
                + " to: "
                + c.name());
      }
      if (out.contains(c)) {
        throw src.invalid(
            name, "Column \"" + c.name() + "\" appeared twice in a relation: " + text);
      }
      if (!out.isEmpty()) {
        int previous = clustering.indexOf(out.get(out.size() - 1));
        int here = clustering.indexOf(c);
        if (here < previous) {
          throw src.invalid(
              name,
              "Clustering columns must appear in the PRIMARY KEY order in multi-column relations: "
                  + text);
        }
        if (here != previous + 1) {
          throw src.invalid(
              name,
              "Clustering columns may not be skipped in multi-column relations. They should appear"
                  + " in the PRIMARY KEY order. Got "
                  + text);
        }
      }
      out.add(c);
    }
    return out;
  }

  private static TupleTerm tuple(
      Term term,
      List<TableInfo.Column> columns,
      Receiver whole,
      TableInfo table,
      String text,
      PrepareContext pc) {
    Source src = pc.source();
    if (term instanceof Term.BindMarker m) {
      return new TupleTerm(null, Terms.prepare(m, whole, pc));
    }
    if (!(term instanceof Term.TupleLiteral t)) {
      throw src.invalid(
          term.position(),
          "Invalid value " + CqlPrinter.print(term) + " in " + text + ": expected a tuple");
    }
    if (t.elements().size() != columns.size()) {
      throw src.invalid(
          t.position(),
          "Expected "
              + columns.size()
              + " elements in value tuple, but got "
              + t.elements().size()
              + ": "
              + CqlPrinter.print(t));
    }
    List<Operand> out = new ArrayList<>(columns.size());
    for (int i = 0; i < columns.size(); i++) {
      out.add(Terms.prepare(t.elements().get(i), table.receiver(columns.get(i)), pc));
    }
    return new TupleTerm(out, null);
  }
}
