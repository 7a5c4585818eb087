package dev.talus.read;

import dev.talus.ResultRow;
import dev.talus.StorageException;
import dev.talus.TableSchema;
import dev.talus.TombstoneOverwhelmingException;
import dev.talus.data.ClusteringBytes;
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
import dev.talus.table.TableMetrics;
import dev.talus.table.TableStore;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read path of one table: a read is validated against the query-first rules ({@link
 * QueryPlanner}), then per partition a reference-counted snapshot of its sources ({@link
 * SSTableSelector}) is merged, filtered to live rows (counting tombstones against the table's
 * thresholds), filtered, projected ({@link Projection}) and paged ({@link Paging}). Partitions of
 * an IN query are read in parallel. Corruption surfaces as the file layer's {@code
 * CorruptFileException} (after a retry without the SSTable if the disk failure policy quarantined
 * it); the database maps it for the caller. Thread-safe.
 */
public final class ReadPath {
  private static final Logger LOG = LoggerFactory.getLogger(ReadPath.class);

  private final TableStore table;
  private final DbContext ctx;
  private final Executor readThreads;
  private final TableSchema schema;
  private final KeyCodec keys;
  private final TableMetrics metrics;

  public ReadPath(TableStore table, DbContext ctx, Executor readThreads) {
    this.table = table;
    this.ctx = ctx;
    this.readThreads = readThreads;
    this.schema = table.schema();
    this.keys = table.keys();
    this.metrics = table.metrics();
  }

  /** Validates and runs one read; counts it and its latency. */
  public ReadResult read(ReadRequest req) {
    ctx.checkOpen();
    metrics.readStarted();
    long start = Histogram.startTimer();
    try {
      ReadResult r = execute(req);
      long micros = metrics.readLatencySince(start);
      ctx.metrics().read(table.schema().name(), micros, r.sourcesTouched(), r.tombstonesScanned());
      return r;
    } catch (CorruptFileException e) {
      if (table.quarantine().handle(table, e)) {
        return read(req); // without the quarantined SSTable
      }
      throw e;
    } catch (UncheckedIOException e) {
      throw new StorageException(
          "read of table " + table.schema().name() + " failed: " + e.getCause().getMessage(), e);
    }
  }

