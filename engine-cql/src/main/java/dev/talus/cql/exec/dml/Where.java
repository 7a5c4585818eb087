package dev.talus.cql.exec.dml;

import dev.talus.DataType;
import dev.talus.cql.ColumnType;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Receiver;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.exec.support.TableInfo;
import dev.talus.cql.exec.term.Operand;
import dev.talus.cql.exec.term.Terms;
import dev.talus.cql.parse.CqlPrinter;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.InValues;
import dev.talus.cql.parse.ast.Operator;
import dev.talus.cql.parse.ast.Relation;
import dev.talus.cql.parse.ast.SourcePosition;
import dev.talus.cql.parse.ast.Term;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code WHERE} clause of a read or a write, prepared: each relation on a column with {@code
 * =}, {@code IN} or a range, its values typed by the column. A SELECT's multi-column relations are
 * prepared by {@link TupleWhere}; in a write they are refused as Cassandra refuses them. Relations
 * the engine cannot serve yet ({@code LIKE}, custom index expressions) are refused as such; the
 * query-first rules themselves are the engine's to enforce. Immutable and thread-safe.
 */
final class Where {
  /** A restriction's comparison. */
  enum Op {
    EQ,
    IN,
    GT,
    GE,
    LT,
    LE,
    CONTAINS,
    CONTAINS_KEY,
    /** {@code m[k] = v}: its two values are the key and the value. */
    MAP_ENTRY;

    boolean isSlice() {
      return this == GT || this == GE || this == LT || this == LE;
    }

    boolean isLowerBound() {
      return this == GT || this == GE;
    }
  }

  /**
   * One restriction.
   *
   * @param column the column
   * @param op the comparison
   * @param values the value (one) or the listed IN values
   * @param inMarker the marker of {@code IN ?}, or null
   * @param name where the column was written
   * @param source for errors at execution
   */
  record Restriction(
      TableInfo.Column column,
      Op op,
      List<Operand> values,
      Operand inMarker,
      Identifier name,
      Source source) {

    /** The value of an EQ or range restriction, checked: neither null nor unset. */
    Object value(ExecContext ctx) {
      return checked(values.get(0).eval(ctx, null));
    }

    /** The values of the restriction (one, or the IN list), each checked. */
    List<Object> values(ExecContext ctx) {
      if (inMarker != null) {
        Object list = inMarker.eval(ctx, null);
        if (list == ExecContext.UNSET) {
          throw source.invalid(name, "Invalid unset value for column " + column.name());
        }
        if (list == null) {
          throw source.invalid(name, "Invalid null value for IN restriction on " + column.name());
        }
        return List.copyOf((Collection<?>) list);
      }
      List<Object> out = new ArrayList<>(values.size());
      for (Operand o : values) {
        out.add(checked(o.eval(ctx, null)));
      }
      return out;
    }

    private Object checked(Object v) {
      if (v == ExecContext.UNSET) {
        throw source.invalid(name, "Invalid unset value for column " + column.name());
      }
      if (v == null) {
        throw source.invalid(name, "Invalid null value in condition for column " + column.name());
      }
      return v;
    }
  }

  private Where() {}

  /** Prepares every relation of {@code relations} against {@code table}. */
  static List<Restriction> prepare(List<Relation> relations, TableInfo table, PrepareContext pc) {
    Source src = pc.source();
    List<Restriction> out = new ArrayList<>();
    Map<String, List<Restriction>> byColumn = new HashMap<>();
    for (Relation r : relations) {
      Restriction x = restriction(r, table, pc);
      List<Restriction> same = byColumn.computeIfAbsent(x.column().name(), k -> new ArrayList<>());
      for (Restriction y : same) {
        String col = x.column().name();
        if (x.op() == Op.EQ || y.op() == Op.EQ) {
          throw src.invalid(
              x.name(),
              col + " cannot be restricted by more than one relation if it includes an Equal");
        }
        if (x.op() == Op.IN || y.op() == Op.IN) {
          throw src.invalid(
              x.name(),
              col + " cannot be restricted by more than one relation if it includes a IN");
        }
        if (x.op().isLowerBound() == y.op().isLowerBound()) {
          throw src.invalid(
              x.name(),
              "More than one restriction was found for the "
                  + (x.op().isLowerBound() ? "start" : "end")
                  + " bound on "
                  + col);
        }
      }
      same.add(x);
      out.add(x);
    }
    return out;
  }

  /**
   * Whether {@code col} has a storage-attached index, which serves ranges on a component of a
   * composite partition key (as in Cassandra 5.0); the engine decides what else it serves.
   */
  private static boolean indexed(TableInfo table, TableInfo.Column col, PrepareContext pc) {
    return pc.db()
        .findTable(table.keyspace(), table.table())
        .map(t -> t.indexes().stream().anyMatch(d -> d.column().equals(col.name())))
        .orElse(false);
  }

