package dev.talus.db;

import dev.talus.request.WriteRequest;
import dev.talus.schema.KeyCodec;
import dev.talus.write.InsertPlan;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An INSERT of a fixed list of columns whose values are given per execution: what a prepared insert
 * runs ({@link TableHandle#insert}). It keeps its {@link InsertPlan} for the table's key codec it
 * was made for and plans again when the table's schema changed; an INSERT the plan does not take is
 * run as the {@link WriteRequest} the same values make, through the general planner.
 *
 * <p>Thread-safe.
 */
public final class InsertStatement {
  private final List<String> columns;
  private final Duration ttl;
  private final Long timestamp;

  /** The plan for one key codec; {@code plan} is null when the general planner takes the insert. */
  private record Planned(KeyCodec keys, InsertPlan plan) {}

  private volatile Planned planned;

  /**
   * @param columns the columns written, distinct, in the order their values are given
   * @param ttl the insert's TTL, or null for the table's default
   * @param timestamp the insert's timestamp in microseconds, or null for the clock's
   */
  public InsertStatement(List<String> columns, Duration ttl, Long timestamp) {
    this.columns = List.copyOf(columns);
    this.ttl = ttl;
    this.timestamp = timestamp;
  }

  /** The plan for the table whose key codec is {@code keys}, or null for the general planner. */
  InsertPlan planFor(KeyCodec keys) {
    Planned p = planned;
    if (p == null || p.keys() != keys) {
      p = new Planned(keys, InsertPlan.of(keys, columns, ttl));
      planned = p;
    }
    return p.plan();
  }

  Long timestamp() {
    return timestamp;
  }

  /** The same insert as a request, with {@code values} (one per column) in place. */
  WriteRequest request(Object[] values) {
    Map<String, Object> byColumn = new LinkedHashMap<>();
    for (int i = 0; i < columns.size(); i++) {
      byColumn.put(columns.get(i), values[i]);
    }
    return new WriteRequest(
        WriteRequest.Kind.INSERT, List.of(), byColumn, List.of(), ttl, timestamp);
  }
}
