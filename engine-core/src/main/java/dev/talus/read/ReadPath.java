package dev.talus.read;

import dev.talus.ResultRow;
import dev.talus.StorageException;
import dev.talus.TableSchema;
import dev.talus.TalusMetricsListener;
import dev.talus.TombstoneOverwhelmingException;
import dev.talus.data.ClusteringBytes;
import dev.talus.data.DroppedCells;
import dev.talus.data.LiveRows;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionMerger;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import dev.talus.io.CorruptFileException;
import dev.talus.metrics.Histogram;
import dev.talus.request.ReadRequest;
import dev.talus.request.ReadResult;
import dev.talus.request.Selector;
import dev.talus.runtime.DbContext;
import dev.talus.schema.KeyCodec;
import dev.talus.table.TableMetrics;
import dev.talus.table.TableStore;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.PriorityQueue;
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

  public ReadPath(TableStore table, DbContext ctx, Executor readThreads) {
    this.table = table;
    this.ctx = ctx;
    this.readThreads = readThreads;
    this.schema = table.schema();
    this.keys = table.keys();
    this.metrics = table.metrics();
    this.scans = new TableScan(this, table);
  }

  /** The token of the partition with these key values. */
  public long token(List<Object> partitionKeyValues) {
    return TableScan.token(keys, partitionKeyValues);
  }

  /** Validates and runs one read; counts it and its latency (once, even if it was retried). */
  public ReadResult read(ReadRequest req) {
    ctx.checkOpen();
    metrics.readStarted();
    long start = Histogram.startTimer();
    ReadResult r = executeSkippingQuarantined(req);
    long micros = metrics.readLatencySince(start);
    ctx.metrics().read(table.schema().name(), micros, r.sourcesTouched(), r.tombstonesScanned());
    return r;
  }

  /** Runs a read; when the policy quarantines a damaged SSTable it found, runs it again without. */
  private ReadResult executeSkippingQuarantined(ReadRequest req) {
    while (true) {
      try {
        return execute(req);
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

  private ReadResult execute(ReadRequest req) {
    QueryPlanner.Plan plan = QueryPlanner.plan(keys, req);
    if (plan.isEmpty()) {
      metrics.readDone(0);
      return new ReadResult(List.of(), null, 0, 0);
    }
    long now = ctx.requestNowSeconds();
    Tombstones tombstones = new Tombstones(now - schema.gcGrace().getSeconds());
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
            ? merge(plan, perPartition, want, remainingLimit, out)
            : concatenate(plan, perPartition, first, want, remainingLimit, out);
    metrics.readDone(tombstones.scanned.get());
    return new ReadResult(out, paging, sources.get(), tombstones.scanned.get());
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

  /** Partition after partition (Cassandra's order without ORDER BY); the paging state, or null. */
  private static byte[] concatenate(
      QueryPlanner.Plan plan,
      List<List<Found>> perPartition,
      int first,
      int want,
      int remainingLimit,
      List<ResultRow> out) {
    Found last = null;
    int inLast = 0;
    for (int i = first; i < perPartition.size(); i++) {
      for (Found f : perPartition.get(i)) {
        if (out.size() == want) {
          return out.size() < remainingLimit ? state(plan, last, out.size(), inLast) : null;
        }
        out.add(f.row);
        inLast = last != null && last.partition == f.partition ? inLast + 1 : 1;
        last = f;
      }
    }
    return null;
  }

  /**
   * The partitions' rows merged into the query's clustering order, ties in partition order (as
   * Cassandra's stable sort of the rows it read partition after partition leaves them); the paging
   * state, or null.
   */
  private static byte[] merge(
      QueryPlanner.Plan plan,
      List<List<Found>> perPartition,
      int want,
      int remainingLimit,
      List<ResultRow> out) {
    int n = perPartition.size();
    int[] next = new int[n];
    boolean reversed = plan.reversed();
    PriorityQueue<Integer> heads =
        new PriorityQueue<>(
            n,
            (a, b) -> {
              int c =
                  ClusteringBytes.compare(
                      perPartition.get(a).get(next[a]).clustering,
                      perPartition.get(b).get(next[b]).clustering);
              return c != 0 ? (reversed ? -c : c) : Integer.compare(a, b);
            });
    for (int i = 0; i < n; i++) {
      if (!perPartition.get(i).isEmpty()) {
        heads.add(i);
      }
    }
    Found last = null;
    while (!heads.isEmpty()) {
      int i = heads.poll();
      Found f = perPartition.get(i).get(next[i]++);
      if (out.size() == want) {
        return out.size() < remainingLimit ? state(plan, last, out.size(), 0) : null;
      }
      out.add(f.row);
      last = f;
      if (next[i] < perPartition.get(i).size()) {
        heads.add(i);
      }
    }
    return null;
  }

  private static byte[] state(QueryPlanner.Plan plan, Found last, int rows, int inLast) {
    Paging.Resume r = plan.resume();
    int inPartition =
        inLast + (r.after() != null && r.startPartition() == last.partition ? r.inPartition() : 0);
    return Paging.pagingState(
        plan, last.partition, last.clustering, r.alreadyReturned() + rows, inPartition);
  }

  /** A result row, with its partition (an index in the read's partition order) and clustering. */
  record Found(int partition, byte[] clustering, ResultRow row) {}

  private List<Found> readPartition(
      QueryPlanner.Plan plan,
      int index,
      int max,
      long now,
      Tombstones tombstones,
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
      Tombstones tombstones,
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
      for (int k = 0; k < slices.size() && out.size() < max; k++) {
        Slice slice = slices.get(plan.reversed() ? slices.size() - 1 - k : k);
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

  /**
   * The tombstones one read scans: all of them, for the statistics, and those not yet past
   * gc_grace, which count towards the table's thresholds. As in Cassandra, tombstones a compaction
   * may already purge do not fail or warn a read even before a compaction has removed them.
   */
  final class Tombstones {
    final long gcBefore;
    final AtomicInteger scanned = new AtomicInteger();
    final AtomicInteger counted = new AtomicInteger();

    Tombstones(long gcBefore) {
      this.gcBefore = gcBefore;
    }

    LiveRows.TombstoneCounter counter(PartitionKey key) {
      return new LiveRows.TombstoneCounter() {
        @Override
        public void add(int tombstones) {
          add(tombstones, 0);
        }

        @Override
        public void add(int tombstones, int purgeable) {
          Tombstones.this.add(key, tombstones, purgeable);
        }
      };
    }

    void rangeDeletions(LiveRows.TombstoneCounter counter, PartitionMerger.Merged m, Slice slice) {
      if (m.rangeDeletions().isEmpty()) {
        return;
      }
      int all = 0;
      int purgeable = 0;
      for (RangeTombstone t : m.rangeDeletions().within(slice, m.partitionDeletion())) {
        all++;
        if (t.deletion().localDeletionTime() < gcBefore) {
          purgeable++;
        }
      }
      if (all > 0) {
        counter.add(all, purgeable);
      }
    }

    void add(PartitionKey key, int tombstones, int purgeable) {
      scanned.addAndGet(tombstones);
      int added = tombstones - purgeable;
      if (added == 0) {
        return;
      }
      int before = counted.getAndAdd(added);
      int after = before + added;
      if (after > schema.tombstoneFailureThreshold()) {
        throw new TombstoneOverwhelmingException(
            "read of table "
                + schema.name()
                + " partition "
                + keys.describe(key)
                + " scanned more than "
                + schema.tombstoneFailureThreshold()
                + " tombstones (tombstone_failure_threshold; tombstones past gc_grace are not"
                + " counted). Deleted or expired data is kept as tombstones until gc_grace ("
                + schema.gcGrace()
                + ") has passed and compaction purges them. Fix the data model (time buckets, TTL"
                + " instead of deletes, no queue-like delete-then-read) or compact after"
                + " gc_grace");
      }
      if (before <= schema.tombstoneWarnThreshold() && after > schema.tombstoneWarnThreshold()) {
        metrics.tombstoneWarning();
        ctx.metrics()
            .warning(
                schema.name(),
                TalusMetricsListener.WarningKind.TOMBSTONES,
                "Read of table "
                    + schema.name()
                    + " partition "
                    + keys.describe(key)
                    + " scanned more than "
                    + schema.tombstoneWarnThreshold()
                    + " tombstones (tombstone_warn_threshold)");
      }
    }
  }

  /** The last projection compiled; reads of one table usually repeat one. */
  private volatile Projection lastProjection;

  private Projection projection(QueryPlanner.Plan plan) {
    Projection p = lastProjection;
    List<Selector> selectors = plan.request().selectors();
    if (p == null || !p.columns().equals(plan.projection()) || !p.selectors().equals(selectors)) {
      p = Projection.compile(schema, keys, plan.projection(), selectors);
      lastProjection = p;
    }
    return p;
  }
}
