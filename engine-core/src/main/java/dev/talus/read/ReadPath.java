package dev.talus.read;

import dev.talus.ResultRow;
import dev.talus.StorageException;
import dev.talus.TableSchema;
import dev.talus.data.ClusteringBytes;
import dev.talus.data.DroppedCells;
import dev.talus.data.LiveRows;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionMerger;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import dev.talus.io.CorruptFileException;
import dev.talus.metrics.Histogram;
import dev.talus.request.ReadRequest;
import dev.talus.request.ReadResult;
import dev.talus.request.Selector;
import dev.talus.runtime.DbContext;
import dev.talus.schema.KeyCodec;
import dev.talus.schema.PartitionKeys;
import dev.talus.table.TableMetrics;
import dev.talus.table.TableStore;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The read path of one table: a read is validated against the query-first rules ({@link
 * QueryPlanner}), then per partition a reference-counted snapshot of its sources ({@link
 * SSTableSelector}) is merged, filtered to live rows (counting tombstones against the table's
 * thresholds), filtered, projected ({@link Projection}) and paged ({@link Paging}). Partitions of
 * an IN query are read in parallel; a read naming no partition is a scan ({@link TableScan}).
 * Corruption surfaces as the file layer's {@code CorruptFileException} (after a retry without the
 * SSTable if the disk failure policy quarantined it); the database maps it for the caller.
 * Thread-safe.
 */
public final class ReadPath {

  private final TableStore table;
  private final DbContext ctx;
  private final Executor readThreads;
  private final TableSchema schema;
  private final KeyCodec keys;
  private final TableMetrics metrics;
  private final TableScan scans;

  /** Reads of one named row, or null for a table whose columns that path does not serve. */
  private final PointRead pointRead;

  private static final ReadResult NOTHING = new ReadResult(List.of(), null, 0, 0);

  public ReadPath(TableStore table, DbContext ctx, Executor readThreads) {
    this.table = table;
    this.ctx = ctx;
    this.readThreads = readThreads;
    this.schema = table.schema();
    this.keys = table.keys();
    this.metrics = table.metrics();
    this.scans = new TableScan(this, table);
    this.pointRead = PointRead.of(table.tracker(), metrics, keys);
  }

  /** The token of the partition with these key values. */
  public long token(List<Object> partitionKeyValues) {
    return TableScan.token(keys, partitionKeyValues);
  }

  /** Validates and runs one read; counts it and its latency (once, even if it was retried). */
  public ReadResult read(ReadRequest req) {
    return read(req, null, null);
  }

  /**
   * Runs a prepared read of one row by its whole primary key (see {@link #primaryKeyPositions}):
   * {@code template}'s restrictions may hold markers, {@code given} are the key values by position
   * (partition key, then clustering), none null, and {@code bound} is the request with the values
   * in place, built only if the read takes the general path. Otherwise like {@link
   * #read(ReadRequest)}.
   */
  public ReadResult readRow(
      ReadRequest template, Object[] given, java.util.function.Supplier<ReadRequest> bound) {
    return read(template, given, bound);
  }

  /**
   * Where each restriction of {@code req} goes among the primary key columns if it reads one row by
   * its whole primary key (then {@link #readRow} may serve it), else null.
   */
  public int[] primaryKeyPositions(ReadRequest req) {
    return PointPlanner.positions(schema, req);
  }

  private ReadResult read(
      ReadRequest req, Object[] given, java.util.function.Supplier<ReadRequest> bound) {
    ctx.checkOpen();
    metrics.readStarted();
    long start = Histogram.startTimer();
    ReadResult r = executeSkippingQuarantined(req, given, bound);
    long micros = metrics.readLatencySince(start);
    ctx.metrics().read(table.schema().name(), micros, r.sourcesTouched(), r.tombstonesScanned());
    return r;
  }

  /** Runs a read; when the policy quarantines a damaged SSTable it found, runs it again without. */
  private ReadResult executeSkippingQuarantined(
      ReadRequest req, Object[] given, java.util.function.Supplier<ReadRequest> bound) {
    while (true) {
      try {
        return execute(req, given, bound);
      } catch (CorruptFileException e) {
        if (!table.quarantine().handle(table, e)) {
          throw e;
        }
      } catch (UncheckedIOException e) {
        throw new StorageException(
            "read of table " + table.schema().name() + " failed: " + e.getCause().getMessage(), e);
      }
    }
  }

