package dev.talus.write;

import dev.talus.ColumnDef;
import dev.talus.InvalidQueryException;
import dev.talus.TableSchema;
import dev.talus.codec.TypeCodec;
import dev.talus.data.Cell;
import dev.talus.data.DeletionTime;
import dev.talus.data.LivenessInfo;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionUpdate;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.request.Restriction;
import dev.talus.request.WriteRequest;
import dev.talus.schema.ClusteringPrefix;
import dev.talus.schema.Columns;
import dev.talus.schema.KeyCodec;
import dev.talus.schema.PartitionKeys;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Validates a {@link WriteRequest} against its table and turns it into a {@link PartitionUpdate}.
 * Everything is checked before anything is built, so a refused write stores nothing. Stateless.
 */
final class WritePlanner {
  /** Largest single value accepted (the commit log caps whole mutations separately). */
  static final int MAX_VALUE_BYTES = 16 << 20;

  private WritePlanner() {}

  static PartitionUpdate plan(KeyCodec keys, WriteRequest req, long timestamp, long nowSec) {
    TableSchema s = keys.schema();
    return switch (req.kind()) {
      case INSERT -> insert(keys, s, req, timestamp, nowSec);
      case UPDATE -> update(keys, s, req, timestamp, nowSec);
      case DELETE -> delete(keys, s, req, timestamp, nowSec);
    };
  }

  static int ttlSeconds(TableSchema s, Duration requested) {
    Duration ttl = requested != null ? requested : s.defaultTimeToLive();
    if (ttl.isNegative()) {
      throw new InvalidQueryException("TTL must not be negative, got " + ttl);
    }
    if (ttl.compareTo(TableSchema.MAX_TTL) > 0) {
      throw new InvalidQueryException(
          "TTL must be at most "
              + TableSchema.MAX_TTL.getSeconds()
              + " seconds (20 × 365 days, Cassandra's limit), got "
              + ttl.getSeconds()
              + " seconds");
    }
    if (ttl.getNano() != 0) {
      throw new InvalidQueryException("TTL is counted in whole seconds, got " + ttl);
    }
    return (int) ttl.getSeconds();
  }

  private static PartitionUpdate insert(
      KeyCodec keys, TableSchema s, WriteRequest req, long ts, long now) {
    Map<String, Object> values = req.values();
    for (String c : values.keySet()) {
      Columns.column(s, c);
    }
    Object[] pk = new Object[s.partitionKey().size()];
    for (int i = 0; i < pk.length; i++) {
      ColumnDef c = s.partitionKey().get(i);
      if (!values.containsKey(c.name())) {
        throw new InvalidQueryException(
            "INSERT into " + s.name() + " must give partition key column " + c.name());
      }
      pk[i] = Columns.keyValue(s, c, values.get(c.name()));
    }
    List<Object> ck = new ArrayList<>();
    for (ColumnDef c : s.clustering()) {
      if (!values.containsKey(c.name())) {
        throw new InvalidQueryException(
            "INSERT into "
                + s.name()
                + " must give every primary key column; missing clustering column "
                + c.name());
      }
      ck.add(Columns.keyValue(s, c, values.get(c.name())));
    }
    int ttl = ttlSeconds(s, req.ttl());
    Cell[] cells = cells(keys, s, values, ts, ttl, now);
    LivenessInfo l = ttl > 0 ? LivenessInfo.expiring(ts, ttl, now) : LivenessInfo.of(ts);
    PartitionKey key = partitionKey(keys, s, pk);
    Row row = new Row(keys.row(ck), l, DeletionTime.LIVE, cells);
    return PartitionUpdate.builder(key).addRow(row).build();
  }

  private static PartitionUpdate update(
      KeyCodec keys, TableSchema s, WriteRequest req, long ts, long now) {
    Map<String, Object> where = equalities(s, req.where(), "UPDATE");
    for (String c : req.values().keySet()) {
      ColumnDef def = Columns.column(s, c);
      if (def.isPrimaryKey()) {
        throw new InvalidQueryException(
            "UPDATE cannot set primary key column "
                + c
                + " of "
                + s.name()
                + ": a row's key is its identity; delete the row and insert one with the new key");
      }
    }
    if (req.values().isEmpty()) {
      throw new InvalidQueryException("UPDATE of " + s.name() + " sets no column");
    }
    Object[] pk = partitionKeyValues(s, where, "UPDATE");
    List<Object> ck = new ArrayList<>();
    for (ColumnDef c : s.clustering()) {
      if (!where.containsKey(c.name())) {
        throw new InvalidQueryException(
            "UPDATE of "
                + s.name()
                + " must identify one row: restrict clustering column "
                + c.name()
                + " with where(...)");
      }
      ck.add(where.get(c.name()));
    }
    int ttl = ttlSeconds(s, req.ttl());
    Cell[] cells = cells(keys, s, req.values(), ts, ttl, now);
    Row row = new Row(keys.row(ck), LivenessInfo.EMPTY, DeletionTime.LIVE, cells);
    return PartitionUpdate.builder(partitionKey(keys, s, pk)).addRow(row).build();
  }

