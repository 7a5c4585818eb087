package dev.talus.read;

import dev.talus.ClusteringOrder;
import dev.talus.ColumnDef;
import dev.talus.InvalidQueryException;
import dev.talus.TableSchema;
import dev.talus.data.PartitionKey;
import dev.talus.data.Slice;
import dev.talus.request.ReadRequest;
import dev.talus.request.Restriction;
import dev.talus.schema.ClusteringPrefix;
import dev.talus.schema.Columns;
import dev.talus.schema.KeyCodec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a read against the query-first rules and turns it into a {@link Plan}: the partitions to
 * read, one clustering slice, the direction, limits, projection and filters. Every refusal names
 * the rule and the fix. Stateless.
 */
final class QueryPlanner {
  private QueryPlanner() {}

  /** A filter on a regular column (only with allowFiltering). */
  record Filter(ColumnDef column, int id, Restriction.Op op, Object value) {}

  /** A validated read. */
  record Plan(
      List<Object[]> partitionValues,
      List<PartitionKey> keys,
      Slice slice,
      boolean reversed,
      int limit,
      int pageSize,
      List<ColumnDef> projection,
      List<Filter> filters,
      int startPartition,
      byte[] resumeAfter,
      int alreadyReturned,
      TableSchema schema,
      ReadRequest request,
      int perPartitionLimit) {
    /** Identifies the query in its paging states; computed only when paging needs it. */
    int queryHash() {
      return Paging.queryHash(schema, request);
    }
  }

  static Plan plan(KeyCodec keys, ReadRequest r) {
    TableSchema s = keys.schema();
    if (r.perPartitionLimit() != Integer.MAX_VALUE
        && (r.pageSize() != Integer.MAX_VALUE || r.pagingState() != null)) {
      throw new InvalidQueryException(
          "perPartitionLimit cannot be combined with paging yet; use limit and perPartitionLimit"
              + " without pageSize");
    }
    Map<String, List<Restriction>> byColumn = new LinkedHashMap<>();
    for (Restriction x : r.restrictions()) {
      ColumnDef rc = Columns.column(s, x.column());
      if (rc.isPrimaryKey()) {
        ValueFilters.checkKeyColumn(s, rc, x);
      }
      byColumn.computeIfAbsent(x.column(), k -> new ArrayList<>()).add(x);
    }
    // Rule 1: the full partition key, by equality or IN.
    List<List<Object>> pkChoices = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (ColumnDef c : s.partitionKey()) {
      List<Restriction> rs = byColumn.getOrDefault(c.name(), List.of());
      if (rs.isEmpty()) {
        missing.add(c.name());
        continue;
      }
      if (rs.size() > 1 || rs.get(0).op().isSlice()) {
        throw new InvalidQueryException(
            "partition key column "
                + c.name()
                + " of "
                + s.name()
                + " can only be restricted once, by eq(...) or in(...). Rule: a read names its"
                + " partitions; partitions are placed by hash, so there is no range over them."
                + " Fix: give the exact value(s), or bucket the data by a column you can"
                + " enumerate");
      }
      List<Object> vals = new ArrayList<>();
      for (Object v : rs.get(0).values()) {
        vals.add(Columns.keyValue(s, c, v));
      }
      if (vals.isEmpty()) {
        throw new InvalidQueryException("in(" + c.name() + ") needs at least one value");
      }
      pkChoices.add(vals);
    }
    if (!missing.isEmpty()) {
      throw new InvalidQueryException(
          "query on "
              + s.name()
              + " does not restrict partition key column(s) "
              + missing
              + ". Rule: every read must give the full partition key "
              + s.partitionKey().stream().map(ColumnDef::name).toList()
              + ", because a partition is found by the hash of its whole key. Fix: add eq(...)"
              + " for "
              + missing
              + ", or create a table partitioned by the columns this query knows"
              + " (query-first design: one table per query)");
    }
    List<Object[]> partitions = cartesian(pkChoices);
    if (partitions.size() > 1000) {
      throw new InvalidQueryException(
          "IN restrictions select " + partitions.size() + " partitions; the limit is 1000");
    }
    // Rule 2: clustering left to right, range only on the last restricted column.
    Map<String, Object> eq = new HashMap<>();
    List<Restriction> slices = new ArrayList<>();
    List<Filter> filters = new ArrayList<>();
    for (ColumnDef c : s.clustering()) {
      for (Restriction x : byColumn.getOrDefault(c.name(), List.of())) {
        if (x.op() == Restriction.Op.IN) {
          throw new InvalidQueryException(
              "in(...) on clustering column "
                  + c.name()
                  + " is not supported; use eq(...) or a range, or run one query per value");
        }
        Object v = Columns.keyValue(s, c, x.value());
        if (x.op() == Restriction.Op.EQ) {
          if (eq.put(c.name(), v) != null) {
            throw new InvalidQueryException("column " + c.name() + " is restricted twice");
          }
        } else {
          slices.add(new Restriction(c.name(), x.op(), List.of(v)));
        }
      }
    }
    ClusteringPrefix prefix = ClusteringPrefix.of(s, eq, slices, "query");
    byte[][] b = prefix.bounds(keys);
    // Rule 4: regular and static columns only as filters, with explicit opt-in.
    for (ColumnDef c : s.nonKeyColumns()) {
      for (Restriction x : byColumn.getOrDefault(c.name(), List.of())) {
        if (!r.allowFiltering()) {
          throw new InvalidQueryException(
              "query on "
                  + s.name()
                  + " restricts regular column "
                  + c.name()
                  + ". Rule: only primary key columns locate rows; a condition on a regular"
                  + " column means reading and discarding rows. Fix: create a table keyed by "
                  + c.name()
                  + " for this query, or, if the named partitions are small, opt in with"
                  + " allowFiltering()");
        }
        if (x.op() == Restriction.Op.IN) {
          throw new InvalidQueryException(
              "in(...) on regular column " + c.name() + " is not supported");
        }
        if (x.op() == Restriction.Op.CONTAINS || x.op() == Restriction.Op.CONTAINS_KEY) {
          filters.add(ValueFilters.contains(s, c, keys.regularId(c.name()), x));
          continue;
        }
        if (c.type().isMultiCell()) {
          throw new InvalidQueryException(
              "Collection column "
                  + c.name()
                  + " of "
                  + s.name()
                  + " ("
                  + c.type().cqlName()
                  + ") can only be restricted by CONTAINS or CONTAINS KEY");
        }
        if (x.value() == null) {
          throw new InvalidQueryException("cannot filter " + c.name() + " against null");
        }
        filters.add(
            new Filter(c, keys.regularId(c.name()), x.op(), Columns.coerce(s, c, x.value())));
      }
    }
    // Rule 3: clustering order or its exact reverse.
    boolean reversed = r.reversed() ^ orderReversed(s, r.orderBy());
    List<ColumnDef> projection = new ArrayList<>();
    if (r.columns().isEmpty() && r.selectors().isEmpty()) {
      projection.addAll(s.columns());
    } else {
      for (String name : r.columns()) {
        projection.add(Columns.column(s, name));
      }
    }
    List<PartitionKey> pks = new ArrayList<>();
    for (Object[] p : partitions) {
      pks.add(keys.partitionKey(p));
    }
    Paging.Resume resume = Paging.resume(s, r, pks.size());
    return new Plan(
        partitions,
        pks,
        new Slice(b[0], b[1]),
        reversed,
        r.limit(),
        r.pageSize(),
        projection,
        filters,
        resume.startPartition(),
        resume.after(),
        resume.alreadyReturned(),
        s,
        r,
        r.perPartitionLimit());
  }

