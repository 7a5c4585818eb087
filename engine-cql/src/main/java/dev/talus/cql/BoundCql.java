package dev.talus.cql;

import dev.talus.PagingState;
import dev.talus.cql.exec.support.ExecContext;
import java.util.ArrayList;
import java.util.List;

/**
 * A prepared statement with its values and execution options: the page size, where to resume, a
 * default write timestamp. Each setter returns a new bound statement; this one does not change.
 * Values are the Java classes of the markers' types ({@link dev.talus.DataType}; any integral
 * {@link Number} for an integer type), {@code null} (a tombstone in a write), or {@link #UNSET} —
 * an unset value leaves a column unwritten, a TTL at the table's default, a timestamp at the
 * clock's, a LIMIT off, and is an error in a {@code WHERE} clause.
 *
 * <p>Immutable and thread-safe.
 */
public final class BoundCql {
  /** The value of an unset marker (the native protocol's "unset"). */
  public static final Object UNSET = ExecContext.UNSET;

  private final PreparedCql prepared;
  private final Object[] values;
  private final int fetchSize;
  private final PagingState pagingState;
  private final Long timestamp;

  BoundCql(
      PreparedCql prepared,
      Object[] values,
      int fetchSize,
      PagingState pagingState,
      Long timestamp) {
    this.prepared = prepared;
    this.values = values;
    this.fetchSize = fetchSize;
    this.pagingState = pagingState;
    this.timestamp = timestamp;
  }

  public PreparedCql prepared() {
    return prepared;
  }

  /** The value of marker {@code i} ({@link #UNSET} if unset). */
  public Object value(int i) {
    check(i);
    return values[i];
  }

  /** A copy with marker {@code i} set to {@code value}. */
  public BoundCql set(int i, Object value) {
    check(i);
    Object[] v = values.clone();
    v[i] = value;
    return new BoundCql(prepared, v, fetchSize, pagingState, timestamp);
  }

  /**
   * A copy with every marker named {@code name} set to {@code value}: a {@code :name} marker, or a
   * {@code ?} bound to the column {@code name} (names matched as CQL matches them).
   */
  public BoundCql set(String name, Object value) {
    List<Integer> at = indexesOf(name);
    Object[] v = values.clone();
    for (int i : at) {
      v[i] = value;
    }
    return new BoundCql(prepared, v, fetchSize, pagingState, timestamp);
  }

  /** A copy with marker {@code i} unset. */
  public BoundCql unset(int i) {
    return set(i, UNSET);
  }

  /** A copy with the markers named {@code name} unset. */
  public BoundCql unset(String name) {
    return set(name, UNSET);
  }

  /**
   * A copy that returns at most {@code rows} rows per page ({@code 0} or less: everything in one
   * page). The session's default applies otherwise.
   */
  public BoundCql fetchSize(int rows) {
    return new BoundCql(prepared, values, rows, pagingState, timestamp);
  }

  /** A copy that resumes after the page that produced {@code state}. */
  public BoundCql pagingState(PagingState state) {
    return new BoundCql(prepared, values, fetchSize, state, timestamp);
  }

  /**
   * A copy whose writes, when they give no {@code USING TIMESTAMP}, use this timestamp
   * (microseconds) instead of the clock's.
   */
  public BoundCql timestamp(long micros) {
    return new BoundCql(prepared, values, fetchSize, pagingState, micros);
  }

  /** Executes in the prepared statement's session. */
  public CqlResult execute() {
    return prepared.session().execute(this);
  }

  Object[] values() {
    return values;
  }

  int fetchSizeOrAll() {
    return fetchSize <= 0 ? Integer.MAX_VALUE : fetchSize;
  }

  PagingState pagingStateOrNull() {
    return pagingState;
  }

  Long timestampOrNull() {
    return timestamp;
  }

  private void check(int i) {
    if (i < 0 || i >= values.length) {
      throw new CqlInvalidRequestException(
          "no bind marker at index " + i + "; the statement has " + values.length);
    }
  }

  private List<Integer> indexesOf(String name) {
    List<CqlColumn> vars = prepared.variables();
    List<Integer> out = new ArrayList<>();
    boolean quoted = name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"");
    String exact = quoted ? name.substring(1, name.length() - 1) : name;
    for (int i = 0; i < vars.size(); i++) {
      if (vars.get(i).name().equals(exact)) {
        out.add(i);
      }
    }
    if (out.isEmpty() && !quoted) {
      for (int i = 0; i < vars.size(); i++) {
        if (vars.get(i).name().equalsIgnoreCase(name)) {
          out.add(i);
        }
      }
    }
    if (out.isEmpty()) {
      throw new CqlInvalidRequestException(
          "no bind marker named "
              + name
              + "; the statement's are "
              + vars.stream().map(CqlColumn::name).toList());
    }
    return out;
  }
}
