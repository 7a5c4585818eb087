package dev.talus.cql.exec.term;

import dev.talus.DataType;
import dev.talus.ResultRow;
import dev.talus.UdtValue;
import dev.talus.ValueOrder;
import dev.talus.cql.ColumnType;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Receiver;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.parse.CqlPrinter;
import dev.talus.cql.parse.ast.Selector;
import dev.talus.cql.parse.ast.SourcePosition;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Selectors of parts of a value: {@code m['k']} (a map's value for a key), {@code s['e']} (the set
 * element if the set holds it) and {@code u.f} (a field of a user type), computed from the whole
 * column's value; null when the collection, the element or the value is absent, as in Cassandra.
 * Slices {@code c[a..b]} of sets and maps; element and slice selection on a list is refused with
 * Cassandra's message. Static, thread-safe.
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
    DataType t = collection(inner, e.position(), "Element", pc);
    boolean map = t.kind() == DataType.Kind.MAP;
    Operand key =
        Terms.prepare(e.key(), Receiver.of("key(" + inner.name() + ")", t.elementType()), pc);
    ColumnType type = ColumnType.of(map ? t.valueType() : t.elementType());
    Operand from = inner.operand();
    Source src = pc.source();
    String column = inner.name();
    Operand op =
        new Operand() {
          @Override
          public Object eval(ExecContext ctx, ResultRow row) {
            Object k = key.eval(ctx, row);
            if (k == null || k == ExecContext.UNSET) {
              String what = k == null ? "null" : "unset";
              throw src.invalid(
                  e.position(), "Invalid " + what + " value for element selection on " + column);
            }
            Object v = from.eval(ctx, row);
            if (v == null) {
              return null;
            }
            Object e = asElement(k);
            if (v instanceof Map<?, ?> m) {
              return plain(m.get(e)); // a blob value reads as byte[], like a blob column
            }
            return ((Set<?>) v).contains(e) ? k : null;
          }

          @Override
          public ColumnType type() {
            return type;
          }
        };
    return new Selectors.Selected(op, inner.name() + "[" + CqlPrinter.print(e.key()) + "]");
  }

  /**
   * {@code c[from..to]}: the elements (set) or entries (map) whose key lies between the bounds,
   * both inclusive, in the collection's order; a missing or unset bound leaves that side open, a
   * null bound is refused when the statement runs. An empty slice of a non-frozen collection is
   * null, of a frozen one the empty collection, as in Cassandra ({@code ElementsSelector}).
   */
  static Selectors.Selected slice(Selector.Slice sl, Selectors.Selected inner, PrepareContext pc) {
    DataType t = collection(inner, sl.position(), "Slice", pc);
    boolean map = t.kind() == DataType.Kind.MAP;
    Receiver keys = Receiver.of("key(" + inner.name() + ")", t.elementType());
    Operand from = sl.from() == null ? null : Terms.prepare(sl.from(), keys, pc);
    Operand to = sl.to() == null ? null : Terms.prepare(sl.to(), keys, pc);
    Comparator<Object> types = ValueOrder.of(t.elementType());
    Comparator<Object> order = (a, b) -> types.compare(plain(a), plain(b));
    boolean frozen = t.isFrozen();
    Source src = pc.source();
    String column = inner.name();
    Operand whole = inner.operand();
    ColumnType type = whole.type();
    Operand op =
        new Operand() {
          @Override
          public Object eval(ExecContext ctx, ResultRow row) {
            Object lo = bound(from, ctx, row);
            Object hi = bound(to, ctx, row);
            Object v = whole.eval(ctx, row);
            if (v == null) {
              return null;
            }
            Collection<?> elements = v instanceof Map<?, ?> m ? m.keySet() : (Collection<?>) v;
            Map<Object, Object> entries = new LinkedHashMap<>();
            for (Object e : elements) {
              if ((lo == null || order.compare(lo, e) <= 0)
                  && (hi == null || order.compare(e, hi) <= 0)) {
                entries.put(e, map ? ((Map<?, ?>) v).get(e) : e);
              }
            }
            if (entries.isEmpty() && !frozen) {
              return null;
            }
            return map
                ? Collections.unmodifiableMap(entries)
                : Collections.unmodifiableSet(entries.keySet());
          }

          private Object bound(Operand b, ExecContext ctx, ResultRow row) {
            if (b == null) {
              return null;
            }
            Object value = b.eval(ctx, row);
            if (value == null) {
              throw src.invalid(
                  sl.position(), "Invalid null value for slice selection on " + column);
            }
            return value == ExecContext.UNSET ? null : value;
          }

          @Override
          public ColumnType type() {
            return type;
          }
        };
    String name =
        column
            + "["
            + (sl.from() == null ? "" : CqlPrinter.print(sl.from()))
            + ".."
            + (sl.to() == null ? "" : CqlPrinter.print(sl.to()))
            + "]";
    return new Selectors.Selected(op, name);
  }

  /** The set or map type of {@code inner}, or Cassandra's refusal of a list or a non-collection. */
  private static DataType collection(
      Selectors.Selected inner, SourcePosition at, String selection, PrepareContext pc) {
    DataType t = dataType(inner);
    if (t == null || (t.kind() != DataType.Kind.MAP && t.kind() != DataType.Kind.SET)) {
      String kind = t != null && t.kind() == DataType.Kind.LIST ? "a list" : "not a collection";
      throw pc.source()
          .invalid(
              at,
              selection
                  + " selection is only allowed on sets and maps, but "
                  + inner.name()
                  + " is "
                  + kind);
    }
    return t;
  }

  /** A key as a collection holds it: inside a composite value a blob is a read-only ByteBuffer. */
  private static Object asElement(Object key) {
    return key instanceof byte[] b ? ByteBuffer.wrap(b.clone()).asReadOnlyBuffer() : key;
  }

  /** A value as the type's order compares it: a blob as its bytes. */
  private static Object plain(Object value) {
    if (value instanceof ByteBuffer b) {
      byte[] bytes = new byte[b.remaining()];
      b.duplicate().get(bytes);
      return bytes;
    }
    return value;
  }

  private static DataType dataType(Selectors.Selected s) {
    return s.operand().type() instanceof ColumnType.Native n ? n.type() : null;
  }
}
