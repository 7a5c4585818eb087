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
  private ConditionalWrites.Spec spec = ConditionalWrites.Spec.NONE;

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

  /**
   * Makes this a conditional write that applies only if its row exists (CQL's {@code IF EXISTS}): a
   * live row marker or cell at its primary key (naming only the partition: any live data in it).
   * Run it with {@link #executeConditional()}.
   */
  public Delete ifExists() {
    spec = spec.ifExists();
    return this;
  }

  /**
   * Makes this a conditional write that applies only if every condition holds on the row's current
   * values (CQL's {@code IF c1 = v AND ...}); calling it again adds conditions. Conditions only on
   * static columns may name the partition alone. Run it with {@link #executeConditional()}.
   */
  public Delete onlyIf(Condition... conditions) {
    spec = spec.onlyIf(conditions);
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

  ConditionalWrites.Spec spec() {
    return spec;
  }

  WriteRequest request() {
    return new WriteRequest(
        WriteRequest.Kind.DELETE, where, null, columns, null, timestamp, elements);
  }

  Table table() {
    return table;
  }
}
