package dev.talus.table;

import dev.talus.CompactionOptions;
import dev.talus.StorageException;
import dev.talus.TableSchema;
import dev.talus.compaction.CompactionInterruptedException;
import dev.talus.compaction.CompactionPlan;
import dev.talus.compaction.CompactionPlanner;
import dev.talus.compaction.CompactionTask;
import dev.talus.compaction.OverlapOracle;
import dev.talus.compaction.ReaderInfo;
import dev.talus.compaction.SizeTieredStrategy;
import dev.talus.compaction.StrategyContext;
import dev.talus.compaction.StrategyOptions;
import dev.talus.compaction.TimeWindowStrategy;
import dev.talus.data.PartitionKey;
import dev.talus.memtable.Memtable;
import dev.talus.runtime.DbContext;
import dev.talus.schema.KeyCodec;
import dev.talus.sstable.SSTableOptions;
import dev.talus.sstable.SSTableReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The compactions of one table: asks its strategy (wrapped so fully expired SSTables are dropped
 * whole under every strategy) for work, runs compaction tasks, and swaps their results into the
 * live set through the table's {@link ViewTracker}. Thread-safe; the bookkeeping is guarded by this
 * object's monitor, the merging itself runs outside it. Corruption met while merging surfaces as
 * the file layer's {@code CorruptFileException}; the database maps it for the caller.
 */
public final class TableCompactions {
  private static final Logger LOG = LoggerFactory.getLogger(TableCompactions.class);

  private final TableStore table;
  private final DbContext ctx;
  private final TableHost host;
  private volatile CompactionPlanner planner;
  private final Set<SSTableReader> compacting = new HashSet<>();
  private int running;
  private boolean majorInProgress;
  final AtomicLong completed = new AtomicLong();
  final AtomicLong bytesRead = new AtomicLong();
  final AtomicLong bytesWritten = new AtomicLong();
  final AtomicLong expiredDropped = new AtomicLong();
  final AtomicLong tombstonesPurged = new AtomicLong();
  final AtomicLong outOfOrderFlushes = new AtomicLong();
  private final CompactionFailures failures;

  TableCompactions(TableStore table, DbContext ctx, TableHost host) {
    this.table = table;
    this.ctx = ctx;
    this.host = host;
    this.planner = plannerFor(table.schema().compaction());
    this.failures = new CompactionFailures(table.schema().name(), ctx);
  }

  /** The failed compactions of this table and the backoff they impose on background ones. */
  public CompactionFailures failures() {
    return failures;
  }

  static StrategyOptions strategyOptions(CompactionOptions o) {
    StrategyOptions.Tombstones t =
        new StrategyOptions.Tombstones(
            o.tombstoneThreshold(),
            o.tombstoneCompactionInterval().getSeconds(),
            o.uncheckedTombstoneCompaction());
    return switch (o.strategy()) {
      case SIZE_TIERED ->
          new StrategyOptions.SizeTiered(
              o.minThreshold(),
              o.maxThreshold(),
              o.bucketLow(),
              o.bucketHigh(),
              o.minSSTableSizeBytes(),
              t);
      case LEVELED -> new StrategyOptions.Leveled(o.sstableSizeBytes(), o.fanout(), t);
      case TIME_WINDOW ->
          new StrategyOptions.TimeWindow(
              o.windowUnit().getDuration().getSeconds() * o.windowSize(),
              o.minThreshold(),
              o.maxThreshold(),
              t);
    };
  }

  static CompactionPlanner plannerFor(CompactionOptions o) {
    return CompactionPlanner.of(strategyOptions(o), SizeTieredStrategy::new);
  }

  /** The new strategy takes over the existing SSTables as they are. */
  void strategyChanged(CompactionOptions o) {
    planner = plannerFor(o);
  }

  public String describe() {
    return planner.describe();
  }

  public synchronized int running() {
    return running;
  }

  /** 1 if the strategy would start a compaction now, else 0 (a cheap estimate). */
  public int pending() {
    return nextPlan(false).isPresent() ? 1 : 0;
  }

