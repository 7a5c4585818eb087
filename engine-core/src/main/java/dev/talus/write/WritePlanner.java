package dev.talus.write;

import dev.talus.ColumnDef;
import dev.talus.InvalidQueryException;
import dev.talus.TableSchema;
import dev.talus.data.ClusteringBytes;
import dev.talus.data.DeletionTime;
import dev.talus.data.LivenessInfo;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionUpdate;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.request.ElementOp;
import dev.talus.request.Restriction;
import dev.talus.request.WriteRequest;
import dev.talus.schema.ClusteringPrefix;
import dev.talus.schema.Columns;
import dev.talus.schema.KeyCodec;
import dev.talus.schema.PartitionKeys;
import java.time.Duration;
import java.util.ArrayList;
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

  /** How a write that reads first finds the row as stored now. */
  @FunctionalInterface
  interface CurrentRows {
    Row read(PartitionKey key, byte[] clustering);
  }

  private WritePlanner() {}

  static PartitionUpdate plan(
      KeyCodec keys,
      WriteRequest req,
      long timestamp,
      long nowSec,
      CurrentRows current,
      ListPaths paths) {
    TableSchema s = keys.schema();
    Plan p = new Plan(keys, s, timestamp, nowSec, current, paths);
    return switch (req.kind()) {
      case INSERT -> p.insert(req);
      case UPDATE -> p.update(req);
      case DELETE -> p.delete(req);
    };
  }

  /** The partition key a write names, for the counter lock, validated like the write itself. */
  static PartitionKey partitionKeyOf(KeyCodec keys, WriteRequest req) {
    TableSchema s = keys.schema();
    if (req.kind() == WriteRequest.Kind.INSERT) {
      Object[] pk = new Object[s.partitionKey().size()];
      for (int i = 0; i < pk.length; i++) {
        ColumnDef c = s.partitionKey().get(i);
        pk[i] = Columns.keyValue(s, c, req.values().get(c.name()));
      }
      return partitionKey(keys, s, pk);
    }
    Map<String, Object> eq = new HashMap<>();
    for (Restriction r : req.where()) {
      ColumnDef c = Columns.column(s, r.column());
      if (c.kind() == ColumnDef.Kind.PARTITION_KEY && r.op() == Restriction.Op.EQ) {
        eq.put(c.name(), Columns.keyValue(s, c, r.value()));
      }
    }
    return partitionKey(keys, s, partitionKeyValues(s, eq, req.kind().name()));
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

  static void checkValueSize(TableSchema s, ColumnDef c, byte[] v) {
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
  }

  /** One write being planned: its table, timestamp and the rows it builds. */
  private static final class Plan {
    private final KeyCodec keys;
    private final TableSchema s;
    private final long ts;
    private final long now;
    private final CurrentRows current;
    private final ListPaths paths;

    Plan(KeyCodec keys, TableSchema s, long ts, long now, CurrentRows current, ListPaths paths) {
      this.keys = keys;
      this.s = s;
      this.ts = ts;
      this.now = now;
      this.current = current;
      this.paths = paths;
    }

    private RowWriter writer(PartitionKey key, byte[] clustering, int ttl) {
      return new RowWriter(keys, ts, ttl, now, paths, () -> current.read(key, clustering));
    }

    PartitionUpdate insert(WriteRequest req) {
      if (s.isCounterTable()) {
        throw new InvalidQueryException(
            "INSERT statements are not allowed on counter tables, use UPDATE instead ("
                + s.name()
                + ")");
      }
      Map<String, Object> values = req.values();
      boolean regular = false;
      boolean statics = false;
      for (String c : values.keySet()) {
        ColumnDef def = Columns.column(s, c);
        regular |= def.kind() == ColumnDef.Kind.REGULAR;
        statics |= def.isStatic();
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
      List<String> missing = new ArrayList<>();
      for (ColumnDef c : s.clustering()) {
        if (values.containsKey(c.name())) {
          ck.add(Columns.keyValue(s, c, values.get(c.name())));
        } else {
          missing.add(c.name());
        }
      }
      boolean staticOnly = ck.isEmpty() && !s.clustering().isEmpty() && !regular && statics;
      if (!missing.isEmpty() && !staticOnly) {
        throw new InvalidQueryException(
            "INSERT into "
                + s.name()
                + " must give every primary key column; Some clustering keys are missing: "
                + String.join(", ", missing)
                + (s.staticColumns().isEmpty()
                    ? ""
                    : " (only an insert of static columns alone may leave them out)"));
      }
      int ttl = ttlSeconds(s, req.ttl());
      PartitionKey key = partitionKey(keys, s, pk);
      RowWriter staticRow = writer(key, ClusteringBytes.STATIC, ttl);
      byte[] clustering = staticOnly ? null : keys.row(ck);
      RowWriter row = staticOnly ? null : writer(key, clustering, ttl);
      for (Map.Entry<String, Object> e : values.entrySet()) {
        ColumnDef c = Columns.column(s, e.getKey());
        if (!c.isPrimaryKey()) {
          (c.isStatic() ? staticRow : row).set(c, e.getValue());
        }
      }
      PartitionUpdate.Builder b = PartitionUpdate.builder(key);
      if (!staticRow.isEmpty()) {
        b.addRow(staticRow.build(ClusteringBytes.STATIC, LivenessInfo.EMPTY));
      }
      if (row != null) {
        LivenessInfo l = ttl > 0 ? LivenessInfo.expiring(ts, ttl, now) : LivenessInfo.of(ts);
        b.addRow(row.build(clustering, l));
      }
      return b.build();
    }

    PartitionUpdate update(WriteRequest req) {
      if (s.isCounterTable()) {
        if (req.ttl() != null) {
          throw new InvalidQueryException("Cannot provide custom TTL for counter updates");
        }
        if (req.timestamp() != null) {
          throw new InvalidQueryException("Cannot provide custom timestamp for counter updates");
        }
      }
      Map<String, Object> where = equalities(s, req.where(), "UPDATE");
      boolean regular = false;
      for (String c : req.values().keySet()) {
        ColumnDef def = Columns.column(s, c);
        if (def.isPrimaryKey()) {
          throw new InvalidQueryException(
              "UPDATE cannot set primary key column "
                  + c
                  + " of "
                  + s.name()
                  + ": a row's key is its identity; delete the row and insert one with the new"
                  + " key");
        }
        regular |= def.kind() == ColumnDef.Kind.REGULAR;
      }
      for (ElementOp op : req.operations()) {
        ColumnDef def = Columns.column(s, op.column());
        if (def.isPrimaryKey()) {
          throw new InvalidQueryException(
              "UPDATE cannot change primary key column " + op.column() + " of " + s.name());
        }
        regular |= def.kind() == ColumnDef.Kind.REGULAR;
      }
      if (req.values().isEmpty() && req.operations().isEmpty()) {
        throw new InvalidQueryException("UPDATE of " + s.name() + " sets no column");
      }
      Object[] pk = partitionKeyValues(s, where, "UPDATE");
      byte[] clustering = regular ? fullClustering(where, "UPDATE") : null;
      if (!regular) {
        noClustering(where, "UPDATE");
      }
      int ttl = ttlSeconds(s, req.ttl());
      PartitionKey key = partitionKey(keys, s, pk);
      RowWriter statics = writer(key, ClusteringBytes.STATIC, ttl);
      RowWriter row = regular ? writer(key, clustering, ttl) : null;
      for (Map.Entry<String, Object> e : req.values().entrySet()) {
        ColumnDef c = Columns.column(s, e.getKey());
        (c.isStatic() ? statics : row).set(c, e.getValue());
      }
      for (ElementOp op : req.operations()) {
        ColumnDef c = Columns.column(s, op.column());
        (c.isStatic() ? statics : row).apply(c, op);
      }
      PartitionUpdate.Builder b = PartitionUpdate.builder(key);
      Row st = statics.isEmpty() ? null : statics.build(ClusteringBytes.STATIC, LivenessInfo.EMPTY);
      if (st != null && !st.isEmpty()) {
        b.addRow(st);
      }
      if (row != null) {
        Row r = row.build(clustering, LivenessInfo.EMPTY);
        if (!r.isEmpty()) {
          b.addRow(r);
        }
      }
      return b.build();
    }

    private byte[] fullClustering(Map<String, Object> where, String verb) {
      List<Object> ck = new ArrayList<>();
      for (ColumnDef c : s.clustering()) {
        if (!where.containsKey(c.name())) {
          throw new InvalidQueryException(
              verb
                  + " of "
                  + s.name()
                  + " must identify one row: restrict clustering column "
                  + c.name()
                  + " with where(...)");
        }
        ck.add(where.get(c.name()));
      }
      return keys.row(ck);
    }

    private void noClustering(Map<String, Object> where, String verb) {
      for (ColumnDef c : s.clustering()) {
        if (where.containsKey(c.name())) {
          throw new InvalidQueryException(
              "Invalid restrictions on clustering columns since the "
                  + verb
                  + " statement modifies only static columns ("
                  + s.name()
                  + "): name the partition alone");
        }
      }
    }

    PartitionUpdate delete(WriteRequest req) {
      Map<String, Object> eq = new HashMap<>();
      List<Restriction> slices = new ArrayList<>();
      for (Restriction r : req.where()) {
        ColumnDef c = Columns.column(s, r.column());
        if (!c.isPrimaryKey()) {
          throw new InvalidQueryException(
              "DELETE can only be restricted by primary key columns; "
                  + r.column()
                  + " is a "
                  + (c.isStatic() ? "static" : "regular")
                  + " column of "
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
          slices.add(
              new Restriction(r.column(), r.op(), List.of(Columns.keyValue(s, c, r.value()))));
        }
      }
      Object[] pk = partitionKeyValues(s, eq, "DELETE");
      PartitionKey key = partitionKey(keys, s, pk);
      DeletionTime d = new DeletionTime(ts, now);
      ClusteringPrefix prefix = ClusteringPrefix.of(s, eq, slices, "DELETE");
      PartitionUpdate.Builder b = PartitionUpdate.builder(key);
      boolean fullRow = prefix.values().size() == s.clustering().size() && !prefix.hasSlice();
      if (!req.deleteColumns().isEmpty() || !req.operations().isEmpty()) {
        return deleteColumns(req, key, eq, prefix, fullRow, b);
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

    private PartitionUpdate deleteColumns(
        WriteRequest req,
        PartitionKey key,
        Map<String, Object> eq,
        ClusteringPrefix prefix,
        boolean fullRow,
        PartitionUpdate.Builder b) {
      boolean regular = false;
      List<ColumnDef> cols = new ArrayList<>();
      for (String name : req.deleteColumns()) {
        ColumnDef c = Columns.column(s, name);
        if (c.isPrimaryKey()) {
          throw new InvalidQueryException(
              "cannot delete primary key column " + name + " alone; delete the row instead");
        }
        cols.add(c);
        regular |= !c.isStatic();
      }
      for (ElementOp op : req.operations()) {
        ColumnDef c = Columns.column(s, op.column());
        if (c.isPrimaryKey()) {
          throw new InvalidQueryException(
              "cannot delete an element of primary key column " + op.column());
        }
        regular |= !c.isStatic();
      }
      if (regular && !fullRow) {
        throw new InvalidQueryException(
            "deleting columns of "
                + s.name()
                + " needs the full primary key: restrict every clustering column by equality");
      }
      if (!regular && (!prefix.values().isEmpty() || prefix.hasSlice())) {
        noClustering(eq, "DELETE");
      }
      byte[] clustering = regular ? keys.row(prefix.values()) : null;
      RowWriter statics = writer(key, ClusteringBytes.STATIC, 0);
      RowWriter row = regular ? writer(key, clustering, 0) : null;
      for (ColumnDef c : cols) {
        (c.isStatic() ? statics : row).delete(c);
      }
      for (ElementOp op : req.operations()) {
        ColumnDef c = Columns.column(s, op.column());
        (c.isStatic() ? statics : row).apply(c, op);
      }
      if (!statics.isEmpty()) {
        b.addRow(statics.build(ClusteringBytes.STATIC, LivenessInfo.EMPTY));
      }
      if (row != null && !row.isEmpty()) {
        b.addRow(row.build(clustering, LivenessInfo.EMPTY));
      }
      return b.build();
    }
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
