package dev.talus.cql.exec.term;

import dev.talus.DataType;
import dev.talus.ResultRow;
import dev.talus.UdtValue;
import dev.talus.cql.ColumnType;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Receiver;
import dev.talus.cql.parse.CqlPrinter;
import dev.talus.cql.parse.ast.Selector;
import java.util.Map;
import java.util.Set;

/**
 * Selectors of parts of a value: {@code m['k']} (a map's value for a key), {@code s['e']} (the set
 * element if the set holds it) and {@code u.f} (a field of a user type), computed from the whole
 * column's value; null when the collection, the element or the value is absent, as in Cassandra.
 * Element selection on a list is refused with Cassandra's message. Static, thread-safe.
 */
final class Parts {
  private Parts() {}

  static Selectors.Selected field(Selector.Field f, Selectors.Selected inner, PrepareContext pc) {
    DataType t = dataType(inner);
    String field = f.field().name();
    if (t == null || t.kind() != DataType.Kind.UDT) {
      throw pc.source()
          .invalid(
              f.field(),
              "Invalid field selection: "
                  + inner.name()
                  + " of type "
                  + inner.operand().type().cql()
                  + " is not a user type");
    }
    int i = t.userType().fieldIndex(field);
    if (i < 0) {
      throw pc.source().invalid(f.field(), t.userType().name() + " has no field " + field);
    }
    ColumnType type = ColumnType.of(t.userType().fieldTypes().get(i));
    Operand from = inner.operand();
    Operand op =
        new Operand() {
          @Override
          public Object eval(ExecContext ctx, ResultRow row) {
            Object v = from.eval(ctx, row);
            return v instanceof UdtValue u ? u.get(i) : null;
          }

          @Override
          public ColumnType type() {
            return type;
          }
        };
    return new Selectors.Selected(op, inner.name() + "." + CqlPrinter.quoteName(field));
  }

  static Selectors.Selected element(
      Selector.Element e, Selectors.Selected inner, PrepareContext pc) {
    DataType t = dataType(inner);
    if (t == null || (t.kind() != DataType.Kind.MAP && t.kind() != DataType.Kind.SET)) {
      String kind = t != null && t.kind() == DataType.Kind.LIST ? "a list" : "not a collection";
      throw pc.source()
          .invalid(
              e.position(),
              "Element selection is only allowed on sets and maps, but "
                  + inner.name()
                  + " is "
                  + kind);
    }
    boolean map = t.kind() == DataType.Kind.MAP;
    Operand key =
        Terms.prepare(e.key(), Receiver.of("key(" + inner.name() + ")", t.elementType()), pc);
    ColumnType type = ColumnType.of(map ? t.valueType() : t.elementType());
    Operand from = inner.operand();
    Operand op =
        new Operand() {
          @Override
          public Object eval(ExecContext ctx, ResultRow row) {
            Object v = from.eval(ctx, row);
            Object k = key.eval(ctx, row);
            if (v == null || k == null || k == ExecContext.UNSET) {
              return null;
            }
            if (v instanceof Map<?, ?> m) {
              return m.get(k);
            }
            return ((Set<?>) v).contains(k) ? k : null;
          }

          @Override
          public ColumnType type() {
            return type;
          }
        };
    return new Selectors.Selected(op, inner.name() + "[" + CqlPrinter.print(e.key()) + "]");
  }

  private static DataType dataType(Selectors.Selected s) {
    return s.operand().type() instanceof ColumnType.Native n ? n.type() : null;
  }
}
