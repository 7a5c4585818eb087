package dev.talus.cql.exec.dml;

import dev.talus.ClusteringOrder;
import dev.talus.InvalidQueryException;
import dev.talus.PagingState;
import dev.talus.ResultRow;
import dev.talus.ResultSet;
import dev.talus.Select;
import dev.talus.Table;
import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlRow;
import dev.talus.cql.exec.support.ExecContext;
import dev.talus.cql.exec.support.Executable;
import dev.talus.cql.exec.support.PrepareContext;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.exec.support.TableInfo;
import dev.talus.cql.parse.ast.Ordering;
import dev.talus.cql.parse.ast.Relation;
import dev.talus.cql.parse.ast.SelectItem;
import dev.talus.cql.parse.ast.SelectStatement;
import dev.talus.cql.parse.ast.Selector;
import dev.talus.cql.parse.ast.SourcePosition;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A {@code SELECT} from a Talus table, prepared: the table handle, the restrictions, the selection,
 * the ordering and limits. Each execution builds the engine's {@link Select} from them — the same
 * call the builder API makes — and wraps its rows. The query-first rules are the engine's; a
 * refusal keeps its rule-and-fix message and points at the {@code WHERE} clause. Immutable and
 * thread-safe.
 */
final class SelectExec implements Executable {
  /** Rows per internal page of an aggregating read. */
  static final int AGGREGATE_PAGE = 5_000;

  private final Table table;
  private final List<Where.Restriction> where;
  private final List<TupleWhere.Restriction> tuples;
  private final List<TokenWhere.Restriction> tokens;
  private final Selection selection;
  private final String[] fetch;
  private final String[] orderColumns;
  private final ClusteringOrder[] orderDirections;
  private final AnnOrder ann;
  private final Limits limits;
  private final boolean allowFiltering;
  private final boolean distinct;
  private final String[] groupBy;
  private final FunctionGroups byFunction;
  private final Source source;
  private final SourcePosition at;
  private final boolean fullPartitionKey;

  private SelectExec(
      Table table,
      List<Where.Restriction> where,
      List<TupleWhere.Restriction> tuples,
      List<TokenWhere.Restriction> tokens,
      Selection selection,
      List<Ordering> orderBy,
      AnnOrder ann,
      Limits limits,
      boolean allowFiltering,
      boolean distinct,
      List<String> groupBy,
      FunctionGroups byFunction,
      Source source,
      SourcePosition at) {
    this.table = table;
    this.where = List.copyOf(where);
    this.tuples = List.copyOf(tuples);
    this.tokens = List.copyOf(tokens);
    this.selection = selection;
    Set<String> fetched = new LinkedHashSet<>(selection.read());
    if (byFunction != null && !fetched.isEmpty()) {
      fetched.addAll(byFunction.columns()); // the columns a row's group is computed from
    }
    this.fetch = fetched.toArray(new String[0]);
    this.byFunction = byFunction;
    this.orderColumns = new String[orderBy.size()];
    this.orderDirections = new ClusteringOrder[orderBy.size()];
    for (int i = 0; i < orderBy.size(); i++) {
      orderColumns[i] = orderBy.get(i).column().name();
      orderDirections[i] = orderBy.get(i).descending() ? ClusteringOrder.DESC : ClusteringOrder.ASC;
    }
    this.ann = ann;
    this.limits = limits;
    this.allowFiltering = allowFiltering;
    this.distinct = distinct;
    this.groupBy = groupBy.toArray(new String[0]);
    this.source = source;
    this.at = at;
    long restricted =
        where.stream()
            .filter(r -> r.column().kind() == TableInfo.Kind.PARTITION_KEY)
            .map(r -> r.column().name())
            .distinct()
            .count();
    this.fullPartitionKey = restricted == table.schema().partitionKey().size();
  }

