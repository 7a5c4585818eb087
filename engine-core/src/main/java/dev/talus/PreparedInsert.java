package dev.talus;

import dev.talus.db.InsertStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An {@link Insert} prepared once and executed many times with new values for its {@link
 * Select#marker() markers}, in the order the columns were given to the insert:
 *
 * <pre>{@code
 * PreparedInsert add =
 *     table.insert().value("sensor", Select.marker()).value("ts", Select.marker())
 *         .value("reading", Select.marker()).prepare();
 * add.execute("s-1", Instant.parse("2026-09-01T00:00:00Z"), 21.5);
 * }</pre>
 *
 * <p>Executing it writes what the same insert with the values in place writes, with the same
 * results and the same errors: values are checked per execution (a value of the wrong type, a null
 * in a key column, a value too large is refused then, with the message the insert would give). An
 * insert of every primary key column and of regular columns that each hold one value (scalars and
 * frozen values) is planned once — which value is which key component, which column, which codec —
 * and executed straight from that plan, as a CQL prepared statement is; any other insert (static
 * columns, collections, user types, a missing or unknown column) runs as the insert itself would. A
 * schema change made after preparing is taken into account at the next execution. The insert's TTL
 * and timestamp, if it set them, are fixed when it is prepared.
 *
 * <p>Immutable and thread-safe: one prepared insert may be executed from any number of threads.
 */
public final class PreparedInsert {
  private final Table table;
  private final List<String> columns;

  /** The values given to the insert, markers included, in column order. */
  private final Object[] template;

  /** Where each marker's value goes among the columns. */
  private final int[] markers;

  private final Duration ttl;
  private final Long timestamp;
  private final ConditionalWrites.Spec spec;
  private final InsertStatement statement;

  PreparedInsert(
      Table table,
      Map<String, Object> values,
      Duration ttl,
      Long timestamp,
      ConditionalWrites.Spec spec) {
    this.table = table;
    this.columns = List.copyOf(values.keySet());
    this.template = values.values().toArray();
    List<Integer> at = new ArrayList<>();
    for (int i = 0; i < template.length; i++) {
      if (template[i] == PreparedSelect.MARKER) {
        at.add(i);
      }
    }
    this.markers = at.stream().mapToInt(Integer::intValue).toArray();
    this.ttl = ttl;
    this.timestamp = timestamp;
    this.spec = spec;
    this.statement = new InsertStatement(columns, ttl, timestamp);
  }

  /** How many values {@link #execute} takes. */
  public int markerCount() {
    return markers.length;
  }

  /**
   * Applies the insert with {@code values} in place of its markers; it is visible to reads when
   * this returns.
   *
   * @throws InvalidQueryException if the number of values is not {@link #markerCount()}, or for
   *     anything the insert itself would be refused for with these values
   * @throws IllegalStateException if the insert has conditions: run it with {@link
   *     #executeConditional}
   */
  public void execute(Object... values) {
    if (spec.conditional()) {
      throw new IllegalStateException(
          "a conditional write reports whether it applied: run it with executeConditional()");
    }
    table.store().insert(statement, bind(values));
  }

  /**
   * Applies the insert with {@code values} in place of its markers if its conditions hold, as
   * {@link Insert#executeConditional()} does.
   *
   * @throws IllegalStateException if the insert has no conditions
   */
  public ConditionalResult executeConditional(Object... values) {
    Object[] bound = bind(values);
    Insert insert = table.insert();
    for (int i = 0; i < bound.length; i++) {
      insert.value(columns.get(i), bound[i]);
    }
    if (ttl != null) {
      insert.ttl(ttl);
    }
    if (timestamp != null) {
      insert.timestamp(timestamp);
    }
    if (spec.conditional()) {
      insert.ifNotExists();
    }
    return insert.executeConditional();
  }

  /** The values of every column, {@code values} in place of the markers. */
  private Object[] bind(Object[] values) {
    if (values.length != markers.length) {
      throw new InvalidQueryException(
          "this prepared insert has "
              + markers.length
              + " bind marker(s) and was given "
              + values.length
              + " value(s)");
    }
    Object[] bound = template.clone();
    for (int i = 0; i < markers.length; i++) {
      bound[markers[i]] = values[i];
    }
    Insert.checkNoMarker(columns, bound);
    return bound;
  }
}
