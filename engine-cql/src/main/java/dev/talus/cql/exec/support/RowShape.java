package dev.talus.cql.exec.support;

import dev.talus.InvalidQueryException;
import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlRow;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The columns shared by every row of a result, with the lookup of a column by name as CQL matches
 * names (exactly, else ignoring case; {@code "Name"} in double quotes only exactly). Immutable and
 * thread-safe.
 */
public final class RowShape {
  private final List<CqlColumn> columns;
  private final Map<String, Integer> exact = new HashMap<>();
  private final Map<String, Integer> folded = new HashMap<>();

  public RowShape(List<CqlColumn> columns) {
    this.columns = List.copyOf(columns);
    for (int i = columns.size() - 1; i >= 0; i--) {
      exact.put(columns.get(i).name(), i);
      folded.put(columns.get(i).name().toLowerCase(Locale.ROOT), i);
    }
  }

  public List<CqlColumn> columns() {
    return columns;
  }

  /** The position of {@code name}; {@link InvalidQueryException} if no column has it. */
  public int indexOf(String name) {
    Integer i = exact.get(name);
    if (i == null) {
      if (name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")) {
        i = exact.get(name.substring(1, name.length() - 1).replace("\"\"", "\""));
      } else {
        i = folded.get(name.toLowerCase(Locale.ROOT));
      }
    }
    if (i == null) {
      throw new InvalidQueryException(
          "no column "
              + name
              + " in this result; its columns are "
              + columns.stream().map(CqlColumn::name).toList());
    }
    return i;
  }

  /** A row of this shape holding {@code values}. */
  public CqlRow row(Object[] values) {
    return new ValuesRow(this, values);
  }

  private record ValuesRow(RowShape shape, Object[] values) implements CqlRow {
    @Override
    public List<CqlColumn> columns() {
      return shape.columns;
    }

    @Override
    public int indexOf(String name) {
      return shape.indexOf(name);
    }

    @Override
    public Object get(int i) {
      if (i < 0 || i >= values.length) {
        throw new InvalidQueryException(
            "no column at position " + i + "; this row has " + values.length);
      }
      Object v = values[i];
      return v instanceof byte[] b ? b.clone() : v;
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder("Row{");
      for (int i = 0; i < values.length; i++) {
        if (i > 0) {
          sb.append(", ");
        }
        sb.append(shape.columns.get(i).name()).append('=').append(values[i]);
      }
      return sb.append('}').toString();
    }
  }
}