  static SelectExec prepare(SelectStatement s, Table table, PrepareContext pc) {
    TableInfo info = TableInfo.of(table.schema());
    Selection selection = Selection.prepare(s, info, table::token, pc);
    List<Relation> single = new ArrayList<>(s.where().size());
    List<TupleWhere.Restriction> tuples = new ArrayList<>(0);
    for (Relation r : s.where()) {
      if (TupleWhere.isMultiColumn(r)) {
        tuples.add(TupleWhere.prepare(r, info, pc));
      } else if (!(r instanceof Relation.Token)) {
        single.add(r);
      }
    }
    List<Where.Restriction> where = Where.prepare(single, info, pc);
    List<TokenWhere.Restriction> tokens = TokenWhere.prepare(s.where(), info, pc);
    Source src = pc.source();
    AnnOrder ann = AnnOrder.prepare(s, info, pc);
    for (Ordering o : AnnOrder.others(s)) {
      TableInfo.Column c = Where.column(o.column(), info, pc);
      if (c.kind() != TableInfo.Kind.CLUSTERING) {
        throw src.invalid(
            o.column(),
            "Order by is currently only supported on the clustered columns of the PRIMARY KEY, got "
                + c.name());
      }
    }
    List<String> groupBy = new ArrayList<>(s.groupBy().size());
    FunctionGroups byFunction = null;
    for (Selector g : s.groupBy()) {
      if (byFunction != null) {
        throw src.invalid(
            g.position(),
            "Functions are only supported on the last element of the GROUP BY clause");
      }
      if (g instanceof Selector.FunctionCall f) {
        byFunction = FunctionGroups.prepare(f, info, table::token, pc);
        if (s.distinct()) {
          throw src.invalid(
              f.position(),
              "Grouping on clustering columns is not allowed for SELECT DISTINCT queries");
        }
        groupBy.add(byFunction.column());
        continue;
      }
      if (!(g instanceof Selector.Column c)) {
        throw src.notYet(
            g.position(),
            1,
            "GROUP BY an expression other than a column or a function call",
            "group by primary key columns, or by a function of the last one");
      }
      TableInfo.Column col = Where.column(c.name(), info, pc);
      if (!col.isKey()) {
        throw src.invalid(
            c.name(),
            "Group by is currently only supported on the columns of the PRIMARY KEY, got "
                + col.name());
      }
      if (s.distinct() && col.kind() == TableInfo.Kind.CLUSTERING) {
        throw src.invalid(
            c.name(), "Grouping on clustering columns is not allowed for SELECT DISTINCT queries");
      }
      groupBy.add(col.name());
    }
    if (s.distinct()) {
      checkDistinct(s, info, pc);
    }
    Limits limits = Limits.prepare(s, pc);
    return new SelectExec(
        table,
        where,
        tuples,
        tokens,
        selection,
        AnnOrder.others(s),
        ann,
        limits,
        s.allowFiltering(),
        s.distinct(),
        groupBy,
        byFunction,
        src,
        s.where().isEmpty() ? s.position() : s.where().get(0).position());
  }

  private static void checkDistinct(SelectStatement s, TableInfo info, PrepareContext pc) {
    List<String> pk =
        info.columns(TableInfo.Kind.PARTITION_KEY).stream().map(TableInfo.Column::name).toList();
    String distinctOnly =
        "SELECT DISTINCT queries must only request partition key columns and/or static columns";
    for (Relation r : s.where()) {
      boolean ok = r instanceof Relation.Token;
      if (r instanceof Relation.Compare c) {
        ok = isPartitionOrStatic(Where.column(c.column(), info, pc));
      } else if (r instanceof Relation.In in) {
        ok = isPartitionOrStatic(Where.column(in.column(), info, pc));
      }
      if (!ok) {
        throw pc.source()
            .invalid(
                r.position(),
                "SELECT DISTINCT with WHERE clause only supports restriction by partition key"
                    + " and/or static columns.");
      }
    }
    if (s.isWildcard()) {
      for (TableInfo.Column c : info.columns()) {
        if (!isPartitionOrStatic(c)) {
          throw pc.source().invalid(s.position(), distinctOnly + " (not " + c.name() + ")");
        }
      }
      return;
    }
    List<String> selected = new ArrayList<>();
    for (SelectItem item : s.selectors()) {
      if (!(item.selector() instanceof Selector.Column c)) {
        throw pc.source().invalid(item.position(), distinctOnly + " (not an expression)");
      }
      TableInfo.Column col = Where.column(c.name(), info, pc);
      if (!isPartitionOrStatic(col)) {
        throw pc.source().invalid(c.name(), distinctOnly + " (not " + c.name().name() + ")");
      }
      selected.add(c.name().name());
    }
    for (String k : pk) {
      if (!selected.contains(k)) {
        throw pc.source()
            .invalid(
                s.position(),
                "SELECT DISTINCT queries must request all the partition key columns (missing "
                    + k
                    + ")");
      }
    }
  }