  private StrategyContext<ReaderInfo> context() {
    TableView v = table.tracker().current();
    List<ReaderInfo> candidates = new ArrayList<>();
    List<ReaderInfo> busy = new ArrayList<>();
    synchronized (this) {
      for (SSTableReader r : v.sstables()) {
        (compacting.contains(r) ? busy : candidates).add(new ReaderInfo(r));
      }
    }
    long now = ctx.nowSeconds();
    return new StrategyContext<>(candidates, busy, now, gcBefore(now), memtableMinTimestamp(v));
  }

  public long gcBefore(long now) {
    return now - table.schema().gcGrace().getSeconds();
  }

  private static long memtableMinTimestamp(TableView v) {
    long m = v.active().minTimestamp();
    for (Memtable f : v.flushing()) {
      m = Math.min(m, f.minTimestamp());
    }
    return m;
  }

  /**
   * The smallest timestamp of the memtables holding {@code key} (at most MAX_VALUE - 1, so a
   * memtable holding only writes at MAX_VALUE still holds purging back), or MAX_VALUE if none does.
   */
  private long memtableMinTimestamp(TableView v, PartitionKey key) {
    long m = Long.MAX_VALUE;
    if (v.active().get(key) != null) {
      m = Math.min(v.active().minTimestamp(), Long.MAX_VALUE - 1);
    }
    for (Memtable f : v.flushing()) {
      if (f.get(key) != null) {
        m = Math.min(m, Math.min(f.minTimestamp(), Long.MAX_VALUE - 1));
      }
    }
    return m;
  }

  /** Between partitions: stops at a database close, a pause, or the table's drop. */
  private void checkpoint() {
    ctx.compactionCheckpoint();
    if (table.retired()) {
      throw new CompactionInterruptedException("the table was dropped or truncated");
    }
  }

  /**
   * For a table being retired (already marked so: nothing new starts): waits until its running
   * compactions have stopped, at their next partition boundary.
   */
  synchronized void awaitStopped() {
    while (running > 0 || majorInProgress) {
      awaitChange();
    }
  }

  private Optional<CompactionPlan<ReaderInfo>> nextPlan(boolean reserve) {
    synchronized (this) {
      if (majorInProgress || table.retired()) {
        return Optional.empty();
      }
      Optional<CompactionPlan<ReaderInfo>> plan = planner.nextBackgroundTask(context());
      if (reserve && plan.isPresent()) {
        reserve(plan.get());
      }
      return plan;
    }
  }

  private void reserve(CompactionPlan<ReaderInfo> p) {
    for (ReaderInfo i : p.inputs()) {
      compacting.add(i.reader());
    }
    for (ReaderInfo i : p.expired()) {
      compacting.add(i.reader());
    }
    running++;
  }

  private synchronized void unreserve(CompactionPlan<ReaderInfo> p) {
    for (ReaderInfo i : p.inputs()) {
      compacting.remove(i.reader());
    }
    for (ReaderInfo i : p.expired()) {
      compacting.remove(i.reader());
    }
    running--;
    notifyAll();
  }

  /**
   * Runs one background compaction if the strategy proposes one; returns whether it did. Called on
   * the engine's compaction threads.
   */
  public boolean runNextBackground() {
    ctx.checkWritable(); // after a fail-stop nothing is written until the database is reopened
    Optional<CompactionPlan<ReaderInfo>> plan = nextPlan(true);
    if (plan.isEmpty()) {
      if (running() == 0) {
        failures.succeeded(); // nothing left to fail (e.g. a damaged input was quarantined)
      }
      return false;
    }
    execute(plan.get());
    return true;
  }

  /** A major compaction: waits for running ones, then merges everything the strategy says. */
  public void major() {
    ctx.checkWritable();
    List<CompactionPlan<ReaderInfo>> plans;
    synchronized (this) {
      while (majorInProgress || running > 0) {
        awaitChange();
      }
      if (table.retired()) {
        return;
      }
      majorInProgress = true;
      plans = planner.majorCompaction(context());
      for (CompactionPlan<ReaderInfo> p : plans) {
        reserve(p);
      }
    }
    try {
      RuntimeException failure = null;
      for (CompactionPlan<ReaderInfo> p : plans) {
        try {
          execute(p);
        } catch (RuntimeException e) {
          failure = failure == null ? e : failure;
        }
      }
      if (failure != null) {
        throw failure;
      }
    } finally {
      synchronized (this) {
        majorInProgress = false;
        notifyAll();
      }
    }
  }