  private ReadResult execute(ReadRequest req) {
    QueryPlanner.Plan plan = QueryPlanner.plan(keys, req);
    long now = ctx.nowSeconds();
    AtomicInteger tombstones = new AtomicInteger();
    AtomicInteger sources = new AtomicInteger();
    int remainingLimit = plan.limit() - plan.alreadyReturned();
    int want = Math.min(remainingLimit, plan.pageSize());
    // one row more than the page tells whether another page follows; never overflow
    int fetch = Math.min(want == Integer.MAX_VALUE ? want : want + 1, plan.perPartitionLimit());
    int n = plan.keys().size();
    List<List<Found>> perPartition = new ArrayList<>(Collections.nCopies(n, null));
    if (n - plan.startPartition() > 1) {
      List<CompletableFuture<Void>> futures = new ArrayList<>();
      for (int i = plan.startPartition(); i < n; i++) {
        int idx = i;
        try {
          futures.add(
              CompletableFuture.runAsync(
                  () ->
                      perPartition.set(
                          idx, readPartition(plan, idx, fetch, now, tombstones, sources)),
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
    } else if (plan.startPartition() < n) {
      perPartition.set(
          plan.startPartition(),
          readPartition(plan, plan.startPartition(), fetch, now, tombstones, sources));
    }
    List<ResultRow> out = new ArrayList<>();
    byte[] paging = null;
    Found last = null;
    outer:
    for (int i = plan.startPartition(); i < n; i++) {
      for (Found f : perPartition.get(i)) {
        if (out.size() == want) {
          if (out.size() < remainingLimit) {
            paging =
                Paging.pagingState(
                    plan, last.partition, last.clustering, plan.alreadyReturned() + out.size());
          }
          break outer;
        }
        out.add(f.row);
        last = f;
      }
    }
    metrics.readDone(tombstones.get());
    return new ReadResult(out, paging, sources.get(), tombstones.get());
  }

  private record Found(int partition, byte[] clustering, ResultRow row) {}

  private List<Found> readPartition(
      QueryPlanner.Plan plan,
      int index,
      int max,
      long now,
      AtomicInteger tombstones,
      AtomicInteger sources) {
    PartitionKey key = plan.keys().get(index);
    Slice slice = Paging.sliceFor(plan, index);
    List<Found> out = new ArrayList<>();
    if (slice.isEmpty()) {
      return out;
    }
    Projection proj = projection(plan);
    boolean statics = proj.readsStatics() || filtersStatics(plan);
    // with statics, the sources are chosen for the static row too
    Slice sourcesFor = statics ? new Slice(Slice.STATIC.start(), slice.end()) : slice;
    try (ReadSnapshot snapshot =
        SSTableSelector.snapshot(table.tracker(), metrics, key, sourcesFor)) {
      LiveRows.TombstoneCounter counter = t -> countTombstones(key, tombstones, t);
      Row staticRow = statics ? staticRow(key, snapshot, now, counter) : null;
      PartitionMerger.Merged m =
          PartitionMerger.merge(key, snapshot.sources(), slice, plan.reversed());
      metrics.sourcesRead(m.sourcesUsed());
      sources.addAndGet(m.sourcesUsed());
      int rangeDeletions = m.rangeDeletions().within(slice, m.partitionDeletion()).size();
      if (rangeDeletions > 0) {
        counter.add(rangeDeletions);
      }
      LiveRows live = new LiveRows(m.rows(), now, counter);
      Object[] pkValues = plan.partitionValues().get(index);
      boolean anyRow = false;
      while (out.size() < max && live.hasNext()) {
        Row r = live.next();
        anyRow = true;
        if (!ValueFilters.matches(keys, plan.filters(), r, staticRow)) {
          continue;
        }
        out.add(new Found(index, r.clustering(), proj.view(keys, pkValues, r, staticRow, now)));
      }
      // Cassandra: a partition with static data but no rows reads as one row with null
      // clustering and regular columns, when the query names whole partitions
      if (!anyRow
          && staticRow != null
          && max > 0
          && plan.filters().isEmpty()
          && !restrictsClustering(plan)
          && !(index == plan.startPartition() && plan.resumeAfter() != null)) {
        out.add(
            new Found(
                index, ClusteringBytes.STATIC, proj.view(keys, pkValues, null, staticRow, now)));
      }
      return out;
    }
  }

  /** The partition's live static row, or null; its tombstones count like the rows'. */
  private static Row staticRow(
      PartitionKey key, ReadSnapshot snapshot, long now, LiveRows.TombstoneCounter counter) {
    PartitionMerger.Merged m = PartitionMerger.merge(key, snapshot.sources(), Slice.STATIC, false);
    LiveRows live = new LiveRows(m.rows(), now, counter);
    return live.hasNext() ? live.next() : null;
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
    for (var r : plan.request().restrictions()) {
      var c = schema.column(r.column());
      if (c.isPresent() && c.get().kind() == dev.talus.ColumnDef.Kind.CLUSTERING) {
        return true;
      }
    }
    return false;
  }

  private void countTombstones(PartitionKey key, AtomicInteger total, int added) {
    int before = total.getAndAdd(added);
    int after = before + added;
    if (after > schema.tombstoneFailureThreshold()) {
      throw new TombstoneOverwhelmingException(
          "read of table "
              + schema.name()
              + " partition "
              + keys.describe(key)
              + " scanned more than "
              + schema.tombstoneFailureThreshold()
              + " tombstones (tombstone_failure_threshold). Deleted or expired data is kept as"
              + " tombstones until gc_grace ("
              + schema.gcGrace()
              + ") has passed and compaction purges them. Fix the data model (time buckets, TTL"
              + " instead of deletes, no queue-like delete-then-read) or compact after gc_grace");
    }
    if (before <= schema.tombstoneWarnThreshold() && after > schema.tombstoneWarnThreshold()) {
      metrics.tombstoneWarning();
      LOG.warn(
          "Read of table {} partition {} scanned more than {} tombstones"
              + " (tombstone_warn_threshold)",
          schema.name(),
          keys.describe(key),
          schema.tombstoneWarnThreshold());
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
