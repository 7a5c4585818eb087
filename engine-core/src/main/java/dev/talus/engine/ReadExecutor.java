package dev.talus.engine;

import dev.talus.ColumnDef;
import dev.talus.ResultRow;
import dev.talus.TableSchema;
import dev.talus.TombstoneOverwhelmingException;
import dev.talus.codec.TypeCodec;
import dev.talus.data.Cell;
import dev.talus.data.LiveRows;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionMerger;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executes validated reads of one table: per partition, a reference-counted snapshot of its sources
 * is merged, filtered to live rows (counting tombstones against the table's thresholds), filtered,
 * projected and paged. Partitions of an IN query are read in parallel. Thread-safe.
 */
final class ReadExecutor {
  private static final Logger LOG = LoggerFactory.getLogger(ReadExecutor.class);

  private final TableStore table;
  private final Engine engine;
  private final TableSchema schema;
  private final KeyCodec keys;

  ReadExecutor(TableStore table, Engine engine) {
    this.table = table;
    this.engine = engine;
    this.schema = table.schema();
    this.keys = table.keys();
  }

  ReadResult read(ReadRequest req) {
    QueryPlanner.Plan plan = QueryPlanner.plan(keys, req);
    long now = engine.nowSeconds();
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
                  engine.readExecutor()));
        } catch (java.util.concurrent.RejectedExecutionException e) {
          engine.checkOpen(); // closed meanwhile: report it as such
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
                QueryPlanner.pagingState(
                    plan, last.partition, last.clustering, plan.alreadyReturned() + out.size());
          }
          break outer;
        }
        out.add(f.row);
        last = f;
      }
    }
    table.readDone(tombstones.get());
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
    Slice slice = QueryPlanner.sliceFor(plan, index);
    List<Found> out = new ArrayList<>();
    if (slice.isEmpty()) {
      return out;
    }
    try (ReadSnapshot snapshot = table.snapshot(key, slice)) {
      PartitionMerger.Merged m =
          PartitionMerger.merge(key, snapshot.sources(), slice, plan.reversed());
      table.sourcesRead(m.sourcesUsed());
      sources.addAndGet(m.sourcesUsed());
      int rangeDeletions = m.rangeDeletions().within(slice, m.partitionDeletion()).size();
      LiveRows.TombstoneCounter counter = t -> countTombstones(key, tombstones, t);
      if (rangeDeletions > 0) {
        counter.add(rangeDeletions);
      }
      LiveRows live = new LiveRows(m.rows(), now, counter);
      Object[] pkValues = plan.partitionValues().get(index);
      Projection proj = projection(plan);
      while (out.size() < max && live.hasNext()) {
        Row r = live.next();
        if (!matches(plan, r)) {
          continue;
        }
        out.add(new Found(index, r.clustering(), view(proj, pkValues, r, now)));
      }
      return out;
    }
  }

  private void countTombstones(PartitionKey key, AtomicInteger total, int added) {
    int before = total.getAndAdd(added);
    int after = before + added;
    if (after > schema.tombstoneFailureThreshold()) {
      throw new TombstoneOverwhelmingException(
          "read of table "
              + schema.name()
              + " partition "
              + describe(key)
              + " scanned more than "
              + schema.tombstoneFailureThreshold()
              + " tombstones (tombstone_failure_threshold). Deleted or expired data is kept as"
              + " tombstones until gc_grace ("
              + schema.gcGrace()
              + ") has passed and compaction purges them. Fix the data model (time buckets, TTL"
              + " instead of deletes, no queue-like delete-then-read) or compact after gc_grace");
    }
    if (before <= schema.tombstoneWarnThreshold() && after > schema.tombstoneWarnThreshold()) {
      table.tombstoneWarning();
      LOG.warn(
          "Read of table {} partition {} scanned more than {} tombstones"
              + " (tombstone_warn_threshold)",
          schema.name(),
          describe(key),
          schema.tombstoneWarnThreshold());
    }
  }

  /** The partition key values as text, for messages (never raw bytes). */
  String describe(PartitionKey key) {
    Object[] v = keys.decodePartitionKey(key.bytes());
    StringBuilder b = new StringBuilder("(");
    for (int i = 0; i < v.length; i++) {
      if (i > 0) {
        b.append(", ");
      }
      b.append(schema.partitionKey().get(i).name())
          .append('=')
          .append(keys.partitionKeyCodec(i).format(v[i]));
    }
    return b.append(')').toString();
  }

  private boolean matches(QueryPlanner.Plan plan, Row r) {
    for (QueryPlanner.Filter f : plan.filters()) {
      Cell c = r.cell(f.id());
      if (c == null) {
        return false;
      }
      TypeCodec<?> codec = keys.regularCodec(f.id());
      int cmp = codec.compare(codec.deserialize(c.value()), f.value());
      boolean ok =
          switch (f.op()) {
            case EQ -> cmp == 0;
            case GT -> cmp > 0;
            case GE -> cmp >= 0;
            case LT -> cmp < 0;
            case LE -> cmp <= 0;
            case IN -> false;
          };
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /**
   * A projection compiled once: the shared {@link RowView.Shape} and, per selected column, where
   * its value comes from (partition key or clustering position, or regular column id).
   */
  private record Projection(
      List<ColumnDef> columns,
      RowView.Shape shape,
      ColumnDef.Kind[] kinds,
      int[] positions,
      TypeCodec<?>[] codecs) {
    static Projection compile(TableSchema schema, KeyCodec keys, List<ColumnDef> columns) {
      int n = columns.size();
      List<String> names = new ArrayList<>(n);
      ColumnDef.Kind[] kinds = new ColumnDef.Kind[n];
      int[] positions = new int[n];
      TypeCodec<?>[] codecs = new TypeCodec<?>[n];
      for (int i = 0; i < n; i++) {
        ColumnDef c = columns.get(i);
        names.add(c.name());
        kinds[i] = c.kind();
        switch (c.kind()) {
          case PARTITION_KEY -> positions[i] = schema.partitionKey().indexOf(c);
          case CLUSTERING -> positions[i] = schema.clustering().indexOf(c);
          case REGULAR -> {
            positions[i] = keys.regularId(c.name());
            codecs[i] = keys.regularCodec(positions[i]);
          }
        }
      }
      return new Projection(
          List.copyOf(columns), new RowView.Shape(names), kinds, positions, codecs);
    }
  }

  /** The last projection compiled; reads of one table usually repeat one. */
  private volatile Projection lastProjection;

  private Projection projection(QueryPlanner.Plan plan) {
    Projection p = lastProjection;
    if (p == null || !p.columns().equals(plan.projection())) {
      p = Projection.compile(schema, keys, plan.projection());
      lastProjection = p;
    }
    return p;
  }

  private ResultRow view(Projection proj, Object[] pkValues, Row r, long now) {
    Object[] ck = null;
    int n = proj.kinds().length;
    Object[] values = new Object[n];
    long[] writeTimes = null;
    int[] ttls = null;
    for (int i = 0; i < n; i++) {
      switch (proj.kinds()[i]) {
        case PARTITION_KEY -> values[i] = pkValues[proj.positions()[i]];
        case CLUSTERING -> {
          if (ck == null) {
            ck = keys.decodeClustering(r.clustering());
          }
          values[i] = ck[proj.positions()[i]];
        }
        case REGULAR -> {
          Cell cell = r.cell(proj.positions()[i]);
          if (cell != null) {
            values[i] = proj.codecs()[i].deserialize(cell.value());
            if (writeTimes == null) {
              writeTimes = new long[n];
              java.util.Arrays.fill(writeTimes, RowView.noWriteTime());
            }
            writeTimes[i] = cell.timestamp();
            if (cell.isExpiring()) {
              if (ttls == null) {
                ttls = new int[n];
                java.util.Arrays.fill(ttls, RowView.noTtl());
              }
              ttls[i] = (int) (cell.localDeletionTime() - now);
            }
          }
        }
      }
    }
    return new RowView(proj.shape(), values, writeTimes, ttls);
  }
}