  private static PartitionUpdate delete(
      KeyCodec keys, TableSchema s, WriteRequest req, long ts, long now) {
    Map<String, Object> eq = new HashMap<>();
    List<Restriction> slices = new ArrayList<>();
    for (Restriction r : req.where()) {
      ColumnDef c = Columns.column(s, r.column());
      if (c.kind() == ColumnDef.Kind.REGULAR) {
        throw new InvalidQueryException(
            "DELETE can only be restricted by primary key columns; "
                + r.column()
                + " is a regular column of "
                + s.name());
      }
      if (r.op() == Restriction.Op.EQ) {
        if (eq.put(r.column(), Columns.keyValue(s, c, r.value())) != null) {
          throw new InvalidQueryException("column " + r.column() + " is restricted twice");
        }
      } else {
        if (c.kind() != ColumnDef.Kind.CLUSTERING) {
          throw new InvalidQueryException(
              "partition key column " + r.column() + " can only be restricted by equality");
        }
        slices.add(new Restriction(r.column(), r.op(), List.of(Columns.keyValue(s, c, r.value()))));
      }
    }
    Object[] pk = partitionKeyValues(s, eq, "DELETE");
    PartitionKey key = partitionKey(keys, s, pk);
    DeletionTime d = new DeletionTime(ts, now);
    ClusteringPrefix prefix = ClusteringPrefix.of(s, eq, slices, "DELETE");
    PartitionUpdate.Builder b = PartitionUpdate.builder(key);
    boolean fullRow = prefix.values().size() == s.clustering().size() && !prefix.hasSlice();
    if (!req.deleteColumns().isEmpty()) {
      if (!fullRow) {
        throw new InvalidQueryException(
            "deleting columns of "
                + s.name()
                + " needs the full primary key: restrict every clustering column by equality");
      }
      Cell[] cells = new Cell[req.deleteColumns().size()];
      int n = 0;
      for (String name : req.deleteColumns()) {
        ColumnDef c = Columns.column(s, name);
        if (c.isPrimaryKey()) {
          throw new InvalidQueryException(
              "cannot delete primary key column " + name + " alone; delete the row instead");
        }
        cells[n++] = Cell.tombstone(keys.regularId(name), ts, now);
      }
      Arrays.sort(cells, (x, y) -> Integer.compare(x.column(), y.column()));
      return b.addRow(
              new Row(
                  keys.row(prefix.values()), LivenessInfo.EMPTY, DeletionTime.LIVE, dedupe(cells)))
          .build();
    }
    if (prefix.values().isEmpty() && !prefix.hasSlice()) {
      return b.deletePartition(d).build();
    }
    if (fullRow) {
      return b.addRow(Row.deletion(keys.row(prefix.values()), d)).build();
    }
    byte[][] bounds = prefix.bounds(keys);
    return b.addRangeTombstone(new RangeTombstone(bounds[0], bounds[1], d)).build();
  }

  private static Cell[] dedupe(Cell[] sorted) {
    int n = 0;
    for (int i = 0; i < sorted.length; i++) {
      if (i == 0 || sorted[i].column() != sorted[i - 1].column()) {
        sorted[n++] = sorted[i];
      }
    }
    return n == sorted.length ? sorted : Arrays.copyOf(sorted, n);
  }

  private static Cell[] cells(
      KeyCodec keys, TableSchema s, Map<String, Object> values, long ts, int ttl, long now) {
    List<Cell> cells = new ArrayList<>();
    for (Map.Entry<String, Object> e : values.entrySet()) {
      ColumnDef c = Columns.column(s, e.getKey());
      if (c.isPrimaryKey()) {
        continue;
      }
      int id = keys.regularId(c.name());
      if (e.getValue() == null) {
        cells.add(Cell.tombstone(id, ts, now));
        continue;
      }
      TypeCodec<?> codec = keys.regularCodec(id);
      byte[] v = codec.serialize(Columns.coerce(s, c, e.getValue()));
      if (v.length > MAX_VALUE_BYTES) {
        throw new InvalidQueryException(
            "value of column "
                + c.name()
                + " is "
                + v.length
                + " bytes; the limit is "
                + MAX_VALUE_BYTES
                + " bytes. Store large objects elsewhere and keep a reference");
      }
      cells.add(ttl > 0 ? Cell.expiring(id, ts, ttl, now, v) : Cell.live(id, ts, v));
    }
    cells.sort((x, y) -> Integer.compare(x.column(), y.column()));
    return cells.toArray(new Cell[0]);
  }

  private static Map<String, Object> equalities(
      TableSchema s, List<Restriction> where, String verb) {
    Map<String, Object> eq = new HashMap<>();
    for (Restriction r : where) {
      ColumnDef c = Columns.column(s, r.column());
      if (!c.isPrimaryKey()) {
        throw new InvalidQueryException(
            verb + " identifies rows by primary key columns only; " + r.column() + " is regular");
      }
      if (r.op() != Restriction.Op.EQ) {
        throw new InvalidQueryException(verb + " needs equality on " + r.column());
      }
      if (eq.put(r.column(), Columns.keyValue(s, c, r.value())) != null) {
        throw new InvalidQueryException("column " + r.column() + " is restricted twice");
      }
    }
    return eq;
  }

  private static Object[] partitionKeyValues(TableSchema s, Map<String, Object> eq, String verb) {
    Object[] pk = new Object[s.partitionKey().size()];
    for (int i = 0; i < pk.length; i++) {
      ColumnDef c = s.partitionKey().get(i);
      if (!eq.containsKey(c.name())) {
        throw new InvalidQueryException(
            verb
                + " on "
                + s.name()
                + " must restrict every partition key column by equality; missing "
                + c.name());
      }
      pk[i] = eq.get(c.name());
    }
    return pk;
  }

  private static PartitionKey partitionKey(KeyCodec keys, TableSchema s, Object[] pk) {
    return PartitionKeys.of(keys, pk);
  }
}
