package dev.talus;

import dev.talus.request.ReadRequest;
import dev.talus.request.ReadResult;
import dev.talus.request.Restriction;
import dev.talus.request.TupleRestriction;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A {@link Select} prepared once and executed many times with new values for its {@link
 * Select#marker() markers}, in the order they were given to the select (the elements of an {@link
 * Select#in} in their order):
 *
 * <pre>{@code
 * PreparedSelect byKey =
 *     table.select().eq("sensor", Select.marker()).eq("ts", Select.marker()).prepare();
 * Optional<ResultRow> row = byKey.one("s-1", Instant.parse("2026-09-01T00:00:00Z"));
 * }</pre>
 *
 * <p>A read of one row by its whole primary key (every primary key column restricted by {@code eq},
 * nothing else restricted, no order) is the one a prepared select speeds up most: it is planned
 * straight from the values, as a CQL prepared statement's point read is. Every other select runs as
 * the same {@link Select} with the values in place would, with the same results and errors; values
 * are checked per execution (a value of the wrong type, or a null in a key column, is refused then,
 * with the message the select would give). A schema change made after preparing is taken into
 * account at the next execution.
 *
 * <p>Immutable and thread-safe: one prepared select may be executed from any number of threads.
 */
public final class PreparedSelect {
  /**
   * The marker value ({@link Select#marker()}): the value of {@link Select#eq}, {@link Select#gt},
   * {@link Select#ge}, {@link Select#lt}, {@link Select#le}, {@link Select#contains}, {@link
   * Select#containsKey}, or an element of {@link Select#in}.
   */
  static final Object MARKER =
      new Object() {
        @Override
        public String toString() {
          return "?";
        }
      };

  private final Table table;
  private final ReadRequest template;
  private final int markers;

  /** Where each restriction goes among the primary key columns, for one schema; see below. */
  private volatile Shape shape;

  private record Shape(TableSchema schema, int[] positions) {}

  PreparedSelect(Table table, ReadRequest template) {
    this.table = table;
    this.template = template;
    int n = 0;
    for (Restriction r : template.restrictions()) {
      for (Object v : r.values()) {
        if (v == MARKER) {
          n++;
        }
      }
    }
    this.markers = n;
  }

  /** How many values {@link #execute} takes. */
  public int markerCount() {
    return markers;
  }

  /**
   * Runs the select with {@code values} in place of its markers.
   *
   * @throws InvalidQueryException if the number of values is not {@link #markerCount()}, or for
   *     anything the select itself would be refused for with these values
   */
  public ResultSet execute(Object... values) {
    checkCount(values);
    int[] at = positions();
    Object[] given = at == null ? null : primaryKey(at, values);
    return results(
        given != null
            ? table.store().readRow(template, given, () -> bind(values))
            : table.store().read(bind(values)));
  }

  /** The rows and paging state of a read, as a result set. */
  static ResultSet results(ReadResult r) {
    return new ResultSet(
        r.rows(), r.pagingState() == null ? null : new PagingState(r.pagingState()));
  }

  /** Runs the select with {@code values} and returns its first row, if any. */
  public Optional<ResultRow> one(Object... values) {
    return execute(values).first();
  }

  private void checkCount(Object[] values) {
    if (values.length != markers) {
      throw new InvalidQueryException(
          "this prepared select has "
              + markers
              + " bind marker(s) and was given "
              + values.length
              + " value(s)");
    }
  }

  /** The request with {@code values} in place of the markers. */
  private ReadRequest bind(Object[] values) {
    if (markers == 0) {
      return template;
    }
    List<Restriction> rs = new ArrayList<>(template.restrictions().size());
    int next = 0;
    for (Restriction r : template.restrictions()) {
      List<Object> vs = r.values();
      boolean marked = false;
      for (Object v : vs) {
        marked |= v == MARKER;
      }
      if (!marked) {
        rs.add(r);
        continue;
      }
      List<Object> bound = new ArrayList<>(vs.size());
      for (Object v : vs) {
        bound.add(v == MARKER ? values[next++] : v);
      }
      rs.add(new Restriction(r.column(), r.op(), bound));
    }
    return new ReadRequest(
        rs,
        template.tupleRestrictions(),
        template.columns(),
        template.orderBy(),
        template.reversed(),
        template.limit(),
        template.pageSize(),
        template.pagingState(),
        template.allowFiltering(),
        template.perPartitionLimit(),
        template.tokenRestrictions(),
        template.selectors());
  }

  /** The positions of a one-row read for the table's current schema, or null for other reads. */
  private int[] positions() {
    TableSchema now = table.schema();
    Shape s = shape;
    if (s == null || s.schema() != now) {
      s =
          new Shape(
              now, template.pagingState() == null ? table.store().rowPositions(template) : null);
      shape = s;
    }
    return s.positions();
  }

  /**
   * The primary key values by position (restriction {@code i} goes to {@code at[i]}; each holds one
   * value, a marker's from {@code values} in order), or null if one is null (refused later).
   */
  private Object[] primaryKey(int[] at, Object[] values) {
    Object[] given = new Object[at.length];
    List<Restriction> rs = template.restrictions();
    int next = 0;
    for (int i = 0; i < at.length; i++) {
      Object v = rs.get(i).value();
      if (v == MARKER) {
        v = values[next++];
      }
      if (v == null) {
        return null;
      }
      given[at[i]] = v;
    }
    return given;
  }

  /** Refuses a select to be executed directly while it holds markers. */
  static void refuseMarkers(List<Restriction> restrictions) {
    for (Restriction r : restrictions) {
      for (Object v : r.values()) {
        if (v == MARKER) {
          throw new InvalidQueryException(
              "the condition on "
                  + r.column()
                  + " holds a bind marker (Select.marker()): prepare() the select and pass the"
                  + " values to PreparedSelect.execute");
        }
      }
    }
  }

  /** Refuses markers where a prepared select cannot take them. */
  static void refuseMarkersIn(List<TupleRestriction> tuples, List<Restriction> tokens) {
    for (TupleRestriction t : tuples) {
      for (List<Object> values : t.tuples()) {
        if (values.contains(MARKER)) {
          throw new InvalidQueryException(
              "bind markers are not supported in multi-column restrictions of a prepared select"
                  + " (on "
                  + t.columns()
                  + ")");
        }
      }
    }
    for (Restriction r : tokens) {
      if (r.values().contains(MARKER)) {
        throw new InvalidQueryException(
            "bind markers are not supported in token restrictions of a prepared select");
      }
    }
  }
}
