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
 * <p>Not thread-safe; build and execute it on one thread. Executing twice writes twice.
 */
public final class Insert {
  private final Table table;
  private final Map<String, Object> values = new LinkedHashMap<>();
  private Duration ttl;
  private Long timestamp;

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

  /** Applies the write; it is visible to reads when this returns. */
  public void execute() {
    table.store().write(request());
  }

  WriteRequest request() {
    return new WriteRequest(WriteRequest.Kind.INSERT, List.of(), values, List.of(), ttl, timestamp);
  }

  Table table() {
    return table;
  }
}
