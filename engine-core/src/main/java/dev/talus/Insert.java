package dev.talus;

import dev.talus.request.WriteRequest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An INSERT: writes the given columns of one row and marks the row itself live, so the row stays
 * visible even if all its regular columns are later deleted (Cassandra's row marker). All primary
 * key columns must be given. Writing a column as null writes a tombstone for it.
 *
 * <p>Values may be {@link Select#marker() markers}, to be given when the insert, {@link #prepare()
 * prepared}, is executed.
 *
 * <p>Not thread-safe; build and execute it on one thread. Executing twice writes twice.
 */
public final class Insert {
  private final Table table;
  private final Map<String, Object> values = new LinkedHashMap<>();
  private Duration ttl;
  private Long timestamp;
  private ConditionalWrites.Spec spec = ConditionalWrites.Spec.NONE;

  Insert(Table table) {
    this.table = table;
  }

  /** Sets a column (key or regular). */
  public Insert value(String column, Object value) {
    values.put(Objects.requireNonNull(column, "column"), value);
    return this;
  }

  /** Sets several columns. */
  public Insert values(Map<String, ?> columnValues) {
    columnValues.forEach(this::value);
    return this;
  }

  /** Expire the written values after {@code ttl} (whole seconds; overrides the table default). */
  public Insert ttl(Duration ttl) {
    this.ttl = Objects.requireNonNull(ttl, "ttl");
    return this;
  }

  /** Use this write timestamp (microseconds) instead of the engine clock's. */
  public Insert timestamp(long micros) {
    this.timestamp = micros;
    return this;
  }

  /**
   * Makes this a conditional write that applies only if the row does not exist yet (CQL's {@code IF
   * NOT EXISTS}): no live row marker or cell at its primary key (for an insert of static columns
   * alone, no live data in the partition). Run it with {@link #executeConditional()}.
   */
  public Insert ifNotExists() {
    spec = new ConditionalWrites.Spec(ConditionalWrites.Kind.NOT_EXISTS, java.util.List.of());
    return this;
  }

  /**
   * Applies the write; it is visible to reads when this returns.
   *
   * @throws IllegalStateException if the write has conditions: run it with {@link
   *     #executeConditional()}, which says whether it applied
   */
  public void execute() {
    if (spec.conditional()) {
      throw new IllegalStateException(
          "a conditional write reports whether it applied: run it with executeConditional()");
    }
    table.store().write(request());
  }

  /**
   * Applies the write if its conditions hold, atomically with their check (see {@link
   * ConditionalResult} and the conditional-write rules in {@link Table}).
   *
   * @throws IllegalStateException if the write has no conditions
   */
  public ConditionalResult executeConditional() {
    if (!spec.conditional()) {
      throw new IllegalStateException("a write without conditions runs with execute()");
    }
    return ConditionalWrites.run(
        java.util.List.of(new ConditionalWrites.Stmt(table, request(), spec)),
        false,
        reqs -> table.store().write(reqs.get(0)));
  }

  /**
   * This insert as a {@link PreparedInsert}, executed with values for its {@link Select#marker()
   * markers} (given as column values), planned once.
   */
  public PreparedInsert prepare() {
    return new PreparedInsert(table, values, ttl, timestamp, spec);
  }

  ConditionalWrites.Spec spec() {
    return spec;
  }

  WriteRequest request() {
    for (Map.Entry<String, Object> e : values.entrySet()) {
      if (e.getValue() == PreparedSelect.MARKER) {
        throw markerAsValue(e.getKey());
      }
    }
    return new WriteRequest(WriteRequest.Kind.INSERT, List.of(), values, List.of(), ttl, timestamp);
  }

  /** Refuses a marker among {@code values} (one per column): a marker is not a value. */
  static void checkNoMarker(List<String> columns, Object[] values) {
    for (int i = 0; i < values.length; i++) {
      if (values[i] == PreparedSelect.MARKER) {
        throw markerAsValue(columns.get(i));
      }
    }
  }

  private static InvalidQueryException markerAsValue(String column) {
    return new InvalidQueryException(
        "the value of "
            + column
            + " is a bind marker (Select.marker()): prepare() the insert and pass the values to"
            + " PreparedInsert.execute");
  }

  Table table() {
    return table;
  }
}
