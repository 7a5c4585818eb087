package dev.talus.cql.exec.dml;

import dev.talus.DataType;
import dev.talus.Update;
import dev.talus.cql.ColumnType;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Receiver;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.exec.support.TableInfo;
import dev.talus.cql.exec.term.Operand;
import dev.talus.cql.exec.term.Terms;
import dev.talus.cql.parse.CqlPrinter;
import dev.talus.cql.parse.ast.ColumnRef;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.Operation;
import dev.talus.cql.parse.ast.Term;
import java.util.List;

/**
 * The assignments of an {@code UPDATE ... SET}, prepared into the engine's update operations with
 * Cassandra's rules and wording ({@code Operation} and its subclasses in Cassandra 5.0): {@code c =
 * v}; {@code c = c + v} and {@code c = c - v} on counters (increment, decrement) and non-frozen
 * collections (add, remove: a map removes the keys of a set); {@code l = v + l} (prepend); {@code
 * m[k] = v} and {@code l[i] = v} (put); {@code u.f = v} (a field of a non-frozen user type). An
 * unset value skips its assignment. Immutable and thread-safe.
 */
final class SetOperations {
  private SetOperations() {}

  /** One prepared assignment. */
  abstract static class ColumnOp {
    final String column;
    boolean isStatic;

    ColumnOp(String column) {
      this.column = column;
    }

    /** The values of this execution, or null when the assignment is unset (skipped). */
    abstract Object[] eval(ExecContext ctx);

    /** Adds the assignment to one row's update. */
    abstract void apply(Update u, Object[] values);
  }

  private enum Kind {
    SET,
    ADD,
    REMOVE,
    PREPEND,
    INCREMENT,
    DECREMENT
  }

  /** Prepares {@code op} on column {@code c} (not a key column). */
  static ColumnOp prepare(
      Operation op, TableInfo.Column c, TableInfo info, PrepareContext pc, Source src) {
    ColumnOp prepared = prepareOp(op, c, info, pc, src);
    prepared.isStatic = c.kind() == TableInfo.Kind.STATIC;
    return prepared;
  }

  private static ColumnOp prepareOp(
      Operation op, TableInfo.Column c, TableInfo info, PrepareContext pc, Source src) {
    DataType t = ((ColumnType.Native) c.type()).type();
    String q = CqlPrinter.quoteName(c.name());
    Receiver receiver = info.receiver(c);
    boolean counter = t == DataType.COUNTER;
    if (op instanceof Operation.Assign a && a.target() instanceof ColumnRef.Whole) {
      if (counter) {
        throw src.invalid(
            op.column(),
            "Cannot set the value of counter column "
                + q
                + " (counters can only be incremented/decremented, not set)");
      }
      return simple(Kind.SET, c.name(), Terms.prepare(a.value(), receiver, pc), src, op.column());
    }
    if (op instanceof Operation.Assign a && a.target() instanceof ColumnRef.Element e) {
      return element(e, a.value(), c, t, receiver, pc, src);
    }
    if (op instanceof Operation.Assign a && a.target() instanceof ColumnRef.Field f) {
      String text = q + "." + CqlPrinter.quoteName(f.field().name());
      if (t.kind() != DataType.Kind.UDT) {
        throw src.invalid(
            op.column(), "Invalid operation (" + text + " = ...) for non-UDT column " + q);
      }
      if (!t.isMultiCell()) {
        throw src.invalid(
            op.column(), "Invalid operation (" + text + " = ...) for frozen UDT column " + q);
      }
      String field = f.field().name();
      if (t.userType().fieldIndex(field) < 0) {
        throw src.invalid(f.field(), "UDT column " + q + " does not have a field named " + field);
      }
      Receiver r =
          receiver.as(c.name() + "." + field, ColumnType.of(t.userType().fieldType(field)));
      Operand value = Terms.prepare(a.value(), r, pc);
      return put(
          c.name(),
          Operand.constant(field, ColumnType.of(DataType.TEXT)),
          value,
          src,
          op.column(),
          "field");
    }
    boolean add = op instanceof Operation.Add;
    boolean prepend = op instanceof Operation.Prepend;
    String sign = add ? "+" : "-";
    Term value =
        op instanceof Operation.Add x
            ? x.value()
            : op instanceof Operation.Subtract x ? x.value() : ((Operation.Prepend) op).value();
    String text = prepend ? q + " = ... + " + q : q + " = " + q + " " + sign + " ...";
    if (counter && !prepend) {
      Operand delta =
          Terms.prepare(value, receiver.as(c.name(), ColumnType.of(DataType.BIGINT)), pc);
      return simple(add ? Kind.INCREMENT : Kind.DECREMENT, c.name(), delta, src, op.column());
    }
    if (prepend && t.kind() != DataType.Kind.LIST) {
      throw src.invalid(op.column(), "Invalid operation (" + text + ") for non list column " + q);
    }
    if (!t.isCollection()) {
      throw src.invalid(
          op.column(), "Invalid operation (" + text + ") for non counter column " + q);
    }
    if (!t.isMultiCell()) {
      throw src.invalid(
          op.column(), "Invalid operation (" + text + ") for frozen collection column " + q);
    }
    Receiver r = receiver;
    if (!add && !prepend && t.kind() == DataType.Kind.MAP) {
      // m = m - {k1, k2}: a set of keys
      r = receiver.as(c.name(), ColumnType.of(DataType.set(t.elementType())));
    }
    Operand v = Terms.prepare(value, r, pc);
    return simple(
        prepend ? Kind.PREPEND : add ? Kind.ADD : Kind.REMOVE, c.name(), v, src, op.column());
  }