  private ReadResult execute(
      ReadRequest req, Object[] given, java.util.function.Supplier<ReadRequest> bound) {
    Object[] row = given != null ? given : PointPlanner.given(keys, req);
    QueryPlanner.Plan point = null;
    if (row != null) {
      Object[] pkValues = PointPlanner.partitionValues(keys, row);
      PartitionKey key = PartitionKeys.of(keys, pkValues);
      boolean named = pointRead != null && req.pagingState() == null;
      if (named && pointRead.certainlyAbsent(key)) {
        PointPlanner.clusteringValues(keys, row); // refuses what the plan would refuse
        metrics.sourcesRead(0);
        metrics.readDone(0);
        return NOTHING;
      }
      point = PointPlanner.plan(keys, req, row, pkValues, key);
      ReadResult r = named ? readPoint(point) : null;
      if (r != null) {
        return r;
      }
      if (bound != null) { // a prepared read's markers: the general path plans the bound request
        req = bound.get();
        point = PointPlanner.plan(keys, req, row, pkValues, key);
      }
    }
    QueryPlanner.Plan plan = point != null ? point : QueryPlanner.general(keys, req);
    if (plan.isEmpty()) {
      metrics.readDone(0);
      return new ReadResult(List.of(), null, 0, 0);
    }
    long now = ctx.requestNowSeconds();
    ReadTombstones tombstones =
        new ReadTombstones(schema, keys, metrics, ctx, now - schema.gcGrace().getSeconds());
    AtomicInteger sources = new AtomicInteger();
    if (plan.scan() != null) {
      ReadResult page = scans.page(plan, now, tombstones, sources);
      metrics.readDone(tombstones.scanned.get());
      return page;
    }
    int remainingLimit = plan.limit() - plan.resume().alreadyReturned();
    int want = Math.min(remainingLimit, plan.pageSize());
    // one row more than the page tells whether another page follows; never overflow
    int fetch = Math.min(want == Integer.MAX_VALUE ? want : want + 1, plan.perPartitionLimit());
    int n = plan.keys().size();
    // partition after partition, a resumed read starts at the last row's partition; merged into
    // one order, every partition may still hold rows after the last one returned
    int first = plan.merged() ? 0 : plan.resume().startPartition();
    List<List<Found>> perPartition = new ArrayList<>(Collections.nCopies(n, List.of()));
    if (n - first > 1) {
      List<CompletableFuture<Void>> futures = new ArrayList<>();
      for (int i = first; i < n; i++) {
        int idx = i;
        int max = maxRows(plan, idx, fetch);
        try {
          futures.add(
              CompletableFuture.runAsync(
                  () ->
                      perPartition.set(
                          idx, readPartition(plan, idx, max, now, tombstones, sources)),
                  readThreads));
        } catch (java.util.concurrent.RejectedExecutionException e) {
          ctx.checkOpen(); // closed meanwhile: report it as such
          throw e;
        }
      }
      try {
        CompletableFuture.allOf(futures.toArray(new CompletableFuture<?>[0])).join();
      } catch (java.util.concurrent.CompletionException e) {
        if (e.getCause() instanceof RuntimeException re) {
          throw re;
        }
        throw e;
      }
    } else {
      perPartition.set(
          first, readPartition(plan, first, maxRows(plan, first, fetch), now, tombstones, sources));
    }
    List<ResultRow> out = new ArrayList<>();
    byte[] paging =
        plan.merged()
            ? PageAssembly.merge(plan, perPartition, want, remainingLimit, out)
            : PageAssembly.concatenate(plan, perPartition, first, want, remainingLimit, out);
    metrics.readDone(tombstones.scanned.get());
    return new ReadResult(out, paging, sources.get(), tombstones.scanned.get());
  }

