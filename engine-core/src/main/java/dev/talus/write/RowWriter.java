package dev.talus.write;

import dev.talus.ColumnDef;
import dev.talus.DataType;
import dev.talus.InvalidQueryException;
import dev.talus.TableSchema;
import dev.talus.codec.ComplexCodec;
import dev.talus.codec.TypeCodec;
import dev.talus.data.Cell;
import dev.talus.data.ComplexDeletion;
import dev.talus.data.DeletionTime;
import dev.talus.data.LivenessInfo;
import dev.talus.data.Row;
import dev.talus.request.ElementOp;
import dev.talus.schema.Columns;
import dev.talus.schema.KeyCodec;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Builds the cells of one row (a clustering row or the static row) of one write: scalar and frozen
 * values as one cell, non-frozen collections and user types element by element (a whole-value
 * replacement as a complex deletion at {@code timestamp − 1} plus the new elements, Cassandra's
 * rule), counters as their new total. The operations that must read first (list positions, list
 * removal by value, counters) ask {@code current} for the row as stored, once. Everything is
 * validated before the row is built. Not thread-safe; one per row per write.
 */
final class RowWriter {
  private final KeyCodec keys;
  private final TableSchema schema;
  private final long ts;
  private final int ttl;
  private final long now;
  private final ListPaths paths;
  private final Supplier<Row> current;
  private final List<Cell> cells = new ArrayList<>();
  private final TreeMap<Integer, DeletionTime> complex = new TreeMap<>();
  private final TreeMap<Integer, Long> increments = new TreeMap<>();
  private Row currentRow;
  private boolean currentRead;

  RowWriter(KeyCodec keys, long ts, int ttl, long now, ListPaths paths, Supplier<Row> current) {
    this.keys = keys;
    this.schema = keys.schema();
    this.ts = ts;
    this.ttl = ttl;
    this.now = now;
    this.paths = paths;
    this.current = current;
  }

  boolean isEmpty() {
    return cells.isEmpty() && complex.isEmpty() && increments.isEmpty();
  }

  private Row current() {
    if (!currentRead) {
      currentRow = current.get();
      currentRead = true;
    }
    return currentRow;
  }

  private Cell cell(int id, byte[] path, byte[] value) {
    WritePlanner.checkValueSize(schema, keys.column(id), value);
    return Cell.element(id, path, ts, ttl, now, value);
  }

  private void complexDeletion(int id, long at) {
    complex.merge(id, new DeletionTime(at, now), DeletionTime::max);
  }

  /** {@code column = value}: a whole value; null deletes it. */
  void set(ColumnDef c, Object value) {
    int id = keys.regularId(c.name());
    DataType t = c.type();
    if (t.kind() == DataType.Kind.COUNTER) {
      throw new InvalidQueryException(
          "Cannot set the value of counter column "
              + c.name()
              + " (counters can only be incremented/decremented, not set)");
    }
    if (!t.isMultiCell()) {
      if (value == null) {
        cells.add(Cell.tombstone(id, ts, now));
      } else {
        byte[] v = keys.regularCodec(id).serialize(Columns.coerce(schema, c, value));
        WritePlanner.checkValueSize(schema, c, v);
        cells.add(ttl > 0 ? Cell.expiring(id, ts, ttl, now, v) : Cell.live(id, ts, v));
      }
      return;
    }
    // Replacing a collection deletes what was there just before this write's own elements.
    complexDeletion(id, ts - 1);
    if (value == null) {
      return;
    }
    ComplexCodec codec = ComplexCodec.of(t);
    List<ComplexCodec.Element> elements = codec.elements(Columns.coerce(schema, c, value));
    byte[][] listPaths = t.kind() == DataType.Kind.LIST ? paths.append(elements.size()) : null;
    for (int i = 0; i < elements.size(); i++) {
      ComplexCodec.Element e = elements.get(i);
      cells.add(cell(id, listPaths != null ? listPaths[i] : e.path(), e.value()));
    }
  }

  /** {@code DELETE column}. */
  void delete(ColumnDef c) {
    int id = keys.regularId(c.name());
    if (c.type().isMultiCell()) {
      complexDeletion(id, ts);
    } else if (c.type().kind() == DataType.Kind.COUNTER) {
      cells.add(Cell.counterTombstone(id, ts, now));
    } else {
      cells.add(Cell.tombstone(id, ts, now));
    }
  }

  private static String cql(ElementOp op, ColumnDef c) {
    return switch (op.kind()) {
      case ADD -> c.name() + " = " + c.name() + " + ...";
      case REMOVE -> c.name() + " = " + c.name() + " - ...";
      case PREPEND -> c.name() + " = ... + " + c.name();
      case PUT -> c.name() + "[" + op.key() + "] = ...";
      case DELETE_ELEMENT -> "DELETE " + c.name() + "[" + op.key() + "]";
      case INCREMENT -> c.name() + " = " + c.name() + " + " + op.value();
    };
  }

