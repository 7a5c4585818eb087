package dev.talus;

import dev.talus.request.Restriction;
import dev.talus.request.WriteRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An UPDATE: writes cells of one row identified by its full primary key, without marking the row
 * live — a row created only by updates disappears once all its cells are deleted or expired.
 * Setting a column to null writes a tombstone for it.
 *
 * <p>Not thread-safe; build and execute it on one thread.
 */
public final class Update {
  private final Table table;
  private final List<Restriction> where = new ArrayList<>();
  private final Map<String, Object> values = new LinkedHashMap<>();
  private Duration ttl;
  private Long timestamp;

  Update(Table table) {
    this.table = table;
  }

  /** Identifies the row: every primary key column needs one. */
  public Update where(String column, Object value) {
    where.add(
        new Restriction(column, Restriction.Op.EQ, java.util.Collections.singletonList(value)));
    return this;
  }

  /** Sets a regular column; null deletes it. */
  public Update set(String column, Object value) {
    values.put(Objects.requireNonNull(column, "column"), value);
    return this;
  }

  public Update ttl(Duration ttl) {
    this.ttl = Objects.requireNonNull(ttl, "ttl");
    return this;
  }

  public Update timestamp(long micros) {
    this.timestamp = micros;
    return this;
  }

  /** Applies the write; it is visible to reads when this returns. */
  public void execute() {
    table.store().write(request());
  }

  WriteRequest request() {
    return new WriteRequest(WriteRequest.Kind.UPDATE, where, values, List.of(), ttl, timestamp);
  }

  Table table() {
    return table;
  }
}