  private static boolean isPartitionOrStatic(TableInfo.Column c) {
    return c.kind() == TableInfo.Kind.PARTITION_KEY || c.kind() == TableInfo.Kind.STATIC;
  }

  @Override
  public List<CqlColumn> resultColumns() {
    return selection.columns();
  }

  @Override
  public CqlResult execute(ExecContext ctx) {
    Select s = table.select();
    int partitions = 1;
    for (Where.Restriction r : where) {
      String col = r.column().name();
      switch (r.op()) {
        case EQ -> s.eq(col, r.value(ctx));
        case IN -> {
          List<Object> values = r.values(ctx);
          if (r.column().kind() == TableInfo.Kind.PARTITION_KEY) {
            partitions *= Math.max(1, values.size());
          }
          s.in(col, values);
        }
        case GT -> s.gt(col, r.value(ctx));
        case GE -> s.ge(col, r.value(ctx));
        case LT -> s.lt(col, r.value(ctx));
        case LE -> s.le(col, r.value(ctx));
        case CONTAINS -> s.contains(col, r.value(ctx));
        case CONTAINS_KEY -> s.containsKey(col, r.value(ctx));
        case MAP_ENTRY -> {
          List<Object> kv = r.values(ctx);
          s.mapEntry(col, kv.get(0), kv.get(1));
        }
      }
    }
    for (TupleWhere.Restriction t : tuples) {
      t.addTo(s, ctx);
    }
    for (TokenWhere.Restriction t : tokens) {
      t.addTo(s, ctx);
    }
    if (fetch.length > 0) {
      s.columns(fetch);
    }
    for (int i = 0; i < orderColumns.length; i++) {
      s.orderBy(orderColumns[i], orderDirections[i]);
    }
    if (ann != null) {
      ann.addTo(s, ctx, groupBy.length > 0 || selection.aggregating());
    }
    if (allowFiltering) {
      s.allowFiltering();
    }
    if (distinct) {
      s.distinct(); // one row a partition, its static columns read so static-only ones count
    }
    try {
      if (groupBy.length > 0) {
        return grouped(s, ctx);
      }
      return selection.aggregating() ? aggregate(s, ctx) : rows(s, ctx, partitions);
    } catch (CqlInvalidRequestException e) {
      throw e;
    } catch (InvalidQueryException e) {
      throw source.invalid(at, 1, EngineMessages.inCql(e.getMessage()));
    }
  }