  private static ColumnOp element(
      ColumnRef.Element e,
      Term value,
      TableInfo.Column c,
      DataType t,
      Receiver receiver,
      PrepareContext pc,
      Source src) {
    String q = CqlPrinter.quoteName(c.name());
    String text = q + "[" + CqlPrinter.print(e.key()) + "] = ...";
    if (!t.isCollection()) {
      throw src.invalid(
          e.column(), "Invalid operation (" + text + ") for non collection column " + q);
    }
    if (!t.isMultiCell()) {
      throw src.invalid(
          e.column(), "Invalid operation (" + text + ") for frozen collection column " + q);
    }
    if (t.kind() == DataType.Kind.SET) {
      throw src.invalid(e.column(), "Invalid operation (" + text + ") for set column " + q);
    }
    boolean list = t.kind() == DataType.Kind.LIST;
    Operand key =
        Terms.prepare(
            e.key(),
            receiver.as(
                list ? "idx(" + c.name() + ")" : "key(" + c.name() + ")",
                ColumnType.of(list ? DataType.INT : t.elementType())),
            pc);
    Operand v =
        Terms.prepare(
            value,
            receiver.as(
                "value(" + c.name() + ")", ColumnType.of(list ? t.elementType() : t.valueType())),
            pc);
    return put(c.name(), key, v, src, e.column(), list ? "list index" : "map key");
  }

  private static ColumnOp simple(
      Kind kind, String column, Operand value, Source src, Identifier at) {
    return new ColumnOp(column) {
      @Override
      Object[] eval(ExecContext ctx) {
        Object v = value.eval(ctx, null);
        if (v == ExecContext.UNSET) {
          return null;
        }
        if (v == null && (kind == Kind.INCREMENT || kind == Kind.DECREMENT)) {
          throw src.invalid(at, "Invalid null value for counter increment");
        }
        return new Object[] {v};
      }

      @Override
      void apply(Update u, Object[] v) {
        switch (kind) {
          case SET -> u.set(column, v[0]);
          case INCREMENT -> u.increment(column, ((Number) v[0]).longValue());
          case DECREMENT -> u.decrement(column, ((Number) v[0]).longValue());
          case ADD -> {
            if (v[0] != null) {
              u.add(column, v[0]);
            }
          }
          case REMOVE -> {
            if (v[0] != null) {
              u.remove(column, v[0]);
            }
          }
          case PREPEND -> {
            if (v[0] != null) {
              u.prepend(column, (List<?>) v[0]);
            }
          }
        }
      }
    };
  }

  private static ColumnOp put(
      String column, Operand key, Operand value, Source src, Identifier at, String what) {
    return new ColumnOp(column) {
      @Override
      Object[] eval(ExecContext ctx) {
        Object k = key.eval(ctx, null);
        if (k == null || k == ExecContext.UNSET) {
          throw src.invalid(at, "Invalid " + (k == null ? "null" : "unset") + " value for " + what);
        }
        Object v = value.eval(ctx, null);
        return v == ExecContext.UNSET ? null : new Object[] {k, v};
      }

      @Override
      void apply(Update u, Object[] v) {
        u.put(column, v[0], v[1]);
      }
    };
  }

  /**
   * One element deletion of a {@code DELETE}: {@code m[k]}, {@code l[i]}, {@code s[e]} of a
   * non-frozen collection, {@code u.f} of a non-frozen user type.
   *
   * @param column the column
   * @param operand the key, index, element or field name
   * @param src for errors at execution
   * @param at where the column was written
   */
  record Deletion(String column, Operand operand, Source src, Identifier at) {
    Object key(ExecContext ctx) {
      Object k = operand.eval(ctx, null);
      if (k == null || k == ExecContext.UNSET) {
        throw src.invalid(
            at,
            "Invalid "
                + (k == null ? "null" : "unset")
                + " value for the element of "
                + CqlPrinter.quoteName(column)
                + " to delete");
      }
      return k;
    }
  }

  /** Prepares the deletion of an element or field. */
  static Deletion deletion(
      ColumnRef target, TableInfo.Column c, TableInfo info, PrepareContext pc, Source src) {
    DataType t = ((ColumnType.Native) c.type()).type();
    String q = CqlPrinter.quoteName(c.name());
    if (target instanceof ColumnRef.Field f) {
      String field = f.field().name();
      if (t.kind() != DataType.Kind.UDT) {
        throw src.invalid(target.column(), "Invalid deletion operation for non-UDT column " + q);
      }
      if (!t.isMultiCell()) {
        throw src.invalid(
            target.column(), "Frozen UDT column " + q + " does not support field deletion");
      }
      if (t.userType().fieldIndex(field) < 0) {
        throw src.invalid(f.field(), "UDT column " + q + " does not have a field named " + field);
      }
      return new Deletion(
          c.name(), Operand.constant(field, ColumnType.of(DataType.TEXT)), src, target.column());
    }
    ColumnRef.Element e = (ColumnRef.Element) target;
    if (!t.isCollection()) {
      throw src.invalid(
          target.column(), "Invalid deletion operation for non collection column " + q);
    }
    if (!t.isMultiCell()) {
      throw src.invalid(
          target.column(), "Invalid deletion operation for frozen collection column " + q);
    }
    DataType keyType = t.kind() == DataType.Kind.LIST ? DataType.INT : t.elementType();
    String name = (t.kind() == DataType.Kind.LIST ? "idx(" : "key(") + c.name() + ")";
    Operand key = Terms.prepare(e.key(), info.receiver(c).as(name, ColumnType.of(keyType)), pc);
    return new Deletion(c.name(), key, src, target.column());
  }
}