  /** Compacts exactly the SSTables with these generations (they must be live and idle). */
  public void userDefined(java.util.Collection<Long> generations) {
    ctx.checkWritable();
    CompactionPlan<ReaderInfo> plan;
    synchronized (this) {
      while (majorInProgress) {
        awaitChange();
      }
      List<ReaderInfo> inputs = new ArrayList<>();
      java.util.Set<Long> wanted = new java.util.HashSet<>(generations);
      int level = 0;
      for (SSTableReader r : table.tracker().current().sstables()) {
        if (wanted.remove(r.generation())) {
          if (compacting.contains(r)) {
            throw new dev.talus.InvalidQueryException(
                "SSTable "
                    + r.generation()
                    + " of "
                    + table.schema().name()
                    + " is being compacted");
          }
          inputs.add(new ReaderInfo(r));
          level = Math.max(level, r.stats().level());
        }
      }
      if (!wanted.isEmpty()) {
        throw new dev.talus.InvalidQueryException(
            "no live SSTables " + wanted + " in table " + table.schema().name());
      }
      if (inputs.isEmpty()) {
        return;
      }
      plan = CompactionPlan.of(inputs, level, Long.MAX_VALUE, "user-defined");
      reserve(plan);
    }
    execute(plan);
  }

  /** Waits until no compaction of this table runs and the strategy proposes none. */
  public void awaitIdle() {
    while (true) {
      synchronized (this) {
        while (running > 0 || majorInProgress) {
          awaitChange();
        }
      }
      if (!runNextBackground()) {
        synchronized (this) {
          if (running == 0 && !majorInProgress) {
            return;
          }
        }
      }
    }
  }

