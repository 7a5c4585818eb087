package dev.talus.read;

import dev.talus.ColumnDef;
import dev.talus.DataType;
import dev.talus.InvalidQueryException;
import dev.talus.TableSchema;
import dev.talus.codec.ComplexCodec;
import dev.talus.codec.TypeCodec;
import dev.talus.data.Cell;
import dev.talus.data.Row;
import dev.talus.request.Restriction;
import dev.talus.schema.KeyCodec;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The row-by-row filters: comparisons on clustering columns the slices cannot express, and the
 * opt-in filters on regular and static columns ({@code allowFiltering()}): comparisons, and {@code
 * CONTAINS} / {@code CONTAINS KEY} on collections (set and list elements, map values and keys;
 * frozen or not). Stateless.
 */
final class ValueFilters {
  private ValueFilters() {}

  /** A checked CONTAINS or CONTAINS KEY filter on column {@code c}, its value made canonical. */
  static QueryPlanner.Filter contains(TableSchema s, ColumnDef c, int id, Restriction x) {
    DataType t = c.type();
    boolean key = x.op() == Restriction.Op.CONTAINS_KEY;
    if (key ? t.kind() != DataType.Kind.MAP : !t.isCollection()) {
      throw new InvalidQueryException(
          "Cannot use "
              + x.op().symbol()
              + " on non-"
              + (key ? "map" : "collection")
              + " column "
              + c.name()
              + " of "
              + s.name());
    }
    if (x.value() == null) {
      throw new InvalidQueryException("Unsupported null value for column " + c.name());
    }
    DataType element = key || t.kind() != DataType.Kind.MAP ? t.elementType() : t.valueType();
    try {
      Object v = TypeCodec.nested(element).coerce(x.value());
      return new QueryPlanner.Filter(c, id, x.op(), v);
    } catch (IllegalArgumentException e) {
      throw new InvalidQueryException(
          "bad value for " + x.op().symbol() + " on " + c.name() + ": " + e.getMessage(), e);
    }
  }

  /**
   * A checked {@code m[k] = v} filter on column {@code c} (Cassandra's messages, {@code
   * SingleColumnRelation}): a non-frozen map, neither value null; its value the canonical entry.
   */
  static QueryPlanner.Filter entry(TableSchema s, ColumnDef c, int id, Restriction x) {
    DataType t = c.type();
    if (t.kind() != DataType.Kind.MAP) {
      throw new InvalidQueryException("Column " + c.name() + " cannot be used as a map");
    }
    if (!t.isMultiCell()) {
      throw new InvalidQueryException(
          "Map-entry equality predicates on frozen map column " + c.name() + " are not supported");
    }
    if (x.values().size() != 2 || x.values().get(0) == null) {
      throw new InvalidQueryException("Invalid null map key for column " + c.name());
    }
    if (x.values().get(1) == null) {
      throw new InvalidQueryException("Unsupported null map value for column " + c.name());
    }
    try {
      Object k = TypeCodec.nested(t.elementType()).coerce(x.values().get(0));
      Object v = TypeCodec.nested(t.valueType()).coerce(x.values().get(1));
      return new QueryPlanner.Filter(c, id, x.op(), Map.entry(k, v));
    } catch (IllegalArgumentException e) {
      throw new InvalidQueryException(
          "bad value for " + c.name() + "[key] = value: " + e.getMessage(), e);
    }
  }

  /** Refuses CONTAINS on key columns, which are no collections a filter can look into. */
  static void checkKeyColumn(TableSchema s, ColumnDef c, Restriction x) {
    if (x.op() == Restriction.Op.CONTAINS
        || x.op() == Restriction.Op.CONTAINS_KEY
        || x.op() == Restriction.Op.MAP_ENTRY) {
      throw new InvalidQueryException(
          "Cannot use "
              + x.op().symbol()
              + " on primary key column "
              + c.name()
              + " of "
              + s.name());
    }
  }

  /** The value of a regular or static column in {@code row}, or null. */
  static Object value(KeyCodec keys, ColumnDef c, int id, Row row) {
    if (row == null) {
      return null;
    }
    if (c.type().isMultiCell()) {
      return Projection.assemble(ComplexCodec.of(c.type()), row, id);
    }
    Cell cell = row.cell(id);
    return cell == null ? null : keys.regularCodec(id).deserialize(cell.value());
  }

  /** True if {@code r} (with its partition's static row) passes every filter. */
  static boolean matches(KeyCodec keys, List<QueryPlanner.Filter> filters, Row r, Row statics) {
    if (filters.isEmpty()) {
      return true;
    }
    Object[] clustering = null;
    for (int i = 0; i < filters.size(); i++) {
      QueryPlanner.Filter f = filters.get(i);
      Object v;
      if (f.column().kind() == ColumnDef.Kind.CLUSTERING) {
        if (clustering == null) {
          clustering = keys.decodeClustering(r.clustering());
        }
        v = clustering[f.id()];
      } else {
        v = value(keys, f.column(), f.id(), f.column().isStatic() ? statics : r);
      }
      if (v == null || !test(keys, f, v)) {
        return false;
      }
    }
    return true;
  }

  private static boolean test(KeyCodec keys, QueryPlanner.Filter f, Object v) {
    switch (f.op()) {
      case CONTAINS -> {
        Collection<?> values = v instanceof Map<?, ?> m ? m.values() : (Collection<?>) v;
        return contains(values, f.value());
      }
      case CONTAINS_KEY -> {
        return contains(((Map<?, ?>) v).keySet(), f.value());
      }
      case MAP_ENTRY -> {
        Map.Entry<?, ?> wanted = (Map.Entry<?, ?>) f.value();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
          if (java.util.Objects.deepEquals(e.getKey(), wanted.getKey())) {
            return java.util.Objects.deepEquals(e.getValue(), wanted.getValue());
          }
        }
        return false;
      }
      case ANALYZED_EQ -> {
        return ((Restriction.Analyzed) f.value()).matches(v);
      }
      default -> {
        TypeCodec<?> codec =
            f.column().kind() == ColumnDef.Kind.CLUSTERING
                ? keys.clusteringCodec(f.id())
                : keys.regularCodec(f.id());
        int cmp = codec.compare(v, f.value());
        return switch (f.op()) {
          case EQ -> cmp == 0;
          case GT -> cmp > 0;
          case GE -> cmp >= 0;
          case LT -> cmp < 0;
          case LE -> cmp <= 0;
          default -> false;
        };
      }
    }
  }

  private static boolean contains(Collection<?> values, Object wanted) {
    for (Object o : values) {
      if (java.util.Objects.deepEquals(o, wanted)) {
        return true;
      }
    }
    return false;
  }
}
