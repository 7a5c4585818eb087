package dev.talus;

import dev.talus.request.ElementOp;
import dev.talus.request.Restriction;
import dev.talus.request.WriteRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A DELETE. What it deletes depends on what it restricts, as in CQL:
 *
 * <ul>
 *   <li>only the partition key: the whole partition;
 *   <li>the full primary key: one row (or, with {@link #columns}, those columns of it; with {@link
 *       #element}, one element of a collection or user type);
 *   <li>only the partition key with {@link #columns} or {@link #element} of static columns: those
 *       static columns;
 *   <li>a clustering prefix by equality, optionally with a range on the next clustering column: a
 *       range of rows (one range tombstone).
 * </ul>
 *
 * <p>A deletion shadows data written at or before its timestamp. Not thread-safe.
 */
public final class Delete {
  private final Table table;
  private final List<Restriction> where = new ArrayList<>();
  private final List<String> columns = new ArrayList<>();
  private final List<ElementOp> elements = new ArrayList<>();
  private Long timestamp;

  Delete(Table table) {
    this.table = table;
  }

  public Delete eq(String column, Object value) {
    return add(column, Restriction.Op.EQ, value);
  }

  public Delete gt(String column, Object value) {
    return add(column, Restriction.Op.GT, value);
  }

  public Delete ge(String column, Object value) {
    return add(column, Restriction.Op.GE, value);
  }

  public Delete lt(String column, Object value) {
    return add(column, Restriction.Op.LT, value);
  }

  public Delete le(String column, Object value) {
    return add(column, Restriction.Op.LE, value);
  }

  private Delete add(String column, Restriction.Op op, Object value) {
    where.add(new Restriction(column, op, Collections.singletonList(value)));
    return this;
  }

  /** Deletes only these regular columns of the row instead of the row. */
  public Delete columns(String... names) {
    Collections.addAll(columns, names);
    return this;
  }

  /**
   * Deletes one element instead of the row: a map entry by key ({@code DELETE m[k]}), a set element
   * ({@code DELETE s[e]}), a list element by position ({@code DELETE l[i]}, which reads the list
   * first), or a field of a non-frozen user type ({@code DELETE u.f}, by field name).
   */
  public Delete element(String column, Object keyIndexOrField) {
    if (keyIndexOrField == null) {
      throw new InvalidQueryException("Invalid null value for the element of " + column);
    }
    elements.add(new ElementOp(ElementOp.Kind.DELETE_ELEMENT, column, keyIndexOrField, null));
    return this;
  }

  /** Use this deletion timestamp (microseconds) instead of the engine clock's. */
  public Delete timestamp(long micros) {
    this.timestamp = micros;
    return this;
  }

  /** Applies the write; it is visible to reads when this returns. */
  public void execute() {
    table.store().write(request());
  }

  WriteRequest request() {
    return new WriteRequest(
        WriteRequest.Kind.DELETE, where, null, columns, null, timestamp, elements);
  }

  Table table() {
    return table;
  }
}