  private static InvalidQueryException invalid(ElementOp op, ColumnDef c, String what) {
    return new InvalidQueryException(
        "Invalid operation (" + cql(op, c) + ") for " + what + " column " + c.name());
  }

  /** One element operation. */
  void apply(ColumnDef c, ElementOp op) {
    DataType t = c.type();
    int id = keys.regularId(c.name());
    if (op.kind() == ElementOp.Kind.INCREMENT) {
      if (t.kind() != DataType.Kind.COUNTER) {
        throw invalid(op, c, "non counter");
      }
      increments.merge(id, (Long) op.value(), Long::sum);
      return;
    }
    if (t.kind() == DataType.Kind.COUNTER) {
      throw invalid(op, c, "counter");
    }
    if (!t.isMultiCell()) {
      throw invalid(
          op, c, t.isFrozen() ? "frozen " + t.cqlName() : "non collection " + t.cqlName());
    }
    ComplexCodec codec = ComplexCodec.of(t);
    switch (t.kind()) {
      case SET -> set(op, c, id, codec);
      case MAP -> map(op, c, id, codec);
      case LIST -> list(op, c, id, codec);
      default -> udt(op, c, id, codec);
    }
  }

  private Collection<?> collection(ElementOp op, ColumnDef c) {
    if (!(op.value() instanceof Collection<?> col)) {
      throw new InvalidQueryException(
          "Invalid value for ("
              + cql(op, c)
              + "): expected a collection of elements, got "
              + (op.value() == null ? "null" : op.value().getClass().getName()));
    }
    for (Object e : col) {
      if (e == null) {
        throw new InvalidQueryException("null is not supported inside collections");
      }
    }
    return col;
  }

  private Object key(ComplexCodec codec, ColumnDef c, Object k) {
    try {
      return codec.keyCodec().coerce(k);
    } catch (IllegalArgumentException e) {
      throw new InvalidQueryException(
          "bad element for column " + c.name() + " of " + schema.name() + ": " + e.getMessage(), e);
    }
  }

  private byte[] value(TypeCodec<?> codec, ColumnDef c, Object v) {
    try {
      return codec.serialize(codec.coerce(v));
    } catch (IllegalArgumentException e) {
      throw new InvalidQueryException(
          "bad element for column " + c.name() + " of " + schema.name() + ": " + e.getMessage(), e);
    }
  }

  private void set(ElementOp op, ColumnDef c, int id, ComplexCodec codec) {
    switch (op.kind()) {
      case ADD -> {
        for (Object e : collection(op, c)) {
          cells.add(cell(id, codec.keyPath(key(codec, c, e)), Cell.EMPTY));
        }
      }
      case REMOVE -> {
        for (Object e : collection(op, c)) {
          cells.add(Cell.elementTombstone(id, codec.keyPath(key(codec, c, e)), ts, now));
        }
      }
      case DELETE_ELEMENT ->
          cells.add(Cell.elementTombstone(id, codec.keyPath(key(codec, c, op.key())), ts, now));
      default -> throw invalid(op, c, "set");
    }
  }

  private void map(ElementOp op, ColumnDef c, int id, ComplexCodec codec) {
    switch (op.kind()) {
      case ADD -> {
        if (!(op.value() instanceof Map<?, ?> m)) {
          throw new InvalidQueryException(
              "Invalid value for (" + cql(op, c) + "): expected a map of entries");
        }
        for (Map.Entry<?, ?> e : m.entrySet()) {
          if (e.getKey() == null || e.getValue() == null) {
            throw new InvalidQueryException("null is not supported inside collections");
          }
          byte[] path = codec.keyPath(key(codec, c, e.getKey()));
          cells.add(cell(id, path, value(codec.valueCodec(), c, e.getValue())));
        }
      }
      case REMOVE -> {
        for (Object k : collection(op, c)) {
          cells.add(Cell.elementTombstone(id, codec.keyPath(key(codec, c, k)), ts, now));
        }
      }
      case PUT -> {
        byte[] path = codec.keyPath(key(codec, c, op.key()));
        cells.add(
            op.value() == null
                ? Cell.elementTombstone(id, path, ts, now)
                : cell(id, path, value(codec.valueCodec(), c, op.value())));
      }
      case DELETE_ELEMENT ->
          cells.add(Cell.elementTombstone(id, codec.keyPath(key(codec, c, op.key())), ts, now));
      default -> throw invalid(op, c, "map");
    }
  }

  /** The live element cells of the list as stored now (read before write). */
  private List<Cell> liveElements(int id) {
    List<Cell> out = new ArrayList<>();
    Row r = current();
    if (r != null) {
      for (Cell x : r.cells()) {
        if (x.column() == id && x.isLive(now)) {
          out.add(x);
        }
      }
    }
    return out;
  }

  private int index(ElementOp op, ColumnDef c) {
    if (!(op.key() instanceof Integer i)) {
      throw new InvalidQueryException(
          "Invalid list index for column " + c.name() + ": expected an Integer, got " + op.key());
    }
    return i;
  }

