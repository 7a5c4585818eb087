package dev.talus;

import dev.talus.db.Aggregates;
import dev.talus.request.AggregateRequest;
import dev.talus.request.Distinct;
import dev.talus.request.ReadRequest;
import dev.talus.request.Restriction;
import dev.talus.request.Selector;
import dev.talus.request.TupleRestriction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A read of one table, following the query-first rules (Cassandra's CQL restrictions):
 *
 * <ol>
 *   <li>every partition key column is restricted by {@link #eq} (or {@link #in} for several
 *       partitions, which come back in partition key order, each once);
 *   <li>clustering columns are restricted left to right by {@link #eq} or {@link #in} (several
 *       values: their cartesian product); only the last restricted one may have a range ({@link
 *       #gt}, {@link #ge}, {@link #lt}, {@link #le}). Consecutive clustering columns may also be
 *       restricted together, as CQL's multi-column relations: {@code eq(List.of("a", "b"),
 *       List.of(1, 2))} is {@code (a, b) = (1, 2)}, {@code gt(List.of("a", "b"), List.of(1, 2))} is
 *       {@code (a, b) > (1, 2)} (tuple order, whatever each column's clustering order), and {@code
 *       in(List.of("a", "b"), List.of(List.of(1, 2), List.of(3, 4)))} is {@code (a, b) IN ((1, 2),
 *       (3, 4))};
 *   <li>rows come back in clustering order or its exact reverse ({@link #reversed()} or {@link
 *       #orderBy}); with {@link #in} on the partition key and an order, the rows of all the
 *       partitions are merged into that order;
 *   <li>conditions on regular columns, and clustering restrictions that break rule 2, filter rows
 *       inside the named partitions and need {@link #allowFiltering()}; so do {@link #contains} and
 *       {@link #containsKey} on collections.
 * </ol>
 *
 * <p>Parts of a column can be selected: {@link #element} of a set or map ({@code m['k']}), {@link
 * #elementRange} ({@code s['a'..'c']}) and {@link #field} of a user type ({@code u.f}); they come
 * after the {@link #columns} in the result, named as in CQL (e.g. {@code m['k']}). The whole column
 * is read and the part taken from it.
 *
 * <p>A query that breaks a rule throws {@link InvalidQueryException} naming the rule and the fix.
 *
 * <p><b>Scans.</b> A read that restricts no partition key column is a scan of the whole table (or,
 * with {@link #tokenGt}, {@link #tokenGe}, {@link #tokenLt}, {@link #tokenLe}, of a token range):
 * partitions come back in token order ({@link Table#token}), rows of each partition in clustering
 * order. A scan visits every SSTable of the table; page it with {@link #pageSize} (each page reads
 * one consistent set of SSTables and memtables and holds no more than a page of rows). Restricting
 * clustering or regular columns in a scan filters across partitions and needs {@link
 * #allowFiltering()}; a scan cannot be ordered ({@link #orderBy}, {@link #reversed}).
 *
 * <p>Not thread-safe; build and execute it on one thread.
 */
public final class Select {
  private final Table table;
  private final List<Restriction> restrictions = new ArrayList<>();
  private final List<TupleRestriction> tupleRestrictions = new ArrayList<>(0);
  private final List<Restriction> tokenRestrictions = new ArrayList<>(0);
  private final List<String> columns = new ArrayList<>();
  private final List<Map.Entry<String, ClusteringOrder>> orderBy = new ArrayList<>();
  private boolean reversed;
  private int limit = Integer.MAX_VALUE;
  private int pageSize = Integer.MAX_VALUE;
  private PagingState pagingState;
  private boolean allowFiltering;
  private int perPartitionLimit = Integer.MAX_VALUE;
  private final List<Selector> selectors = new ArrayList<>();
  private final List<String> groupBy = new ArrayList<>(0);
  private boolean distinct;
  private String annColumn;
  private float[] annQuery;

  Select(Table table) {
    this.table = table;
  }

  public Select eq(String column, Object value) {
    return add(column, Restriction.Op.EQ, Collections.singletonList(value));
  }

  /**
   * Several values of a partition key column (the partitions are read in parallel and come back in
   * partition key order, each once) or of a clustering column. No values select nothing.
   */
  public Select in(String column, Object... values) {
    return add(column, Restriction.Op.IN, Arrays.asList(values.clone()));
  }

  /** Like {@link #in(String, Object...)}. */
  public Select in(String column, List<?> values) {
    return add(column, Restriction.Op.IN, new ArrayList<>(values));
  }

  /** {@code (c1, c2, ...) = (v1, v2, ...)} on consecutive clustering columns. */
  public Select eq(List<String> columns, List<?> values) {
    return addTuple(columns, Restriction.Op.EQ, List.of(values));
  }

  /** {@code (c1, ...) IN ((v1, ...), ...)} on consecutive clustering columns (none: no rows). */
  public Select in(List<String> columns, List<? extends List<?>> tuples) {
    return addTuple(columns, Restriction.Op.IN, tuples);
  }

  /**
   * {@code (c1, c2, ...) > (v1, v2, ...)}: rows whose clustering, as a tuple of values compared
   * column by column in each type's natural order, is greater. The columns must be consecutive
   * clustering columns from the first not restricted by equality.
   */
  public Select gt(List<String> columns, List<?> values) {
    return addTuple(columns, Restriction.Op.GT, List.of(values));
  }

  /** {@code (c1, c2, ...) >= (v1, v2, ...)}; see {@link #gt(List, List)}. */
  public Select ge(List<String> columns, List<?> values) {
    return addTuple(columns, Restriction.Op.GE, List.of(values));
  }

  /** {@code (c1, c2, ...) < (v1, v2, ...)}; see {@link #gt(List, List)}. */
  public Select lt(List<String> columns, List<?> values) {
    return addTuple(columns, Restriction.Op.LT, List.of(values));
  }

  /** {@code (c1, c2, ...) <= (v1, v2, ...)}; see {@link #gt(List, List)}. */
  public Select le(List<String> columns, List<?> values) {
    return addTuple(columns, Restriction.Op.LE, List.of(values));
  }

  private Select addTuple(List<String> columns, Restriction.Op op, List<? extends List<?>> tuples) {
    tupleRestrictions.add(TupleRestriction.copyOf(columns, op, tuples));
    return this;
  }

  public Select gt(String column, Object value) {
    return add(column, Restriction.Op.GT, Collections.singletonList(value));
  }

  public Select ge(String column, Object value) {
    return add(column, Restriction.Op.GE, Collections.singletonList(value));
  }

  public Select lt(String column, Object value) {
    return add(column, Restriction.Op.LT, Collections.singletonList(value));
  }

  public Select le(String column, Object value) {
    return add(column, Restriction.Op.LE, Collections.singletonList(value));
  }

  /**
   * {@code token(partition key) > token}: makes the read a scan of the partitions whose token is
   * greater (the way drivers split a table: {@code tokenGt(a).tokenLe(b)} over consecutive ranges
   * reads each partition exactly once). Cannot be combined with restrictions on partition key
   * columns. Tokens are Talus's ({@link Table#token}), not a Cassandra cluster's.
   */
  public Select tokenGt(long token) {
    return addToken(Restriction.Op.GT, token);
  }

  /** {@code token(partition key) >= token}; see {@link #tokenGt}. */
  public Select tokenGe(long token) {
    return addToken(Restriction.Op.GE, token);
  }

  /** {@code token(partition key) < token}; see {@link #tokenGt}. */
  public Select tokenLt(long token) {
    return addToken(Restriction.Op.LT, token);
  }

  /** {@code token(partition key) <= token}; see {@link #tokenGt}. */
  public Select tokenLe(long token) {
    return addToken(Restriction.Op.LE, token);
  }

  private Select addToken(Restriction.Op op, long token) {
    tokenRestrictions.add(new Restriction("token", op, List.of(token)));
    return this;
  }

  private Select add(String column, Restriction.Op op, List<Object> values) {
    restrictions.add(new Restriction(Objects.requireNonNull(column, "column"), op, values));
    return this;
  }

  /**
   * A collection holds {@code value} (a set or list element, a map value): CQL's {@code CONTAINS}.
   * Like {@link #containsKey} and {@link #mapEntry}, a filter that needs {@link #allowFiltering()}
   * unless an index of the column's matching target serves it ({@link IndexDef.Target}).
   */
  public Select contains(String column, Object value) {
    return add(column, Restriction.Op.CONTAINS, Collections.singletonList(value));
  }

  /** A map holds the key {@code key}: CQL's {@code CONTAINS KEY}. */
  public Select containsKey(String column, Object key) {
    return add(column, Restriction.Op.CONTAINS_KEY, Collections.singletonList(key));
  }

  /** A non-frozen map holds the entry {@code key → value}: CQL's {@code m[key] = value}. */
  public Select mapEntry(String column, Object key, Object value) {
    return add(column, Restriction.Op.MAP_ENTRY, Arrays.asList(key, value));
  }

  /**
   * Selects one element of a set or map column ({@code m['k']}): the map's value for the key, or
   * the set element if present; null otherwise. Named {@code column[literal]} in the result.
   */
  public Select element(String column, Object key) {
    selectors.add(new Selector(Selector.Kind.ELEMENT, column, key, null, null));
    return this;
  }

  /**
   * Selects the elements of a set, or entries of a map, between two keys, both inclusive; a null
   * bound is open ({@code s['a'..'c']}, {@code m[..'c']}). Null if none is in range.
   */
  public Select elementRange(String column, Object from, Object to) {
    selectors.add(new Selector(Selector.Kind.RANGE, column, null, from, to));
    return this;
  }

  /** Selects one field of a user-type column ({@code u.f}), named {@code column.field}. */
  public Select field(String column, String field) {
    selectors.add(new Selector(Selector.Kind.FIELD, column, field, null, null));
    return this;
  }

  /** Return only these columns (default: all, unless only parts of columns are selected). */
  public Select columns(String... names) {
    Collections.addAll(columns, names);
    return this;
  }

  /**
   * Orders by a clustering column; the result must be the clustering order or its reverse. Columns
   * restricted by equality may be left out ({@code eq("b", 0).orderBy("c", DESC)}). With {@link
   * #in} on the partition key the rows of all the partitions are merged into this order (ties in
   * partition key order), and {@link #limit} and {@link #perPartitionLimit} apply to the merged
   * result.
   */
  public Select orderBy(String column, ClusteringOrder order) {
    orderBy.add(Map.entry(column, order));
    return this;
  }

  /**
   * Rows in the reverse of the clustering order (the same as ordering by every clustering column
   * reversed: with {@link #in} on the partition key the partitions' rows are merged).
   */
  public Select reversed() {
    this.reversed = true;
    return this;
  }

  /** At most {@code n} rows in total (across pages). */
  public Select limit(int n) {
    if (n < 1) {
      throw new InvalidQueryException("limit must be positive, got " + n);
    }
    this.limit = n;
    return this;
  }

  /**
   * At most {@code n} rows from each partition (CQL's {@code PER PARTITION LIMIT}): the first
   * {@code n} in the query's order; with {@link #in} every partition is read in parallel up to
   * {@code n} rows. Works with paging, except when the rows of several partitions are merged by an
   * order (see {@link #orderBy}).
   */
  public Select perPartitionLimit(int n) {
    if (n < 1) {
      throw new InvalidQueryException("per partition limit must be positive, got " + n);
    }
    this.perPartitionLimit = n;
    return this;
  }

  /**
   * Groups the rows by the partition key, or by the partition key and a prefix of the clustering
   * columns (CQL's {@code GROUP BY}): the columns follow the primary key's order, and columns
   * restricted by one {@link #eq} value may be left out ({@code eq("k", 1).groupBy("b")}). {@link
   * #execute()} then returns the first row of each group; {@link #forEachGroupedRow} hands out
   * every row of every group, to aggregate each group (with an {@link Aggregator} per group).
   * {@link #limit}, {@link #perPartitionLimit} and {@link #pageSize} count groups, and a page ends
   * after a whole group. The rows are read in internal pages, so memory stays bounded whatever the
   * size of a group. A grouped read of several partitions ({@link #in}) cannot be ordered.
   *
   * @throws InvalidQueryException (when executed) for a column outside the primary key or out of
   *     its order, as Cassandra refuses them
   */
  public Select groupBy(String... columns) {
    for (String c : columns) {
      groupBy.add(Objects.requireNonNull(c, "column"));
    }
    return this;
  }

  /**
   * Reads one page of the groups of a {@link #groupBy} select, handing each row of each group to
   * {@code each}, in order; returns the paging state to pass to {@link #pagingState} for the next
   * page of groups, if one may follow. Each internal page of rows is a consistent read; a page of
   * groups resumes exactly after the last group of the one before.
   */
  public Optional<PagingState> forEachGroupedRow(GroupedRow each) {
    Objects.requireNonNull(each, "each");
    if (groupBy.isEmpty()) {
      throw new InvalidQueryException("forEachGroupedRow needs groupBy(...) columns");
    }
    if (annColumn != null) { // Cassandra's SelectStatement.TOPK_AGGREGATION_ERROR
      throw new InvalidQueryException("Top-K queries can not be run with aggregation");
    }
    byte[] state =
        Aggregates.group(table.store(), table.schema(), request(), List.copyOf(groupBy), each);
    return Optional.ofNullable(state).map(PagingState::new);
  }

  /**
   * One row per partition holding only the partition key and static columns (CQL's {@code SELECT
   * DISTINCT}): {@link #columns} may name only those (default: all of them), restrictions only them
   * too; in a scan, paged by partitions. A partition with static data and no rows counts.
   */
  public Select distinct() {
    this.distinct = true;
    return this;
  }

  /**
   * Orders the rows by similarity of vector column {@code column} to {@code query}, most similar
   * first, as CQL's {@code ORDER BY column ANN OF [...]}: the column needs a vector index ({@link
   * IndexDef#sai}, its {@code similarity_function} option saying how rows are scored), the query
   * the column's dimension, and the select a {@link #limit} of at most 1000 — the rows returned,
   * all in one page whatever the {@link #pageSize} (as Cassandra 5.0 runs a top-k query). The
   * search is exact, and returns only live, current rows; restrictions on indexed columns narrow
   * the ranking.
   *
   * @param column a {@code vector<float, n>} column with a vector index
   * @param query the vector to compare with (copied)
   * @return this select
   */
  public Select orderByAnn(String column, float[] query) {
    this.annColumn = Objects.requireNonNull(column, "column");
    this.annQuery = Objects.requireNonNull(query, "query").clone();
    return this;
  }

  /** Whether rows come back in the reverse of the table's clustering order. */
  boolean reversedOrder() {
    if (orderBy.isEmpty()) {
      return reversed;
    }
    Map.Entry<String, ClusteringOrder> first = orderBy.get(0);
    boolean byOrder =
        table.schema().column(first.getKey()).map(c -> c.order() != first.getValue()).orElse(false);
    return reversed ^ byOrder;
  }

  /** At most {@code n} rows per page; the result carries a paging state if more may follow. */
  public Select pageSize(int n) {
    if (n < 1) {
      throw new InvalidQueryException("page size must be positive, got " + n);
    }
    this.pageSize = n;
    return this;
  }

  /** Resume after the page that produced {@code state} (same query). */
  public Select pagingState(PagingState state) {
    this.pagingState = state;
    return this;
  }

  /**
   * Opt in to filtering inside the named partitions: conditions on regular columns, and clustering
   * restrictions the query-first rules cannot turn into slices (a column after a range, a skipped
   * column), which are then checked row by row (CQL's {@code ALLOW FILTERING}). A scan needs it for
   * any condition on a clustering or regular column: it then reads every partition of the table.
   */
  public Select allowFiltering() {
    this.allowFiltering = true;
    return this;
  }

  /**
   * {@code count(*)}: the rows this select matches, read page by page in bounded memory. An
   * aggregate takes no {@link #limit}, {@link #perPartitionLimit}, {@link #pageSize} or {@link
   * #pagingState}; it works on a partition, a slice or a scan (which still needs {@link
   * #allowFiltering()} to filter).
   */
  public long count() {
    return (Long) aggregate(AggregateRequest.Function.COUNT, null);
  }

  /** {@code count(column)}: the matching rows where {@code column} has a value. */
  public long count(String column) {
    return (Long) aggregate(AggregateRequest.Function.COUNT, Objects.requireNonNull(column));
  }

  /**
   * {@code min(column)}: the smallest value of {@code column} over the matching rows, in its type's
   * order, as its type's Java class; null if no row has a value. See {@link #count()}.
   */
  public Object min(String column) {
    return aggregate(AggregateRequest.Function.MIN, Objects.requireNonNull(column));
  }

  /** {@code max(column)}: the largest value; see {@link #min}. */
  public Object max(String column) {
    return aggregate(AggregateRequest.Function.MAX, Objects.requireNonNull(column));
  }

  /**
   * {@code sum(column)} of a numeric column, typed as Cassandra types it (an {@code int} column to
   * an {@link Integer}, wrapping on overflow; a {@code varint} to a {@link java.math.BigInteger});
   * 0 over no values. See {@link #count()}.
   */
  public Object sum(String column) {
    return aggregate(AggregateRequest.Function.SUM, Objects.requireNonNull(column));
  }

  /** {@code avg(column)}, typed as {@link #sum}: integer types truncate (summed exactly first). */
  public Object avg(String column) {
    return aggregate(AggregateRequest.Function.AVG, Objects.requireNonNull(column));
  }

  private Object aggregate(AggregateRequest.Function function, String column) {
    if (annColumn != null) { // Cassandra's SelectStatement.TOPK_AGGREGATION_ERROR
      throw new InvalidQueryException("Top-K queries can not be run with aggregation");
    }
    if (!groupBy.isEmpty()) {
      throw new InvalidQueryException(
          "an aggregate of a grouped select has one value per group: aggregate each group's rows"
              + " with forEachGroupedRow and an Aggregator");
    }
    return table.store().aggregate(request(), new AggregateRequest(function, column));
  }

  public ResultSet execute() {
    PreparedSelect.refuseMarkers(restrictions);
    if (annColumn != null && distinct) { // GROUP BY: refused by forEachGroupedRow
      throw new InvalidQueryException("ANN ordering takes no DISTINCT");
    }
    if (!groupBy.isEmpty()) {
      return ResultSet.firstOfEachGroup(this::forEachGroupedRow);
    }
    return PreparedSelect.results(
        annColumn == null
            ? table.store().read(request())
            : table.store().annRead(request(), annColumn, annQuery));
  }

  private ReadRequest request() {
    List<String> read = columns;
    int perPartition = perPartitionLimit;
    if (distinct) {
      read = Distinct.columns(table.schema(), columns, restrictions, tupleRestrictions);
      perPartition = 1;
    }
    return new ReadRequest(
        restrictions,
        tupleRestrictions,
        read,
        orderBy,
        reversed,
        limit,
        pageSize,
        pagingState == null ? null : pagingState.bytes(),
        allowFiltering,
        perPartition,
        tokenRestrictions,
        List.copyOf(selectors));
  }

  /** Executes and returns the first row, if any. */
  public Optional<ResultRow> one() {
    return execute().first();
  }

  /** A bind marker: a value given to {@link PreparedSelect#execute} (see there where it fits). */
  public static Object marker() {
    return PreparedSelect.MARKER;
  }

  /**
   * This select as a {@link PreparedSelect}, executed with values for its {@link #marker()
   * markers}.
   *
   * @throws InvalidQueryException for a grouped or ANN select, or markers in multi-column or token
   *     restrictions
   */
  public PreparedSelect prepare() {
    if (annColumn != null || !groupBy.isEmpty()) {
      throw new InvalidQueryException(
          "prepare() takes a plain select: grouped and ANN selects are executed directly");
    }
    PreparedSelect.refuseMarkersIn(tupleRestrictions, tokenRestrictions);
    return new PreparedSelect(table, request());
  }
}
