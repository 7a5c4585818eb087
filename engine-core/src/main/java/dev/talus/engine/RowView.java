package dev.talus.engine;

import dev.talus.InvalidQueryException;
import dev.talus.ResultRow;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/** A decoded result row. Immutable and thread-safe. */
final class RowView implements ResultRow {
  private final List<String> columns;
  private final Map<String, Object> values;
  private final Map<String, Long> writeTimes;
  private final Map<String, Integer> ttls;

  RowView(
      List<String> columns,
      Map<String, Object> values,
      Map<String, Long> writeTimes,
      Map<String, Integer> ttls) {
    this.columns = columns;
    this.values = values;
    this.writeTimes = writeTimes;
    this.ttls = ttls;
  }

  @Override
  public List<String> columns() {
    return columns;
  }

  private void check(String column) {
    if (!values.containsKey(column) && !columns.contains(column)) {
      throw new InvalidQueryException(
          "column " + column + " is not in this result; selected columns are " + columns);
    }
  }

  @Override
  public Object get(String column) {
    check(column);
    Object v = values.get(column);
    return v instanceof byte[] b ? b.clone() : v;
  }

  @Override
  public <T> T get(String column, Class<T> type) {
    Object v = get(column);
    if (v == null) {
      return null;
    }
    if (!type.isInstance(v)) {
      throw new InvalidQueryException(
          "column "
              + column
              + " holds a "
              + v.getClass().getSimpleName()
              + ", not a "
              + type.getSimpleName());
    }
    return type.cast(v);
  }

  @Override
  public Long writeTime(String column) {
    check(column);
    return writeTimes.get(column);
  }

  @Override
  public Integer ttl(String column) {
    check(column);
    return ttls.get(column);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RowView r) || !r.columns.equals(columns)) {
      return false;
    }
    for (String c : columns) {
      if (!java.util.Objects.deepEquals(values.get(c), r.values.get(c))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    return columns.hashCode();
  }

  @Override
  public String toString() {
    StringJoiner j = new StringJoiner(", ", "{", "}");
    for (String c : columns) {
      Object v = values.get(c);
      j.add(c + "=" + (v instanceof byte[] b ? Arrays.toString(b) : v));
    }
    return j.toString();
  }
}