  private void list(ElementOp op, ColumnDef c, int id, ComplexCodec codec) {
    switch (op.kind()) {
      case ADD, PREPEND -> {
        if (!(op.value() instanceof List<?>)) {
          throw new InvalidQueryException(
              "Invalid value for (" + cql(op, c) + "): expected a list of elements");
        }
        Collection<?> col = collection(op, c);
        byte[][] p =
            op.kind() == ElementOp.Kind.ADD ? paths.append(col.size()) : paths.prepend(col.size());
        int i = 0;
        for (Object e : col) {
          cells.add(cell(id, p[i++], value(codec.valueCodec(), c, e)));
        }
      }
      case REMOVE -> {
        List<byte[]> discard = new ArrayList<>();
        for (Object e : collection(op, c)) {
          discard.add(value(codec.valueCodec(), c, e));
        }
        for (Cell x : liveElements(id)) {
          for (byte[] d : discard) {
            if (Arrays.equals(d, x.value())) {
              cells.add(Cell.elementTombstone(id, x.path(), ts, now));
              break;
            }
          }
        }
      }
      case PUT, DELETE_ELEMENT -> {
        int i = index(op, c);
        List<Cell> live = liveElements(id);
        if (live.isEmpty()) {
          throw new InvalidQueryException(
              op.kind() == ElementOp.Kind.PUT
                  ? "Attempted to set an element on a list which is null"
                  : "Attempted to delete an element from a list which is null");
        }
        if (i < 0 || i >= live.size()) {
          throw new InvalidQueryException(
              String.format("List index %d out of bound, list has size %d", i, live.size()));
        }
        byte[] path = live.get(i).path();
        cells.add(
            op.kind() == ElementOp.Kind.DELETE_ELEMENT || op.value() == null
                ? Cell.elementTombstone(id, path, ts, now)
                : cell(id, path, value(codec.valueCodec(), c, op.value())));
      }
      default -> throw invalid(op, c, "list");
    }
  }

  private void udt(ElementOp op, ColumnDef c, int id, ComplexCodec codec) {
    if (op.kind() != ElementOp.Kind.PUT && op.kind() != ElementOp.Kind.DELETE_ELEMENT) {
      throw invalid(op, c, "user type " + c.type().cqlName());
    }
    if (!(op.key() instanceof String field) || c.type().userType().fieldIndex(field) < 0) {
      throw new InvalidQueryException(
          "Unknown field "
              + op.key()
              + " in user type "
              + c.type().userType().name()
              + " of column "
              + c.name()
              + "; its fields are "
              + c.type().userType().fieldNames());
    }
    int f = c.type().userType().fieldIndex(field);
    byte[] path = ComplexCodec.fieldPath(f);
    cells.add(
        op.kind() == ElementOp.Kind.DELETE_ELEMENT || op.value() == null
            ? Cell.elementTombstone(id, path, ts, now)
            : cell(id, path, value(codec.fieldCodec(f), c, op.value())));
  }

  /**
   * The row. Counter increments become the new totals here: the current total (0 if the counter is
   * absent or was removed by a row or partition deletion) plus the deltas, written with a timestamp
   * above the current total's so it wins; a counter whose cell is a tombstone stays deleted and its
   * increment is dropped (Cassandra: the tombstone wins).
   */
  Row build(byte[] clustering, LivenessInfo liveness) {
    for (Map.Entry<Integer, Long> e : increments.entrySet()) {
      Row r = current();
      Cell stored = r == null ? null : r.cell(e.getKey());
      if (stored != null && stored.isTombstone()) {
        continue;
      }
      long total = e.getValue();
      long at = ts;
      if (stored != null) {
        total += ByteBuffer.wrap(stored.value()).getLong();
        at = Math.max(ts, stored.timestamp() + 1);
      }
      cells.add(Cell.counter(e.getKey(), at, ByteBuffer.allocate(8).putLong(total).array()));
    }
    Cell[] sorted = cells.toArray(new Cell[0]);
    Arrays.sort(sorted, Cell::compareKeys);
    int n = 0;
    for (int i = 0; i < sorted.length; i++) {
      if (n > 0 && Cell.compareKeys(sorted[n - 1], sorted[i]) == 0) {
        sorted[n - 1] = Cell.reconcile(sorted[n - 1], sorted[i]);
      } else {
        sorted[n++] = sorted[i];
      }
    }
    ComplexDeletion[] cds = new ComplexDeletion[complex.size()];
    int k = 0;
    for (Map.Entry<Integer, DeletionTime> e : complex.entrySet()) {
      cds[k++] = new ComplexDeletion(e.getKey(), e.getValue());
    }
    return new Row(
        clustering,
        liveness,
        DeletionTime.LIVE,
        cds.length == 0 ? Row.NO_COMPLEX_DELETIONS : cds,
        n == sorted.length ? sorted : Arrays.copyOf(sorted, n));
  }
}