  private CqlResult rows(Select s, ExecContext ctx, int partitions) {
    int limit = limits.limit(ctx);
    int perPartition = limits.perPartitionLimit(ctx);
    boolean paged = ctx.pageSize() != Integer.MAX_VALUE || ctx.pagingState() != null;
    if (perPartition != Integer.MAX_VALUE) {
      if (partitions == 1 && fullPartitionKey) {
        // one partition (not a scan): its limit is the query's
        limit = Math.min(limit, perPartition);
      } else {
        s.perPartitionLimit(perPartition);
        if (orderColumns.length > 0 && limit <= ctx.pageSize() && ctx.pagingState() == null) {
          // rows of several partitions merged into one order, with per-partition counts: the
          // engine cannot page that, but a result within one page needs no paging (Cassandra
          // reads such a query unpaged too)
          paged = false;
        }
      }
    }
    if (limit != Integer.MAX_VALUE) {
      s.limit(limit);
    }
    if (ann != null) {
      AnnOrder.warnIfPaged(ctx, limit);
    }
    if (paged && ctx.pageSize() != Integer.MAX_VALUE) {
      s.pageSize(ctx.pageSize());
    }
    if (paged && ctx.pagingState() != null) {
      s.pagingState(ctx.pagingState());
    }
    ResultSet rs = s.execute();
    List<ResultRow> engineRows = rs.rows();
    List<CqlRow> rows = new ArrayList<>(engineRows.size());
    for (ResultRow r : engineRows) {
      rows.add(selection.row(r, ctx));
    }
    return CqlResult.rows(selection.columns(), rows, rs.pagingState().orElse(null), ctx.warnings());
  }

  /**
   * Aggregates without {@code GROUP BY}: every matching row read page by page ({@value
   * #AGGREGATE_PAGE} rows a page, so memory stays bounded) and folded into one result row, which is
   * never paged. {@code PER PARTITION LIMIT} caps the rows of each partition that are folded,
   * {@code LIMIT} the result rows (there is one), as in Cassandra.
   */
  private CqlResult aggregate(Select s, ExecContext ctx) {
    limits.limit(ctx); // checked, though one row is always within it
    int perPartition = limits.perPartitionLimit(ctx);
    if (perPartition != Integer.MAX_VALUE) {
      s.perPartitionLimit(perPartition);
    }
    s.pageSize(AGGREGATE_PAGE);
    Selection.Group group = selection.group();
    PagingState state = null;
    do {
      if (state != null) {
        s.pagingState(state);
      }
      ResultSet rs = s.execute();
      for (ResultRow r : rs.rows()) {
        group.add(r, ctx);
      }
      state = rs.pagingState().orElse(null);
    } while (state != null);
    return CqlResult.rows(selection.columns(), List.of(group.row(ctx)), null, ctx.warnings());
  }

  /**
   * {@code GROUP BY}: the engine's groups, one result row each — the group's first row, or its rows
   * folded by the aggregates. {@code LIMIT}, {@code PER PARTITION LIMIT} and the page size count
   * groups, and a page ends after a whole group, as in Cassandra.
   */
  private CqlResult grouped(Select s, ExecContext ctx) {
    s.groupBy(groupBy);
    if (byFunction != null) {
      return byFunction.run(s, selection, limits, ctx);
    }
    int limit = limits.limit(ctx);
    int perPartition = limits.perPartitionLimit(ctx);
    if (limit != Integer.MAX_VALUE) {
      s.limit(limit);
    }
    if (perPartition != Integer.MAX_VALUE) {
      s.perPartitionLimit(perPartition);
    }
    if (ctx.pageSize() != Integer.MAX_VALUE) {
      s.pageSize(ctx.pageSize());
    }
    if (ctx.pagingState() != null) {
      s.pagingState(ctx.pagingState());
    }
    List<CqlRow> rows = new ArrayList<>();
    Selection.Group[] group = new Selection.Group[1];
    PagingState next =
        s.forEachGroupedRow(
                (row, first) -> {
                  if (!selection.aggregating()) {
                    if (first) {
                      rows.add(selection.row(row, ctx));
                    }
                    return;
                  }
                  if (first) {
                    if (group[0] != null) {
                      rows.add(group[0].row(ctx));
                    }
                    group[0] = selection.group();
                  }
                  group[0].add(row, ctx);
                })
            .orElse(null);
    if (group[0] != null) {
      rows.add(group[0].row(ctx));
    }
    return CqlResult.rows(selection.columns(), rows, next, ctx.warnings());
  }
}
