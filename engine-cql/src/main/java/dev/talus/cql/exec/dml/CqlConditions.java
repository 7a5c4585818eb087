package dev.talus.cql.exec.dml;

import dev.talus.ColumnDef;
import dev.talus.ConditionalResult;
import dev.talus.DataType;
import dev.talus.Delete;
import dev.talus.Insert;
import dev.talus.ResultRow;
import dev.talus.TableSchema;
import dev.talus.Update;
import dev.talus.cql.ColumnType;
import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlRow;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Receiver;
import dev.talus.cql.exec.support.RowShape;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.exec.term.Operand;
import dev.talus.cql.exec.term.Terms;
import dev.talus.cql.parse.CqlPrinter;
import dev.talus.cql.parse.ast.ColumnRef;
import dev.talus.cql.parse.ast.Condition;
import dev.talus.cql.parse.ast.InValues;
import dev.talus.cql.parse.ast.Operator;
import dev.talus.cql.parse.ast.Relation;
import dev.talus.cql.parse.ast.SourcePosition;
import dev.talus.cql.parse.ast.Term;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The {@code IF} clause of an {@code INSERT}, {@code UPDATE} or {@code DELETE}, prepared: {@code IF
 * NOT EXISTS}, {@code IF EXISTS}, or conditions on columns, elements ({@code m['k']}, {@code l[0]})
 * and user type fields with {@code = != < <= > >= IN}. At execution it becomes the engine's
 * conditions, and the engine's answer becomes Cassandra's result: a boolean {@code [applied]}
 * column first, then, when not applied, the current values the conditions examined. Immutable and
 * thread-safe.
 */
final class CqlConditions {
  enum Kind {
    NONE,
    EXISTS,
    NOT_EXISTS,
    CONDITIONS
  }

  static final CqlConditions NONE = new CqlConditions(Kind.NONE, List.of(), null);

  private record Prepared(
      String column,
      Operand key,
      String field,
      dev.talus.Condition.Op op,
      List<Operand> values,
      Operand inMarker,
      SourcePosition at) {}

  private final Kind kind;
  private final List<Prepared> conditions;
  private final TableSchema schema;

  private CqlConditions(Kind kind, List<Prepared> conditions, TableSchema schema) {
    this.kind = kind;
    this.conditions = List.copyOf(conditions);
    this.schema = schema;
  }

  boolean conditional() {
    return kind != Kind.NONE;
  }

  /** {@code IF NOT EXISTS} of an INSERT, or none. */
  static CqlConditions insert(
      boolean ifNotExists,
      TableSchema schema,
      WriteAttributes attributes,
      SourcePosition at,
      PrepareContext pc) {
    if (!ifNotExists) {
      return NONE;
    }
    checkAttributes(attributes, at, pc);
    return new CqlConditions(Kind.NOT_EXISTS, List.of(), schema);
  }

  /** The {@code IF} clause of an UPDATE or DELETE. */
  static CqlConditions prepare(
      boolean ifExists,
      List<Condition> conditions,
      List<Relation> where,
      TableSchema schema,
      WriteAttributes attributes,
      SourcePosition at,
      boolean delete,
      PrepareContext pc) {
    if (!ifExists && conditions.isEmpty()) {
      return NONE;
    }
    checkAttributes(attributes, at, pc);
    for (Relation r : where) {
      if (r instanceof Relation.In in) {
        ColumnDef c = schema.column(in.column().name()).orElse(null);
        boolean pk = c != null && c.kind() == ColumnDef.Kind.PARTITION_KEY;
        throw pc.source()
            .invalid(
                in.column(),
                pk
                    ? "IN on the partition key is not supported with conditional "
                        + (delete ? "deletions" : "updates")
                    : "IN on the clustering key columns is not supported with conditional "
                        + (delete ? "deletions" : "updates"));
      }
    }
    if (ifExists) {
      return new CqlConditions(Kind.EXISTS, List.of(), schema);
    }
    List<Prepared> out = new ArrayList<>();
    for (Condition c : conditions) {
      out.add(prepare(c, schema, pc));
    }
    return new CqlConditions(Kind.CONDITIONS, out, schema);
  }

  private static void checkAttributes(WriteAttributes a, SourcePosition at, PrepareContext pc) {
    if (a.hasTimestamp()) {
      throw pc.source().invalid(at, 6, "Cannot provide custom timestamp for conditional updates");
    }
  }

