package dev.talus.db;

import dev.talus.ColumnDef;
import dev.talus.Condition;
import dev.talus.DataType;
import dev.talus.InvalidQueryException;
import dev.talus.TableSchema;
import dev.talus.UdtValue;
import dev.talus.codec.TypeCodec;
import dev.talus.schema.Columns;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The checking half of conditional writes: validates each {@link Condition} against the schema
 * (column, element access, values made canonical) and evaluates it on a current value, with
 * Cassandra's rules for absent values (see {@link Condition}). Internal: the API's conditional
 * writes use it. Stateless.
 */
public final class ConditionChecks {
  private ConditionChecks() {}

  /** A validated condition: its column, canonical element key and values, and their codec. */
  public record Checked(
      Condition condition, ColumnDef column, Object key, TypeCodec<?> codec, List<Object> values) {

    /** True if the condition holds for the column's current value (null if absent). */
    public boolean holds(Object columnValue) {
      Object v = condition.isElement() ? element(columnValue) : columnValue;
      v = emptyAsNull(column, v, condition.isElement());
      Condition.Op op = condition.op();
      switch (op) {
        case CONTAINS, CONTAINS_KEY:
          if (v == null) {
            return false;
          }
          Collection<?> among =
              v instanceof Map<?, ?> m
                  ? (op == Condition.Op.CONTAINS_KEY ? m.keySet() : m.values())
                  : (Collection<?>) v;
          for (Object e : among) {
            if (equal(e, values.get(0))) {
              return true;
            }
          }
          return false;
        case EQ:
          return equal(v, values.get(0));
        case NE:
          return !equal(v, values.get(0));
        case IN:
          for (Object candidate : values) {
            if (equal(v, candidate)) {
              return true;
            }
          }
          return false;
        default:
          if (v == null) {
            return false;
          }
          int cmp = codec.compare(v, values.get(0));
          return switch (op) {
            case LT -> cmp < 0;
            case LE -> cmp <= 0;
            case GT -> cmp > 0;
            default -> cmp >= 0;
          };
      }
    }

    private boolean equal(Object current, Object wanted) {
      if (current == null || wanted == null) {
        return current == wanted;
      }
      return codec.type().canBeKey()
          ? codec.compare(current, wanted) == 0
          : java.util.Objects.deepEquals(current, wanted);
    }

    private Object element(Object columnValue) {
      if (columnValue == null) {
        return null;
      }
      DataType t = column.type();
      switch (t.kind()) {
        case MAP:
          TypeCodec<?> keys = TypeCodec.nested(t.elementType());
          for (Map.Entry<?, ?> e : ((Map<?, ?>) columnValue).entrySet()) {
            if (keys.compare(e.getKey(), key) == 0) {
              return e.getValue();
            }
          }
          return null;
        case LIST:
          List<?> list = (List<?>) columnValue;
          int i = (Integer) key;
          return i < list.size() ? list.get(i) : null;
        default:
          return ((UdtValue) columnValue).get((String) key);
      }
    }
  }

