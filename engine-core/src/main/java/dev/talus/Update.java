package dev.talus;

import dev.talus.request.ElementOp;
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
 * Setting a column to null writes a tombstone for it. An update that sets only static columns names
 * the partition alone (no clustering columns).
 *
 * <p>Collections and user types are written element by element without reading ({@link #add},
 * {@link #remove} on sets and maps, {@link #prepend}, {@link #put} on maps and user types); {@link
 * #set} replaces the whole value, leaving a tombstone behind (the deletion of the old elements).
 * Setting or removing list elements by position ({@link #put} with an index) and removing list
 * elements by value read the list first, as in Cassandra: one read per such update, and not atomic
 * with concurrent writers. Counters are only {@link #increment}ed, under a per-partition lock so
 * concurrent increments are exact; they take no TTL and no explicit timestamp.
 *
 * <p>Not thread-safe; build and execute it on one thread.
 */
public final class Update {
  private final Table table;
  private final List<Restriction> where = new ArrayList<>();
  private final Map<String, Object> values = new LinkedHashMap<>();
  private final List<ElementOp> operations = new ArrayList<>();
  private Duration ttl;
  private Long timestamp;
  private ConditionalWrites.Spec spec = ConditionalWrites.Spec.NONE;

  Update(Table table) {
    this.table = table;
  }

  /** Identifies the row: every primary key column needs one. */
  public Update where(String column, Object value) {
    where.add(
        new Restriction(column, Restriction.Op.EQ, java.util.Collections.singletonList(value)));
    return this;
  }

  /** Sets a regular or static column, replacing a collection whole; null deletes it. */
  public Update set(String column, Object value) {
    values.put(Objects.requireNonNull(column, "column"), value);
    return this;
  }

  /**
   * Adds elements without reading: to a set ({@code s = s + {..}}, a {@link java.util.Collection}),
   * at the end of a list ({@code l = l + [..]}, a {@link List}), or entries to a map ({@code m = m
   * + {k: v}}, a {@link Map}). Each element is its own cell with this update's timestamp and TTL.
   */
  public Update add(String column, Object elements) {
    return op(ElementOp.Kind.ADD, column, null, elements);
  }

  /**
   * Removes elements: from a set ({@code s = s - {..}}), keys from a map ({@code m = m - {k}}), or
   * every occurrence of these values from a list ({@code l = l - [..]}, which reads the list
   * first). Each removed element leaves a tombstone.
   */
  public Update remove(String column, Object elements) {
    return op(ElementOp.Kind.REMOVE, column, null, elements);
  }

  /**
   * Puts elements at the front of a list, in their order ({@code l = [..] + l}), without reading.
   */
  public Update prepend(String column, List<?> elements) {
    return op(ElementOp.Kind.PREPEND, column, null, elements);
  }

  /**
   * Sets one element: a map entry ({@code m[k] = v}), a list position ({@code l[i] = v}, which
   * reads the list first and fails if {@code i} is out of bounds), or a field of a non-frozen user
   * type ({@code u.f = v}, the key is the field name). A null value deletes the element.
   */
  public Update put(String column, Object keyIndexOrField, Object value) {
    if (keyIndexOrField == null) {
      throw new InvalidQueryException("Invalid null value for the key of " + column);
    }
    return op(ElementOp.Kind.PUT, column, keyIndexOrField, value);
  }

  /** Adds {@code delta} (any long, negative too) to a counter ({@code c = c + delta}). */
  public Update increment(String column, long delta) {
    return op(ElementOp.Kind.INCREMENT, column, null, delta);
  }

  /** Subtracts {@code delta} from a counter ({@code c = c - delta}). */
  public Update decrement(String column, long delta) {
    return op(ElementOp.Kind.INCREMENT, column, null, -delta);
  }

  private Update op(ElementOp.Kind kind, String column, Object key, Object value) {
    operations.add(new ElementOp(kind, Objects.requireNonNull(column, "column"), key, value));
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

  /**
   * Makes this a conditional write that applies only if its row exists (CQL's {@code IF EXISTS}): a
   * live row marker or cell at its primary key (naming only the partition: any live data in it).
   * Run it with {@link #executeConditional()}.
   */
  public Update ifExists() {
    spec = spec.ifExists();
    return this;
  }

  /**
   * Makes this a conditional write that applies only if every condition holds on the row's current
   * values (CQL's {@code IF c1 = v AND ...}); calling it again adds conditions. Conditions only on
   * static columns may name the partition alone. Run it with {@link #executeConditional()}.
   */
  public Update onlyIf(Condition... conditions) {
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
        WriteRequest.Kind.UPDATE, where, values, List.of(), ttl, timestamp, operations);
  }

  Table table() {
    return table;
  }
}