  private static Prepared prepare(Condition c, TableSchema schema, PrepareContext pc) {
    Source src = pc.source();
    ColumnRef target = c.target();
    String name = target.column().name();
    ColumnDef def =
        schema
            .column(name)
            .orElseThrow(
                () ->
                    src.invalid(
                        target.column(), "Undefined column name " + CqlPrinter.quoteName(name)));
    if (def.isPrimaryKey()) {
      throw src.invalid(
          target.column(),
          "PRIMARY KEY column " + CqlPrinter.quoteName(name) + " cannot have IF conditions");
    }
    String ks = schema.keyspace().orElse("");
    DataType valueType = def.type();
    Operand key = null;
    String field = null;
    if (target instanceof ColumnRef.Element e) {
      if (def.type().kind() == DataType.Kind.MAP) {
        key =
            Terms.prepare(
                e.key(),
                new Receiver(
                    ks,
                    schema.name(),
                    "key(" + name + ")",
                    ColumnType.of(def.type().elementType())),
                pc);
        valueType = def.type().valueType();
      } else if (def.type().kind() == DataType.Kind.LIST) {
        key =
            Terms.prepare(
                e.key(),
                new Receiver(ks, schema.name(), "idx(" + name + ")", ColumnType.of(DataType.INT)),
                pc);
        valueType = def.type().elementType();
      } else {
        throw src.invalid(
            target.column(),
            "Invalid element access syntax for "
                + def.type().cqlName()
                + " column "
                + CqlPrinter.quoteName(name));
      }
    } else if (target instanceof ColumnRef.Field f) {
      if (def.type().kind() != DataType.Kind.UDT
          || !def.type().userType().fieldNames().contains(f.field().name())) {
        throw src.invalid(
            f.field(),
            "Invalid field " + f.field().name() + " in a condition on " + def.type().cqlName());
      }
      field = f.field().name();
      valueType = def.type().userType().fieldType(field);
    }
    Receiver receiver = new Receiver(ks, schema.name(), name, ColumnType.of(valueType));
    if (c instanceof Condition.In in) {
      if (in.values() instanceof InValues.Marker m) {
        Receiver list = receiver.as("in(" + name + ")", new ColumnType.ListOf(receiver.type()));
        return new Prepared(
            name,
            key,
            field,
            dev.talus.Condition.Op.IN,
            List.of(),
            Terms.prepare(m.marker(), list, pc),
            c.position());
      }
      List<Operand> values = new ArrayList<>();
      for (Term t : ((InValues.Listed) in.values()).terms()) {
        values.add(Terms.prepare(t, receiver, pc));
      }
      return new Prepared(name, key, field, dev.talus.Condition.Op.IN, values, null, c.position());
    }
    Condition.Compare cmp = (Condition.Compare) c;
    if (cmp.operator() == Operator.CONTAINS || cmp.operator() == Operator.CONTAINS_KEY) {
      boolean isKey = cmp.operator() == Operator.CONTAINS_KEY;
      DataType t = def.type();
      DataType.Kind k = t.kind();
      if (k != DataType.Kind.MAP
          && (isKey || (k != DataType.Kind.LIST && k != DataType.Kind.SET))) {
        throw src.invalid(
            target.column(),
            isKey
                ? "Cannot use CONTAINS KEY on non-map column " + CqlPrinter.quoteName(name)
                : "Cannot use CONTAINS on non-collection column " + CqlPrinter.quoteName(name));
      }
      DataType element = k == DataType.Kind.MAP && !isKey ? t.valueType() : t.elementType();
      Receiver r = new Receiver(ks, schema.name(), name, ColumnType.of(element));
      return new Prepared(
          name,
          null,
          null,
          isKey ? dev.talus.Condition.Op.CONTAINS_KEY : dev.talus.Condition.Op.CONTAINS,
          List.of(Terms.prepare(cmp.value(), r, pc)),
          null,
          c.position());
    }
    dev.talus.Condition.Op op =
        switch (cmp.operator()) {
          case EQ -> dev.talus.Condition.Op.EQ;
          case NEQ -> dev.talus.Condition.Op.NE;
          case LT -> dev.talus.Condition.Op.LT;
          case LTE -> dev.talus.Condition.Op.LE;
          case GT -> dev.talus.Condition.Op.GT;
          case GTE -> dev.talus.Condition.Op.GE;
          default ->
              throw src.notYet(
                  c.position(),
                  name.length(),
                  cmp.operator().cql() + " in IF conditions",
                  "compare with = != < <= > >= or IN");
        };
    return new Prepared(
        name,
        key,
        field,
        op,
        List.of(Terms.prepare(cmp.value(), receiver, pc)),
        null,
        c.position());
  }