  /** Validates {@code cond} on table {@code s}. */
  public static Checked check(TableSchema s, Condition cond) {
    ColumnDef c = Columns.column(s, cond.columnName());
    if (c.isPrimaryKey()) {
      throw new InvalidQueryException(
          "PRIMARY KEY column '" + c.name() + "' cannot have IF conditions");
    }
    DataType type = c.type();
    Object key = null;
    if (cond.op() == Condition.Op.CONTAINS || cond.op() == Condition.Op.CONTAINS_KEY) {
      return checkContains(c, cond);
    }
    if (cond.isElement()) {
      DataType elementType;
      switch (type.kind()) {
        case MAP -> {
          key = canonical(c, TypeCodec.nested(type.elementType()), cond.elementKey());
          elementType = type.valueType();
        }
        case LIST -> {
          if (!(cond.elementKey() instanceof Integer i)) {
            throw new InvalidQueryException(
                "Invalid list index " + cond.elementKey() + " for " + c.name() + ": an int");
          }
          if (i < 0) {
            throw new InvalidQueryException("Invalid negative list index " + i);
          }
          key = i;
          elementType = type.elementType();
        }
        case UDT -> {
          if (!(cond.elementKey() instanceof String f)
              || !type.userType().fieldNames().contains(f)) {
            throw new InvalidQueryException(
                "Unknown field " + cond.elementKey() + " in user type " + type.cqlName());
          }
          key = f;
          elementType = type.userType().fieldType(f);
        }
        default ->
            throw new InvalidQueryException(
                "Invalid element access in a condition on "
                    + c.name()
                    + " of type "
                    + type.cqlName()
                    + ": only map keys, list positions and user type fields can be examined");
      }
      type = elementType;
    }
    TypeCodec<?> codec = cond.isElement() ? TypeCodec.nested(type) : TypeCodec.of(type);
    if (cond.op().isSlice()) {
      if (cond.values().get(0) == null) {
        throw new InvalidQueryException(
            "Invalid comparison with null for operator \"" + cond.op().symbol() + "\"");
      }
      if (type.kind() == DataType.Kind.DURATION) {
        throw new InvalidQueryException(
            "Slice conditions (" + cond.op().symbol() + ") are not supported on durations");
      }
      if (!type.canBeKey()) {
        throw new InvalidQueryException(
            "Slice conditions ("
                + cond.op().symbol()
                + ") are not supported on "
                + type.cqlName()
                + " values: Talus orders only the values a primary key can hold (freeze the"
                + " column to compare it)");
      }
    }
    List<Object> values = new ArrayList<>(cond.values().size());
    for (Object v : cond.values()) {
      Object canonical = v == null ? null : canonical(c, codec, v);
      values.add(emptyAsNull(c, canonical, cond.isElement()));
    }
    return new Checked(cond, c, key, codec, nullable(values));
  }

  /** {@code CONTAINS} / {@code CONTAINS KEY} on a whole collection column, as Cassandra 5.0. */
  private static Checked checkContains(ColumnDef c, Condition cond) {
    boolean key = cond.op() == Condition.Op.CONTAINS_KEY;
    DataType t = c.type();
    boolean collection =
        t.kind() == DataType.Kind.LIST
            || t.kind() == DataType.Kind.SET
            || t.kind() == DataType.Kind.MAP;
    if (cond.isElement() || !collection || (key && t.kind() != DataType.Kind.MAP)) {
      throw new InvalidQueryException(
          key
              ? "Cannot use CONTAINS KEY on non-map column " + c.name()
              : "Cannot use CONTAINS on non-collection column " + c.name());
    }
    Object v = cond.values().get(0);
    if (v == null) {
      throw new InvalidQueryException(
          "Invalid null value for " + cond.op().symbol() + " condition on " + c.name());
    }
    DataType element = t.kind() == DataType.Kind.MAP && !key ? t.valueType() : t.elementType();
    TypeCodec<?> codec = TypeCodec.nested(element);
    return new Checked(cond, c, null, codec, List.of(canonical(c, codec, v)));
  }

  /** The column named {@code name}; {@link InvalidQueryException} if there is none. */
  public static ColumnDef column(TableSchema s, String name) {
    return Columns.column(s, name);
  }

  /** {@code value} as primary key column {@code c}'s canonical value (never null). */
  public static Object keyValue(TableSchema s, ColumnDef c, Object value) {
    return Columns.keyValue(s, c, value);
  }

  private static List<Object> nullable(List<Object> values) {
    // List.copyOf refuses nulls: keep them behind an unmodifiable view instead
    return java.util.Collections.unmodifiableList(values);
  }

  private static Object canonical(ColumnDef c, TypeCodec<?> codec, Object v) {
    try {
      return codec.coerce(v);
    } catch (IllegalArgumentException | ClassCastException e) {
      throw new InvalidQueryException(
          "bad value in a condition on " + c.name() + ": " + e.getMessage(), e);
    }
  }

  /** An empty non-frozen collection is no value, as in Cassandra. */
  private static Object emptyAsNull(ColumnDef c, Object v, boolean element) {
    if (!element && c.type().isMultiCell()) {
      if (v instanceof Collection<?> col && col.isEmpty()) {
        return null;
      }
      if (v instanceof Map<?, ?> m && m.isEmpty()) {
        return null;
      }
    }
    return v;
  }
}