  /**
   * One row named by its whole primary key ({@link PointRead}); null if the general path must
   * answer. Counts, thresholds and the result equal the general path's for the same plan.
   */
  private ReadResult readPoint(QueryPlanner.Plan plan) {
    if (plan.isEmpty()
        || plan.limit() < 1
        || plan.pageSize() < 1
        || plan.perPartitionLimit() < 1
        || !plan.filters().isEmpty()) {
      return null;
    }
    long now = ctx.requestNowSeconds();
    ReadTombstones tombstones =
        new ReadTombstones(schema, keys, metrics, ctx, now - schema.gcGrace().getSeconds());
    PartitionKey key = plan.keys().get(0);
    PointRead.Result found =
        pointRead.read(
            key,
            plan.slices().get(0),
            now,
            tombstones.gcBefore,
            tombstones,
            tombstones.counter(key));
    if (found == null) {
      return null;
    }
    metrics.sourcesRead(found.sourcesUsed());
    List<ResultRow> rows =
        found.row() == null
            ? List.of()
            : List.of(
                projection(plan).view(keys, plan.partitionValues().get(0), found.row(), null, now));
    metrics.readDone(tombstones.scanned.get());
    return new ReadResult(rows, null, found.sourcesUsed(), tombstones.scanned.get());
  }

  /** How many rows partition {@code index} may contribute: its rest of the per-partition limit. */
  private static int maxRows(QueryPlanner.Plan plan, int index, int fetch) {
    Paging.Resume r = plan.resume();
    if (plan.perPartitionLimit() == Integer.MAX_VALUE
        || r.after() == null
        || plan.merged()
        || index != r.startPartition()) {
      return fetch;
    }
    return Math.min(fetch, plan.perPartitionLimit() - r.inPartition());
  }

  /** A result row, with its partition (an index in the read's partition order) and clustering. */
  record Found(int partition, byte[] clustering, ResultRow row) {}

  private List<Found> readPartition(
      QueryPlanner.Plan plan,
      int index,
      int max,
      long now,
      ReadTombstones tombstones,
      AtomicInteger sources) {
    PartitionKey key = plan.keys().get(index);
    List<Slice> slices = Paging.slicesFor(plan, index);
    if (slices.isEmpty() || max <= 0) {
      return List.of();
    }
    boolean resumed = index == plan.resume().startPartition() && plan.resume().after() != null;
    int[] named = TimestampOrderedRead.applies(keys, plan);
    return rows(
        plan,
        key,
        plan.partitionValues().get(index),
        index,
        slices,
        max,
        resumed,
        now,
        tombstones,
        sources,
        named != null
            ? slice ->
                TimestampOrderedRead.snapshot(table.tracker(), metrics, key, schema, slices, named)
            : slice -> SSTableSelector.snapshot(table.tracker(), metrics, key, slice));
  }

  /**
   * Up to {@code max} live rows of one partition that match the plan's filters, read slice after
   * slice in the read's direction from the sources {@code select} chooses for a slice (a named read
   * takes a referenced snapshot; a scan's page selects within its view). {@code resumedPartition}:
   * the paging state's partition, whose static-only row was already returned.
   */
  List<Found> rows(
      QueryPlanner.Plan plan,
      PartitionKey key,
      Object[] pkValues,
      int index,
      List<Slice> slices,
      int max,
      boolean resumedPartition,
      long now,
      ReadTombstones tombstones,
      AtomicInteger sources,
      java.util.function.Function<Slice, ReadSnapshot> select) {
    List<Found> out = new ArrayList<>();
    LiveRows.TombstoneCounter counter = tombstones.counter(key);
    Projection proj = projection(plan);
    boolean statics = proj.readsStatics() || filtersStatics(plan);
    Slice cover = Slices.cover(slices);
    // with statics, the sources are chosen for the static row too
    Slice sourcesFor =
        !statics
            ? cover
            : cover == Slice.ROWS ? Slice.ALL : new Slice(Slice.STATIC.start(), cover.end());
    try (ReadSnapshot snapshot = select.apply(sourcesFor)) {
      Row staticRow =
          statics ? staticRow(keys, key, snapshot, now, tombstones.gcBefore, counter) : null;
      int used = 0;
      boolean anyRow = false;
      boolean stream =
          pointRead != null // a table whose columns the named-row path serves: no statics
              && snapshot.sources().size() == 1
              && !plan.reversed()
              && plan.filters().isEmpty()
              && proj.plain();
      for (int k = 0; k < slices.size() && out.size() < max; k++) {
        Slice slice = slices.get(plan.reversed() ? slices.size() - 1 - k : k);
        if (stream) {
          int before = out.size();
          DirectRows direct =
              new DirectRows(
                  keys, proj, pkValues, index, now, tombstones.gcBefore, counter, out, max);
          if (snapshot.sources().get(0).visit(slice, direct)) {
            direct.finish();
            used = 1;
            anyRow |= out.size() > before;
            continue;
          }
        }
        PartitionMerger.Merged m =
            PartitionMerger.merge(key, snapshot.sources(), slice, plan.reversed());
        used = Math.max(used, m.sourcesUsed());
        tombstones.rangeDeletions(counter, m, slice);
        LiveRows live = new LiveRows(visible(keys, m), now, tombstones.gcBefore, counter);
        while (out.size() < max && live.hasNext()) {
          Row r = live.next();
          anyRow = true;
          if (!ValueFilters.matches(keys, plan.filters(), r, staticRow)) {
            continue;
          }
          out.add(new Found(index, r.clustering(), proj.view(keys, pkValues, r, staticRow, now)));
        }
      }
      // Cassandra: a partition with static data but no rows reads as one row with null
      // clustering and regular columns, when the query names whole partitions: it restricts no
      // clustering or regular column, and its static row passes the filters on static columns
      if (!anyRow
          && staticRow != null
          && staticOnlyMatches(plan, staticRow)
          && !restrictsClustering(plan)
          && !resumedPartition) {
        out.add(
            new Found(
                index, ClusteringBytes.STATIC, proj.view(keys, pkValues, null, staticRow, now)));
      }
      metrics.sourcesRead(used);
      sources.addAndGet(used);
      return out;
    }
  }