  /** The engine conditions of one execution. */
  private dev.talus.Condition[] engine(ExecContext ctx) {
    dev.talus.Condition[] out = new dev.talus.Condition[conditions.size()];
    for (int i = 0; i < out.length; i++) {
      Prepared p = conditions.get(i);
      Object value;
      if (p.op() == dev.talus.Condition.Op.IN) {
        List<Object> values = new ArrayList<>();
        if (p.inMarker() != null) {
          Object list = unsetIsNull(p.inMarker().eval(ctx, null));
          if (list != null) {
            values.addAll((Collection<?>) list);
          }
        } else {
          for (Operand o : p.values()) {
            values.add(unsetIsNull(o.eval(ctx, null)));
          }
        }
        value = values;
      } else {
        value = unsetIsNull(p.values().get(0).eval(ctx, null));
      }
      Object key = p.field() != null ? p.field() : p.key() == null ? null : p.key().eval(ctx, null);
      out[i] =
          p.key() == null && p.field() == null
              ? dev.talus.Condition.column(p.column(), p.op(), value)
              : dev.talus.Condition.element(p.column(), key, p.op(), value);
    }
    return out;
  }

  private static Object unsetIsNull(Object v) {
    return v == ExecContext.UNSET ? null : v;
  }

  void applyTo(Insert insert) {
    if (kind == Kind.NOT_EXISTS) {
      insert.ifNotExists();
    }
  }

  void applyTo(Update update, ExecContext ctx) {
    if (kind == Kind.EXISTS) {
      update.ifExists();
    } else if (kind == Kind.CONDITIONS) {
      update.onlyIf(engine(ctx));
    }
  }

  void applyTo(Delete delete, ExecContext ctx) {
    if (kind == Kind.EXISTS) {
      delete.ifExists();
    } else if (kind == Kind.CONDITIONS) {
      delete.onlyIf(engine(ctx));
    }
  }

  /** The columns a not-applied result shows after {@code [applied]} (all for IF NOT EXISTS). */
  private List<String> shown(boolean withKey) {
    Set<String> names = new LinkedHashSet<>();
    if (withKey || kind == Kind.NOT_EXISTS) {
      schema.partitionKey().forEach(c -> names.add(c.name()));
      schema.clustering().forEach(c -> names.add(c.name()));
    }
    if (kind == Kind.NOT_EXISTS) {
      schema.nonKeyColumns().stream().map(ColumnDef::name).sorted().forEach(names::add);
    }
    conditions.forEach(p -> names.add(p.column()));
    return new ArrayList<>(names);
  }

  /**
   * Cassandra's result of a conditional write: {@code [applied]}, then (when not applied and the
   * examined rows exist) one row each with the columns {@code all} show; for a single statement the
   * condition columns, for a batch the primary key with them.
   */
  static CqlResult result(
      ConditionalResult r, List<CqlConditions> all, boolean batch, List<String> warnings) {
    TableSchema s = all.get(0).schema;
    String ks = s.keyspace().orElse("");
    List<CqlColumn> columns = new ArrayList<>();
    columns.add(new CqlColumn(ks, s.name(), "[applied]", ColumnType.of(DataType.BOOLEAN)));
    if (r.applied() || r.currentRows().isEmpty()) {
      RowShape shape = new RowShape(columns);
      return CqlResult.rows(
          columns, List.of(shape.row(new Object[] {r.applied()})), null, warnings);
    }
    Set<String> names = new LinkedHashSet<>();
    for (CqlConditions c : all) {
      if (c.conditional()) {
        names.addAll(c.shown(batch));
      }
    }
    for (String n : names) {
      columns.add(new CqlColumn(ks, s.name(), n, ColumnType.of(s.column(n).orElseThrow().type())));
    }
    RowShape shape = new RowShape(columns);
    List<CqlRow> rows = new ArrayList<>();
    for (ResultRow row : r.currentRows()) {
      Object[] values = new Object[columns.size()];
      values[0] = false;
      int i = 1;
      for (String n : names) {
        values[i++] = row.columns().contains(n) ? row.get(n) : null;
      }
      rows.add(shape.row(values));
    }
    return CqlResult.rows(columns, rows, null, warnings);
  }
}
