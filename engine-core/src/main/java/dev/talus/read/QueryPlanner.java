package dev.talus.read;

import dev.talus.ClusteringOrder;
import dev.talus.ColumnDef;
import dev.talus.InvalidQueryException;
import dev.talus.TableSchema;
import dev.talus.codec.TypeCodec;
import dev.talus.data.PartitionKey;
import dev.talus.data.Slice;
import dev.talus.request.ReadRequest;
import dev.talus.request.Restriction;
import dev.talus.schema.Columns;
import dev.talus.schema.KeyCodec;
import dev.talus.schema.PartitionKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Checks a read against the query-first rules (Cassandra's CQL restrictions) and turns it into a
 * {@link Plan}: the partitions to read (in partition key order, each once), the clustering slices
 * ({@link ClusteringPlanner}), the direction, whether the partitions' rows are merged into one
 * clustering order, limits, projection and filters. Every refusal names the rule and the fix.
 * Stateless.
 */
final class QueryPlanner {
  /** Most partitions the IN restrictions of one read may select. */
  static final int MAX_PARTITIONS = 1000;

  private QueryPlanner() {}

  /**
   * A condition checked row by row: on a regular column (only with allowFiltering; {@code id} is
   * its column id) or on a clustering column ({@code id} is its position in the clustering).
   */
  record Filter(ColumnDef column, int id, Restriction.Op op, Object value) {}

  /**
   * A validated read.
   *
   * @param keys the partitions, in partition key order, distinct
   * @param slices the clustering slices to read, sorted, disjoint (none: the read matches nothing)
   * @param merged the rows of several partitions come back merged into clustering order (an IN on
   *     the partition key with an order), not partition after partition
   * @param scan the token range of a read that names no partition (then {@code keys} is empty and
   *     {@code resume} unused: {@link TableScan} reads its own paging state), or null
   */
  record Plan(
      List<Object[]> partitionValues,
      List<PartitionKey> keys,
      List<Slice> slices,
      boolean reversed,
      boolean merged,
      int limit,
      int pageSize,
      List<ColumnDef> projection,
      List<Filter> filters,
      Paging.Resume resume,
      TableSchema schema,
      ReadRequest request,
      int perPartitionLimit,
      TokenRange scan) {
    /** Identifies the query in its paging states; computed only when paging needs it. */
    int queryHash() {
      return Paging.queryHash(schema, request);
    }

    boolean isEmpty() {
      return (scan == null ? keys.isEmpty() : scan.isEmpty()) || slices.isEmpty();
    }
  }

  static Plan plan(KeyCodec keys, ReadRequest r) {
    Plan point = PointPlanner.plan(keys, r);
    return point != null ? point : general(keys, r);
  }

  /** Any read, through every rule; {@link PointPlanner} answers one-row reads the same, faster. */
  static Plan general(KeyCodec keys, ReadRequest r) {
    TableSchema s = keys.schema();
    Map<String, List<Restriction>> byColumn = new LinkedHashMap<>();
    for (Restriction x : r.restrictions()) {
      ColumnDef rc = Columns.column(s, x.column());
      if (rc.isPrimaryKey()) {
        ValueFilters.checkKeyColumn(s, rc, x);
      }
      byColumn.computeIfAbsent(x.column(), k -> new ArrayList<>(1)).add(x);
    }
    // Rule 1: the full partition key, by equality or IN; or none at all, a scan (filtering across
    // partitions only with explicit opt-in).
    TokenRange scan = scanRange(s, byColumn, r);
    List<Object[]> partitions = scan != null ? List.of() : partitions(s, byColumn);
    List<PartitionKey> pks = new ArrayList<>(partitions.size());
    for (Object[] p : partitions) {
      pks.add(PartitionKeys.of(keys, p));
    }
    // Rule 2: clustering left to right, a range only on the last restricted column; the rest
    // only as filters, with explicit opt-in.
    ClusteringPlanner.Result ck =
        ClusteringPlanner.plan(keys, byColumn, r.tupleRestrictions(), r.allowFiltering());
    List<Filter> filters = ck.filters();
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
                  + " for this query (the fastest read; one more write per row), index "
                  + c.name()
                  + " with createIndex (CQL: CREATE INDEX ... USING 'sai'; a read then visits"
                  + " each SSTable's index), or, if the named partitions are small, opt in with"
                  + " allowFiltering()");
        }
        if (x.op() == Restriction.Op.IN) {
          throw new InvalidQueryException(
              "in(...) on regular column " + c.name() + " is not supported");
        }
        if (filters.isEmpty()) {
          filters = new ArrayList<>(1);
        } else if (!(filters instanceof ArrayList)) {
          filters = new ArrayList<>(filters);
        }
        if (x.op() == Restriction.Op.ANALYZED_EQ) {
          filters.add(new Filter(c, keys.regularId(c.name()), x.op(), x.value()));
          continue;
        }
        if (x.op() == Restriction.Op.MAP_ENTRY) {
          filters.add(ValueFilters.entry(s, c, keys.regularId(c.name()), x));
          continue;
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
    boolean ordered = r.reversed() || !r.orderBy().isEmpty();
    boolean reversed = r.reversed() ^ orderReversed(s, r.orderBy(), ck.restrictedByEq());
    if (scan != null && ordered) {
      throw new InvalidQueryException(
          "a scan of "
              + s.name()
              + " cannot be ordered: partitions come back in token order, rows of each in"
              + " clustering order. Rule: an order is only possible within named partitions"
              + " (as Cassandra: ORDER BY needs the partition key restricted by eq or in). Fix:"
              + " name the partitions with eq(...) or in(...), or drop orderBy/reversed");
    }
    boolean merged = ordered && pks.size() > 1;
    if (merged
        && r.perPartitionLimit() != Integer.MAX_VALUE
        && (r.pageSize() != Integer.MAX_VALUE || r.pagingState() != null)) {
      throw new InvalidQueryException(
          "perPartitionLimit cannot be combined with paging when the rows of several partitions"
              + " are merged into one order (in(...) on the partition key with orderBy or"
              + " reversed). Cassandra refuses to page any ordered IN query. Fix: read without"
              + " pageSize, or drop the order and get the partitions one after the other");
    }
    List<ColumnDef> projection = projection(s, r);
    Paging.Resume resume =
        scan != null ? new Paging.Resume(0, 0, null, 0) : Paging.resume(s, r, pks.size());
    return new Plan(
        partitions,
        pks,
        ck.slices(),
        reversed,
        merged,
        r.limit(),
        r.pageSize(),
        projection,
        filters,
        resume,
        s,
        r,
        r.perPartitionLimit(),
        scan);
  }

  /** The columns a read returns: those it names, or every column when it names none. */
  static List<ColumnDef> projection(TableSchema s, ReadRequest r) {
    List<ColumnDef> projection = new ArrayList<>();
    if (r.columns().isEmpty() && r.selectors().isEmpty()) {
      projection.addAll(s.columns());
    } else {
      for (String name : r.columns()) {
        projection.add(Columns.column(s, name));
      }
    }
    return projection;
  }

  /**
   * The token range of a read that restricts no partition key column (a scan), or null. A scan that
   * restricts a clustering or regular column filters across partitions and needs the opt-in.
   */
  private static TokenRange scanRange(
      TableSchema s, Map<String, List<Restriction>> byColumn, ReadRequest r) {
    boolean keyed = false;
    for (ColumnDef c : s.partitionKey()) {
      keyed |= byColumn.containsKey(c.name());
    }
    TokenRange range;
    if (!r.tokenRestrictions().isEmpty()) {
      if (keyed) {
        throw new InvalidQueryException(
            "partition key columns of "
                + s.name()
                + " cannot be restricted both by eq/in and by a token range. Fix: use one or the"
                + " other");
      }
      range = TokenRange.of(r.tokenRestrictions());
    } else if (keyed) {
      return null;
    } else {
      range = TokenRange.ALL;
    }
    if (!r.allowFiltering() && (!byColumn.isEmpty() || !r.tupleRestrictions().isEmpty())) {
      List<String> filtered = new ArrayList<>(byColumn.keySet());
      r.tupleRestrictions().forEach(t -> filtered.addAll(t.columns()));
      throw new InvalidQueryException(
          "query on "
              + s.name()
              + " restricts "
              + filtered
              + " but not the partition key "
              + s.partitionKey().stream().map(ColumnDef::name).toList()
              + ": it would read every partition of the table and discard the rows that do not"
              + " match. Rule: a read names its partitions; a condition without them is a scan"
              + " whose cost grows with the table, not with the result. Fix: create a table"
              + " partitioned by the column(s) this query knows (query-first design: one table"
              + " per query; the fastest read, one more write per row), index a regular column it"
              + " restricts with createIndex (CQL: CREATE INDEX ... USING 'sai'; a read then"
              + " visits each SSTable's index and reads the rows found), or, for a small table or"
              + " a one-off job, opt in with allowFiltering()");
    }
    return range;
  }

  /**
   * The partition key values the read names, in partition key order and each once (Cassandra builds
   * them the same way, as a sorted set); none if an IN has no values.
   */
  private static List<Object[]> partitions(TableSchema s, Map<String, List<Restriction>> byColumn) {
    List<ColumnDef> pk = s.partitionKey();
    List<List<Object>> choices = new ArrayList<>(pk.size());
    List<String> missing = List.of();
    long product = 1;
    for (ColumnDef c : pk) {
      List<Restriction> rs = byColumn.getOrDefault(c.name(), List.of());
      if (rs.isEmpty()) {
        if (missing.isEmpty()) {
          missing = new ArrayList<>(pk.size());
        }
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
      List<Object> given = rs.get(0).values();
      List<Object> vals;
      if (given.size() == 1) {
        vals = List.of(Columns.keyValue(s, c, given.get(0)));
      } else {
        TreeSet<Object> sorted = new TreeSet<>(TypeCodec.of(c.type()).comparator());
        for (Object v : given) {
          sorted.add(Columns.keyValue(s, c, v));
        }
        vals = new ArrayList<>(sorted);
      }
      product *= vals.size();
      choices.add(vals);
    }
    if (!missing.isEmpty()) {
      throw new InvalidQueryException(
          "query on "
              + s.name()
              + " does not restrict partition key column(s) "
              + missing
              + ". Rule: every read must give the full partition key "
              + pk.stream().map(ColumnDef::name).toList()
              + ", because a partition is found by the hash of its whole key. Fix: add eq(...)"
              + " for "
              + missing
              + ", or create a table partitioned by the columns this query knows"
              + " (query-first design: one table per query)");
    }
    if (product > MAX_PARTITIONS) {
      throw new InvalidQueryException(
          "IN restrictions select "
              + product
              + " partitions; the limit is "
              + MAX_PARTITIONS
              + ". Read fewer partitions per query");
    }
    return cartesian(choices, product);
  }

  /**
   * Whether the order asked for is the reverse of the clustering order. Columns restricted by
   * equality may be left out of it, as in Cassandra ({@code b = 0 ORDER BY c}).
   */
  private static boolean orderReversed(
      TableSchema s, List<Map.Entry<String, ClusteringOrder>> orderBy, boolean[] restrictedByEq) {
    if (orderBy.isEmpty()) {
      return false;
    }
    List<ColumnDef> ck = s.clustering();
    Boolean reversed = null;
    int next = 0;
    for (Map.Entry<String, ClusteringOrder> e : orderBy) {
      String name = e.getKey();
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
      int at = ck.indexOf(c);
      while (next < at && restrictedByEq[next]) {
        next++;
      }
      if (at != next) {
        throw new InvalidQueryException(
            "orderBy must list clustering columns in their declared order "
                + ck.stream().map(ColumnDef::name).toList()
                + ", leaving out only columns restricted by equality; "
                + name
                + " is out of place. Rule: rows come back in clustering order or its exact"
                + " reverse; there is no sort step. Fix: order by a left-to-right prefix of "
                + ck.stream().map(ColumnDef::name).toList()
                + ", or create a table clustered in the order this query needs");
      }
      next++;
      boolean rev = e.getValue() != c.order();
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

  private static List<Object[]> cartesian(List<List<Object>> choices, long product) {
    if (product <= 1) {
      if (product == 0) {
        return List.of();
      }
      Object[] one = new Object[choices.size()];
      for (int i = 0; i < one.length; i++) {
        one[i] = choices.get(i).get(0);
      }
      return List.<Object[]>of(one);
    }
    List<Object[]> out = new ArrayList<>(1);
    out.add(new Object[0]);
    for (List<Object> c : choices) {
      List<Object[]> next = new ArrayList<>(out.size() * c.size());
      for (Object[] prefix : out) {
        for (Object v : c) {
          Object[] a = Arrays.copyOf(prefix, prefix.length + 1);
          a[prefix.length] = v;
          next.add(a);
        }
      }
      out = next;
    }
    return out;
  }
}
