package dev.talus.cql.exec.term;

import dev.talus.DataType;
import dev.talus.ResultRow;
import dev.talus.cql.ColumnType;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.parse.ast.Selector;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * {@code writetime()}, {@code maxwritetime()} and {@code ttl()} of a non-frozen collection or user
 * type, of one of its elements or fields, or of a slice, as Cassandra 5.0 computes them from the
 * cells ({@code WritetimeOrTTLSelector}, {@code ElementsSelector}): a list with one entry per cell
 * for a whole column or a slice, one value for an element or a field, the greatest write time for
 * {@code maxwritetime}. Null when the column, element or field has no cell. Static, thread-safe.
 */
final class CellTimes {
  private CellTimes() {}

  /**
   * The operand of one call.
   *
   * @param column the multi-cell column
   * @param kind which function
   * @param part the selected element or slice (the keys of its value pick the cells), or null
   * @param single whether one value is returned (an element or a field) rather than a list
   * @param field the field index for {@code u.f}, or -1
   * @return the operand, thread-safe
   */
  static Operand of(
      String column, Selector.MetadataKind kind, Operand part, boolean single, int field) {
    boolean ttl = kind == Selector.MetadataKind.TTL;
    boolean max = kind == Selector.MetadataKind.MAXWRITETIME;
    DataType each = ttl ? DataType.INT : DataType.BIGINT;
    ColumnType type = ColumnType.of(single || max ? each : DataType.list(each));
    BiFunction<ResultRow, String, List<?>> cells =
        ttl ? (r, c) -> r.ttls(c) : (r, c) -> r.writeTimes(c);
    return new Operand() {
      @Override
      public Object eval(ExecContext ctx, ResultRow row) {
        List<?> all = cells.apply(row, column);
        if (all == null) {
          return null;
        }
        List<Object> picked = new ArrayList<>();
        if (field >= 0) {
          picked.add(field < all.size() ? all.get(field) : null);
        } else if (part == null) {
          picked.addAll(all);
        } else {
          Object whole = row.get(column);
          Object sub = part.eval(ctx, row);
          if (whole == null || sub == null) {
            return null;
          }
          Collection<?> keys = sub instanceof Map<?, ?> m ? m.keySet() : (Collection<?>) sub;
          int i = 0;
          for (Object e : whole instanceof Map<?, ?> m ? m.keySet() : (Collection<?>) whole) {
            if (keys.contains(e)) {
              picked.add(all.get(i));
            }
            i++;
          }
          if (picked.isEmpty()) {
            return null;
          }
        }
        if (max) {
          Long best = null;
          for (Object t : picked) {
            if (t != null && (best == null || (Long) t > best)) {
              best = (Long) t;
            }
          }
          return best;
        }
        return single ? picked.get(0) : Collections.unmodifiableList(picked);
      }

      @Override
      public ColumnType type() {
        return type;
      }
    };
  }
}