  private static boolean orderReversed(
      TableSchema s, List<Map.Entry<String, ClusteringOrder>> orderBy) {
    if (orderBy.isEmpty()) {
      return false;
    }
    List<ColumnDef> ck = s.clustering();
    Boolean reversed = null;
    for (int i = 0; i < orderBy.size(); i++) {
      String name = orderBy.get(i).getKey();
      ColumnDef c = s.column(name).orElse(null);
      if (c == null || c.kind() != ColumnDef.Kind.CLUSTERING) {
        throw new InvalidQueryException(
            "cannot order "
                + s.name()
                + " by "
                + name
                + ". Rule: rows come back in clustering order "
                + ck.stream().map(x -> x.name() + " " + x.order()).toList()
                + " or its reverse; there is no sort step. Fix: create a table clustered by "
                + name
                + " for this query");
      }
      if (i >= ck.size() || !ck.get(i).name().equals(name)) {
        throw new InvalidQueryException(
            "orderBy must list clustering columns in their declared order "
                + ck.stream().map(ColumnDef::name).toList()
                + "; "
                + name
                + " is out of place. Rule: rows come back in clustering order or its exact"
                + " reverse; there is no sort step. Fix: order by a left-to-right prefix of "
                + ck.stream().map(ColumnDef::name).toList()
                + ", or create a table clustered in the order this query needs");
      }
      boolean rev = orderBy.get(i).getValue() != c.order();
      if (reversed != null && reversed != rev) {
        throw new InvalidQueryException(
            "orderBy "
                + orderBy
                + " mixes directions on "
                + s.name()
                + ". Rule: rows come back in clustering order "
                + ck.stream().map(x -> x.name() + " " + x.order()).toList()
                + " or its exact reverse. Fix: reverse every column or none, or create a table"
                + " with the clustering order this query needs");
      }
      reversed = rev;
    }
    return reversed;
  }

  private static List<Object[]> cartesian(List<List<Object>> choices) {
    List<Object[]> out = new ArrayList<>();
    out.add(new Object[0]);
    for (List<Object> c : choices) {
      List<Object[]> next = new ArrayList<>();
      for (Object[] prefix : out) {
        for (Object v : c) {
          Object[] a = java.util.Arrays.copyOf(prefix, prefix.length + 1);
          a[prefix.length] = v;
          next.add(a);
        }
      }
      out = next;
    }
    return out;
  }
}