  private void awaitChange() {
    try {
      wait(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageException("interrupted while waiting for compactions", e);
    }
    ctx.checkOpen();
  }

  private void execute(CompactionPlan<ReaderInfo> plan) {
    IOException failed = null; // reported once the inputs are released (below)
    try {
      ctx.checkWritable();
      if (plan.inputs().isEmpty()) {
        dropExpired(plan);
        return;
      }
      TableView v = table.tracker().current();
      List<SSTableReader> inputs = new ArrayList<>();
      for (ReaderInfo i : plan.inputs()) {
        inputs.add(i.reader());
      }
      List<SSTableReader> all = new ArrayList<>(v.sstables());
      OverlapOracle overlap =
          OverlapOracle.forCompaction(
              all, inputs, key -> memtableMinTimestamp(table.tracker().current(), key));
      long now = ctx.nowSeconds();
      CompactionTask.Builder builder =
          CompactionTask.builder(plan, ctx.fs(), table.directory(), table.manifest())
              .options(outputOptions(plan, inputs, now))
              .chunkCache(ctx.chunkCache())
              .purge(now, gcBefore(now), overlap)
              .throttle(ctx.compactionThrottle())
              .checkpoint(this::checkpoint);
      KeyCodec keys = table.keys();
      if (keys.hasDropped()) { // dropped columns leave the disk here
        builder.droppedColumns(keys::isDropped);
      }
      CompactionTask task = builder.build();
      CompactionTask.Result result = task.run();
      swapCompacted(result);
      completed.incrementAndGet();
      bytesRead.addAndGet(result.bytesRead());
      bytesWritten.addAndGet(result.bytesWritten());
      tombstonesPurged.addAndGet(result.tombstonesPurged());
      expiredDropped.addAndGet(plan.expired().size());
      failures.succeeded(); // before the event: a listener sees the episode over
      ctx.metrics().compaction(table.schema().name(), result.bytesRead(), result.bytesWritten());
      LOG.debug(
          "Compacted {} of table {}: {} -> {} bytes ({})",
          plan.inputs().size(),
          table.schema().name(),
          result.bytesRead(),
          result.bytesWritten(),
          plan.reason());
    } catch (CompactionInterruptedException e) {
      LOG.debug("Compaction of {} cancelled", table.schema().name());
    } catch (IOException e) {
      failed = e;
      throw new StorageException(
          "compaction of table "
              + table.schema().name()
              + " failed: "
              + e.getMessage()
              + " (in "
              + table.directory()
              + ")"
              + ctx.stopNotice(),
          e);
    } catch (RuntimeException e) { // a corrupt input SSTable, or a bug
      if (!ctx.isClosed() && !ctx.isStopped()) {
        failures.failed("compaction of table " + table.schema().name(), e);
      }
      throw e;
    } finally {
      unreserve(plan);
      if (failed != null) {
        // After the release: a disk-full retry that found the inputs still reserved would see
        // nothing to compact and end its episode with the disk still full.
        String what = "compaction of table " + table.schema().name();
        if (!host.writeFailed(table, true, what, failed) // a full disk: retried by itself
            && !ctx.isStopped()) {
          failures.failed(what, failed); // any other error: the background ones back off
        }
      }
      host.compacted(table);
    }
  }

  private void dropExpired(CompactionPlan<ReaderInfo> plan) throws IOException {
    List<SSTableReader> gone = new ArrayList<>();
    for (ReaderInfo i : plan.expired()) {
      gone.add(i.reader());
    }
    table.tracker().swap(gone, List.of());
    expiredDropped.addAndGet(gone.size());
    completed.incrementAndGet();
    LOG.debug(
        "Dropped {} fully expired SSTables of table {} whole", gone.size(), table.schema().name());
  }

  /** A compaction's outputs replace its inputs and the fully expired SSTables. */
  private void swapCompacted(CompactionTask.Result result) throws IOException {
    List<SSTableReader> removed = new ArrayList<>();
    for (ReaderInfo i : result.plan().inputs()) {
      removed.add(i.reader());
    }
    for (ReaderInfo i : result.plan().expired()) {
      removed.add(i.reader());
    }
    for (SSTableReader out : result.outputs()) {
      // written with the outputs; this completes them (an index created meanwhile) before they go
      // live; if it fails, the first query that needs them builds them
      table.indexes().writeForOrLater(out, table.keys());
    }
    table.tracker().swap(removed, result.outputs());
  }

  private SSTableOptions outputOptions(
      CompactionPlan<ReaderInfo> plan, List<SSTableReader> inputs, long now) {
    SSTableOptions.Builder b =
        table.sstableOptions(plan.outputLevel()).toBuilder()
            .createdAt(now)
            .attachedWriters(table.indexes().componentWriters(table.keys())); // index components
    long lower = Long.MAX_VALUE;
    long upper = Long.MIN_VALUE;
    for (SSTableReader r : inputs) {
      SSTableOptions.CommitLogInterval i = r.stats().commitLogInterval();
      if (i != null) {
        lower = Math.min(lower, i.lower());
        upper = Math.max(upper, i.upper());
      }
    }
    if (lower <= upper) {
      // outputs cover what their inputs covered, so replay after a restart stays exact
      b.commitLogInterval(lower, upper);
    }
    return b.build();
  }

  /** After a flush under TWCS: writes into old windows defeat whole-file expiry; say so. */
  void checkOutOfOrder(SSTableReader flushed) {
    TableSchema s = table.schema();
    if (s.compaction().strategy() != CompactionOptions.Strategy.TIME_WINDOW) {
      return;
    }
    long window =
        s.compaction().windowUnit().getDuration().getSeconds() * s.compaction().windowSize();
    if (TimeWindowStrategy.isOutOfOrder(new ReaderInfo(flushed), ctx.nowSeconds(), window)) {
      outOfOrderFlushes.incrementAndGet();
      LOG.warn(
          "Table {} received writes with timestamps in past time windows (SSTable generation {});"
              + " they keep old windows from expiring as whole files",
          s.name(),
          flushed.generation());
    }
  }
}
