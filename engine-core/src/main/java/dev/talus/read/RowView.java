package dev.talus.read;

import dev.talus.InvalidQueryException;
import dev.talus.ResultRow;
import dev.talus.data.Cell;
import dev.talus.data.Row;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * A decoded result row: values, write times and TTLs in arrays indexed by the position of their
 * column in the projection, with the name-to-position map shared by every row of a read (a {@link
 * Shape}). Immutable and thread-safe.
 */
final class RowView implements ResultRow {
  /** The selected columns of a read and where each name's value sits. Immutable. */
  static final class Shape {
    private final List<String> columns;
    private final Map<String, Integer> index;
    private final boolean[] primaryKey;

    /** Column → what it is, for the columns without a single write time (collections, counters). */
    private final Map<String, String> noWriteTime;

    /** For a whole non-frozen collection or user type: its column id; else -1. */
    private final int[] complexIds;

    /** For a whole non-frozen user type: its number of fields; else 0. */
    private final int[] udtFields;

    Shape(List<String> columns) {
      this(columns, new boolean[columns.size()]);
    }

    Shape(List<String> columns, boolean[] primaryKey) {
      this(columns, primaryKey, Map.of());
    }

    /**
     * {@code primaryKey[i]}: column i is a partition key or clustering column (it has no cell);
     * {@code noWriteTime}: the columns without a single write time, with what they are.
     */
    Shape(List<String> columns, boolean[] primaryKey, Map<String, String> noWriteTime) {
      this(columns, primaryKey, noWriteTime, null, null);
    }

    /**
     * Like {@link #Shape(List, boolean[], Map)}, with {@code complexIds[i]} the column id of a
     * selected whole non-frozen collection or user type (else -1) and {@code udtFields[i]} the
     * field count of a user type (else 0); null arrays mean none.
     */
    Shape(
        List<String> columns,
        boolean[] primaryKey,
        Map<String, String> noWriteTime,
        int[] complexIds,
        int[] udtFields) {
      int n = columns.size();
      this.complexIds = complexIds != null ? complexIds.clone() : filled(n, -1);
      this.udtFields = udtFields != null ? udtFields.clone() : new int[n];
      this.primaryKey = primaryKey.clone();
      this.noWriteTime = Map.copyOf(noWriteTime);
      this.columns = List.copyOf(columns);
      Map<String, Integer> m = new HashMap<>();
      for (int i = 0; i < this.columns.size(); i++) {
        m.putIfAbsent(this.columns.get(i), i);
      }
      this.index = Map.copyOf(m);
    }

    int size() {
      return columns.size();
    }

    private static int[] filled(int n, int v) {
      int[] a = new int[n];
      Arrays.fill(a, v);
      return a;
    }
  }

  private static final long NO_WRITE_TIME = Long.MIN_VALUE;
  private static final int NO_TTL = Integer.MIN_VALUE;

  private final Shape shape;
  private final Object[] values;
  private final long[] writeTimes;
  private final int[] ttls;
  private final Row[] complexRows;
  private final long now;

  /**
   * {@code values}, {@code writeTimes} and {@code ttls} are indexed like the shape's columns;
   * ownership passes to the view. {@code writeTimes} holds {@link Long#MIN_VALUE} and {@code ttls}
   * {@link Integer#MIN_VALUE} where there is none; either array may be null when none has one.
   */
  RowView(Shape shape, Object[] values, long[] writeTimes, int[] ttls) {
    this(shape, values, writeTimes, ttls, null, 0);
  }

  /**
   * Like {@link #RowView(Shape, Object[], long[], int[])}, with {@code complexRows[i]} the live row
   * holding the cells of the shape's complex column i (null where none, or a null array), whose
   * per-cell write times and TTLs at second {@code now} are read on demand.
   */
  RowView(
      Shape shape, Object[] values, long[] writeTimes, int[] ttls, Row[] complexRows, long now) {
    this.shape = shape;
    this.values = values;
    this.writeTimes = writeTimes;
    this.ttls = ttls;
    this.complexRows = complexRows;
    this.now = now;
  }

  static long noWriteTime() {
    return NO_WRITE_TIME;
  }

  static int noTtl() {
    return NO_TTL;
  }

  @Override
  public List<String> columns() {
    return shape.columns;
  }

  private int check(String column) {
    Integer i = shape.index.get(column);
    if (i == null) {
      throw new InvalidQueryException(
          "column " + column + " is not in this result; selected columns are " + shape.columns);
    }
    return i;
  }