  /** The merged rows without the cells of dropped columns, which no read may see. */
  private static java.util.Iterator<Row> visible(KeyCodec keys, PartitionMerger.Merged m) {
    return keys.hasDropped() ? DroppedCells.strip(m.rows(), keys::isDropped) : m.rows();
  }

  /** The partition's live static row, or null; its tombstones count like the rows'. */
  private static Row staticRow(
      KeyCodec keys,
      PartitionKey key,
      ReadSnapshot snapshot,
      long now,
      long gcBefore,
      LiveRows.TombstoneCounter counter) {
    PartitionMerger.Merged m = PartitionMerger.merge(key, snapshot.sources(), Slice.STATIC, false);
    LiveRows live = new LiveRows(visible(keys, m), now, gcBefore, counter);
    return live.hasNext() ? live.next() : null;
  }

  /**
   * Whether a partition without rows returns its static row: no filter on a clustering or regular
   * column (Cassandra's {@code StatementRestrictions.hasRegularColumnsRestrictions} counts regular
   * columns only), and the static row passes every filter on a static column.
   */
  private boolean staticOnlyMatches(QueryPlanner.Plan plan, Row staticRow) {
    for (QueryPlanner.Filter f : plan.filters()) {
      if (!f.column().isStatic()) {
        return false;
      }
    }
    return ValueFilters.matches(keys, plan.filters(), null, staticRow);
  }

  private boolean filtersStatics(QueryPlanner.Plan plan) {
    for (QueryPlanner.Filter f : plan.filters()) {
      if (f.column().isStatic()) {
        return true;
      }
    }
    return false;
  }

  private boolean restrictsClustering(QueryPlanner.Plan plan) {
    if (!plan.request().tupleRestrictions().isEmpty()) {
      return true;
    }
    for (var r : plan.request().restrictions()) {
      var c = schema.column(r.column());
      if (c.isPresent() && c.get().kind() == dev.talus.ColumnDef.Kind.CLUSTERING) {
        return true;
      }
    }
    return false;
  }

  /** The projection compiled last, and the plan it served last. */
  private record Compiled(QueryPlanner.Plan plan, Projection projection) {}

  /**
   * The last projection compiled; reads of one table usually repeat one. A scan asks once per
   * partition with one plan: the identity check spares comparing the column lists each time.
   */
  private volatile Compiled lastProjection;

  private Projection projection(QueryPlanner.Plan plan) {
    Compiled c = lastProjection;
    if (c != null && c.plan() == plan) {
      return c.projection();
    }
    Projection p = c == null ? null : c.projection();
    List<Selector> selectors = plan.request().selectors();
    if (p == null || !p.columns().equals(plan.projection()) || !p.selectors().equals(selectors)) {
      p = Projection.compile(schema, keys, plan.projection(), selectors);
    }
    lastProjection = new Compiled(plan, p);
    return p;
  }
}
