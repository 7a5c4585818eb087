package dev.talus.read;

import dev.talus.ColumnDef;
import dev.talus.DataType;
import dev.talus.InvalidQueryException;
import dev.talus.TableSchema;
import dev.talus.UdtValue;
import dev.talus.codec.TypeCodec;
import dev.talus.request.Selector;
import dev.talus.schema.Columns;
import dev.talus.schema.KeyCodec;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Selections of part of a column, checked and compiled once per query shape: an element of a set or
 * map ({@code m['k']}), a range of elements ({@code s['a'..'c']}, inclusive), a field of a user
 * type ({@code u.f}). Each applies to the column's whole value. Stateless.
 */
final class Selections {
  private Selections() {}

  /** One compiled selection: its result name, its column and what it takes from the value. */
  record Part(String name, ColumnDef column, UnaryOperator<Object> apply) {
    Object apply(Object whole) {
      return whole == null ? null : apply.apply(whole);
    }
  }

  static Part[] compile(TableSchema s, KeyCodec keys, List<Selector> selectors) {
    Part[] out = new Part[selectors.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = compile(s, selectors.get(i));
    }
    return out;
  }

  private static Object key(TypeCodec<?> codec, ColumnDef c, Object v) {
    if (v == null) {
      throw new InvalidQueryException("Invalid null value for an element of column " + c.name());
    }
    try {
      return codec.coerce(v);
    } catch (IllegalArgumentException e) {
      throw new InvalidQueryException(
          "bad element for column " + c.name() + ": " + e.getMessage(), e);
    }
  }

  private static Part compile(TableSchema s, Selector sel) {
    ColumnDef c = Columns.column(s, sel.column());
    DataType t = c.type();
    if (sel.kind() == Selector.Kind.FIELD) {
      if (t.kind() != DataType.Kind.UDT) {
        throw new InvalidQueryException(
            "Invalid field selection: "
                + c.name()
                + " of type "
                + t.cqlName()
                + " is not a user type");
      }
      String field = String.valueOf(sel.key());
      int f = t.userType().fieldIndex(field);
      if (f < 0) {
        throw new InvalidQueryException(
            c.name() + " of type " + t.cqlName() + " has no field " + field);
      }
      return new Part(c.name() + "." + field, c, v -> ((UdtValue) v).get(f));
    }
    if (t.kind() != DataType.Kind.SET && t.kind() != DataType.Kind.MAP) {
      throw new InvalidQueryException(
          "Element selection is only allowed on sets and maps, but "
              + c.name()
              + " is a "
              + t.cqlName());
    }
    TypeCodec<?> kc = TypeCodec.nested(t.elementType());
    boolean map = t.kind() == DataType.Kind.MAP;
    if (sel.kind() == Selector.Kind.ELEMENT) {
      Object k = key(kc, c, sel.key());
      return new Part(
          c.name() + "[" + kc.literal(k) + "]",
          c,
          v -> map ? ((Map<?, ?>) v).get(k) : ((Set<?>) v).contains(k) ? k : null);
    }
    Object from = sel.from() == null ? null : key(kc, c, sel.from());
    Object to = sel.to() == null ? null : key(kc, c, sel.to());
    Comparator<Object> order = kc.comparator();
    String name =
        c.name()
            + "["
            + (from == null ? "" : kc.literal(from))
            + ".."
            + (to == null ? "" : kc.literal(to))
            + "]";
    return new Part(
        name,
        c,
        v -> {
          if (map) {
            Map<Object, Object> m = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
              if (inRange(order, e.getKey(), from, to)) {
                m.put(e.getKey(), e.getValue());
              }
            }
            return m.isEmpty() ? null : Collections.unmodifiableMap(m);
          }
          Set<Object> out = new LinkedHashSet<>();
          for (Object e : (Set<?>) v) {
            if (inRange(order, e, from, to)) {
              out.add(e);
            }
          }
          return out.isEmpty() ? null : Collections.unmodifiableSet(out);
        });
  }

  private static boolean inRange(Comparator<Object> order, Object e, Object from, Object to) {
    return (from == null || order.compare(e, from) >= 0)
        && (to == null || order.compare(e, to) <= 0);
  }
}