  @Override
  public Object get(String column) {
    Object v = values[check(column)];
    if (v instanceof byte[] b) {
      return b.clone();
    }
    return v instanceof float[] f ? f.clone() : v;
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

  private void checkOneCell(String column, String function) {
    String what = shape.noWriteTime.get(column);
    if (what != null) {
      throw new InvalidQueryException(
          "Cannot use selection function "
              + function
              + " on "
              + what
              + " "
              + column
              + (what.startsWith("counter")
                  ? ""
                  : ": its elements are cells of their own, each with its own write time and TTL;"
                      + " ResultRow.writeTimes(column) and ttls(column) return them, as Cassandra"
                      + " 5.0's writetime() and ttl() of such a column do"));
    }
  }

  @Override
  public Long writeTime(String column) {
    int i = checkCell(column, "writetime");
    checkOneCell(column, "writeTime");
    return writeTimes == null || writeTimes[i] == NO_WRITE_TIME ? null : writeTimes[i];
  }

  @Override
  public Integer ttl(String column) {
    int i = checkCell(column, "ttl");
    checkOneCell(column, "ttl");
    return ttls == null || ttls[i] == NO_TTL ? null : ttls[i];
  }

  @Override
  public List<Long> writeTimes(String column) {
    return perCell(column, "writetime", false);
  }

  @Override
  public List<Integer> ttls(String column) {
    return perCell(column, "ttl", true);
  }

  /** The write times (or TTLs) of the cells of a whole non-frozen collection or user type. */
  @SuppressWarnings("unchecked")
  private <T> List<T> perCell(String column, String function, boolean ttl) {
    int i = checkCell(column, function);
    int id = shape.complexIds[i];
    if (id < 0) {
      throw new InvalidQueryException(
          (ttl ? "ttls" : "writeTimes")
              + "() of "
              + column
              + " is undefined: it returns one entry per cell of a non-frozen collection or user"
              + " type, and "
              + column
              + " is "
              + (shape.noWriteTime.containsKey(column)
                  ? shape.noWriteTime.get(column)
                  : "stored in one cell")
              + ". Use "
              + (ttl ? "ttl" : "writeTime")
              + "(column) for a column stored in one cell");
    }
    Row r = complexRows == null ? null : complexRows[i];
    int at = r == null ? -1 : r.firstCellIndex(id);
    if (at < 0) {
      return null;
    }
    Cell[] cells = r.cells();
    int fields = shape.udtFields[i];
    List<Object> out = new ArrayList<>(fields > 0 ? fields : 4);
    for (int f = 0; f < fields; f++) {
      out.add(null);
    }
    for (; at < cells.length && cells[at].column() == id; at++) {
      Cell c = cells[at];
      Object v;
      if (!ttl) {
        v = c.timestamp();
      } else {
        v = c.isExpiring() ? (Object) (int) (c.localDeletionTime() - now) : null;
      }
      if (fields > 0) {
        byte[] p = c.path();
        out.set(((p[0] & 0xFF) << 8) | (p[1] & 0xFF), v);
      } else {
        out.add(v);
      }
    }
    return (List<T>) Collections.unmodifiableList(out);
  }

  /** The position of {@code column}, which must be a selected column that is stored in a cell. */
  private int checkCell(String column, String function) {
    int i = check(column);
    if (shape.primaryKey[i]) {
      throw new InvalidQueryException(
          function
              + "() of "
              + column
              + " is undefined: "
              + column
              + " is a primary key column, stored in the key and not in a cell, so it has no write"
              + " time or TTL. Cassandra refuses it too (\"Cannot use selection function "
              + function
              + " on PRIMARY KEY part "
              + column
              + "\"). Ask for a regular column's "
              + function
              + "() instead");
    }
    return i;
  }

  private Object value(String column) {
    Integer i = shape.index.get(column);
    return i == null ? null : values[i];
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RowView r) || !r.shape.columns.equals(shape.columns)) {
      return false;
    }
    for (String c : shape.columns) {
      if (!java.util.Objects.deepEquals(value(c), r.value(c))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    return shape.columns.hashCode();
  }

  @Override
  public String toString() {
    StringJoiner j = new StringJoiner(", ", "{", "}");
    for (String c : shape.columns) {
      Object v = value(c);
      j.add(c + "=" + (v instanceof byte[] b ? Arrays.toString(b) : v));
    }
    return j.toString();
  }
}