  private static Restriction restriction(Relation r, TableInfo table, PrepareContext pc) {
    Source src = pc.source();
    if (r instanceof Relation.Compare c) {
      TableInfo.Column col = column(c.column(), table, pc);
      Op op =
          switch (c.operator()) {
            case EQ -> Op.EQ;
            case LT -> Op.LT;
            case LTE -> Op.LE;
            case GT -> Op.GT;
            case GTE -> Op.GE;
            case NEQ ->
                throw src.invalid(
                    c.column(),
                    "Unsupported \"!=\" relation: "
                        + CqlPrinter.quoteName(col.name())
                        + " != "
                        + CqlPrinter.print(c.value()));
            case LIKE ->
                throw src.notYet(
                    c.column().position(),
                    col.name().length(),
                    "LIKE restrictions",
                    "they need a storage-attached index, which arrives with indexes");
            case CONTAINS, CONTAINS_KEY -> null;
            default -> throw new IllegalStateException(c.operator().toString());
          };
      if (op == null) {
        return contains(c, col, table, pc);
      }
      if (col.kind() == TableInfo.Kind.PARTITION_KEY && op.isSlice() && !indexed(table, col, pc)) {
        throw src.invalid(
            c.column(),
            "Only EQ and IN relation are supported on the partition key (unless you use the"
                + " token() function)");
      }
      return new Restriction(
          col, op, List.of(value(c.value(), table.receiver(col), pc)), null, c.column(), src);
    }
    if (r instanceof Relation.In in) {
      TableInfo.Column col = column(in.column(), table, pc);
      if (in.values() instanceof InValues.Marker m) {
        Receiver list =
            table.receiver(col).as("in(" + col.name() + ")", new ColumnType.ListOf(col.type()));
        return new Restriction(
            col, Op.IN, List.of(), Terms.prepare(m.marker(), list, pc), in.column(), src);
      }
      List<Operand> values = new ArrayList<>();
      for (Term t : ((InValues.Listed) in.values()).terms()) {
        values.add(value(t, table.receiver(col), pc));
      }
      return new Restriction(col, Op.IN, values, null, in.column(), src);
    }
    SourcePosition at = r.position();
    if (r instanceof Relation.IsNotNull n) {
      throw src.invalid(
          n.column(),
          "Unsupported restriction: "
              + CqlPrinter.quoteName(n.column().name())
              + " IS NOT NULL"
              + " (IS NOT NULL only appears in a materialized view's definition)");
    }
    if (r instanceof Relation.Token) {
      // a SELECT takes them (TokenWhere) before the other relations come here
      throw src.invalid(
          at,
          5,
          "The token function cannot be used in WHERE clauses for UPDATE and DELETE statements");
    }
    if (TupleWhere.isMultiColumn(r)) {
      // a SELECT takes them (TupleWhere) before the single-column relations come here
      throw src.invalid(
          at,
          "Multi-column relations cannot be used in WHERE clauses for UPDATE and DELETE statements");
    }
    if (r instanceof Relation.MapElement m) {
      return mapEntry(m, table, pc);
    }
    throw src.notYet(at, 4, "custom index expressions (expr(...))", "Talus has no indexes yet");
  }

  /**
   * {@code m[k] = v}: an entry of a map (the engine refuses a frozen map, as Cassandra does, and
   * serves it with an {@code entries(m)} index or {@code ALLOW FILTERING}); any other operator is
   * refused with Cassandra 5.0's message ({@code SingleColumnRelation}).
   */
  private static Restriction mapEntry(Relation.MapElement m, TableInfo table, PrepareContext pc) {
    TableInfo.Column col = column(m.column(), table, pc);
    DataType t = col.type() instanceof ColumnType.Native n ? n.type() : null;
    if (t == null || t.kind() != DataType.Kind.MAP) {
      throw pc.source()
          .invalid(
              m.column(),
              "Column " + CqlPrinter.quoteName(col.name()) + " cannot be used as a map");
    }
    if (m.operator() != Operator.EQ) { // Cassandra 5.0 has no ranges on map entries either
      throw pc.source().invalid(m.column(), "Only EQ relations are supported on map entries");
    }
    Receiver key =
        table.receiver(col).as("key(" + col.name() + ")", ColumnType.of(t.elementType()));
    Receiver value = table.receiver(col).as(col.name() + "[key]", ColumnType.of(t.valueType()));
    return new Restriction(
        col,
        Op.MAP_ENTRY,
        List.of(value(m.key(), key, pc), value(m.value(), value, pc)),
        null,
        m.column(),
        pc.source());
  }

  /** {@code c CONTAINS v} (set and list elements, map values), {@code m CONTAINS KEY k}. */
  private static Restriction contains(
      Relation.Compare c, TableInfo.Column col, TableInfo table, PrepareContext pc) {
    boolean key = c.operator() == Operator.CONTAINS_KEY;
    DataType t = col.type() instanceof ColumnType.Native n ? n.type() : null;
    String q = CqlPrinter.quoteName(col.name());
    if (key && (t == null || t.kind() != DataType.Kind.MAP)) {
      throw pc.source().invalid(c.column(), "Cannot use CONTAINS KEY on non-map column " + q);
    }
    if (!key && (t == null || !t.isCollection())) {
      throw pc.source().invalid(c.column(), "Cannot use CONTAINS on non-collection column " + q);
    }
    DataType element = key || t.kind() != DataType.Kind.MAP ? t.elementType() : t.valueType();
    Receiver r = table.receiver(col).as(col.name(), ColumnType.of(element));
    return new Restriction(
        col,
        key ? Op.CONTAINS_KEY : Op.CONTAINS,
        List.of(value(c.value(), r, pc)),
        null,
        c.column(),
        pc.source());
  }

  private static Operand value(Term t, Receiver receiver, PrepareContext pc) {
    return Terms.prepare(t, receiver, pc);
  }

  static TableInfo.Column column(Identifier name, TableInfo table, PrepareContext pc) {
    TableInfo.Column col = table.column(name.name());
    if (col == null) {
      throw pc.source()
          .invalid(
              name,
              "Undefined column name "
                  + CqlPrinter.quoteName(name.name())
                  + " in table "
                  + table.qualifiedName());
    }
    return col;
  }
}
