package dev.talus.write;

import dev.talus.InvalidQueryException;
import dev.talus.commitlog.CommitLog;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionUpdate;
import dev.talus.metrics.Histogram;
import dev.talus.read.CurrentRow;
import dev.talus.request.WriteRequest;
import dev.talus.runtime.DbContext;
import dev.talus.table.TableStore;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntPredicate;

/**
 * The one write path of a database, for a single write and for a batch alike:
 *
 * <ol>
 *   <li><b>timestamp</b> — the write's own, or one from the clock (a batch shares one);
 *   <li><b>validate</b> — {@link WritePlanner} checks everything and builds the update, so a
 *       refused write stores nothing;
 *   <li><b>guardrails</b> — the partition size and rows limits;
 *   <li><b>reserve memory</b> — wait for memtable space ({@link MemtableBudget});
 *   <li><b>log</b> — one commit-log record for all its updates, under each table's write barrier
 *       (several tables: taken in table-id order); the updates of tables whose keyspace has {@code
 *       durable_writes = false} are left out of it, as in Cassandra. Every wait here is bounded by
 *       the write timeout ({@link CommitLogWaits}): a write whose record's fsync stalls past it is
 *       applied when the fsync completes, and its caller gets {@link
 *       dev.talus.WriteTimeoutException};
 *   <li><b>apply</b> — to each table's active memtable;
 *   <li><b>after-write</b> — flushes when memory or the commit log fill up ({@link FlushTrigger}).
 * </ol>
 *
 * A single write also records its latency (batches do not).
 *
 * <p><b>Counters.</b> A write to a counter table holds its partition's lock (one of {@link
 * #COUNTER_STRIPES} striped locks; a batch takes its partitions' locks in stripe order) from before
 * its timestamp is drawn until it is applied: the increment reads the current total, computes the
 * new one, logs and applies it, so concurrent increments of one counter are serialised and each
 * sees the one before. The log holds totals, so replaying a record twice counts it once.
 * Thread-safe.
 */
public final class WritePipeline {
  private final DbContext ctx;
  private final CommitLog commitLog;
  private final MemtableBudget budget;
  private final FlushTrigger flushes;
  private final IntPredicate logged;
  private final AtomicLong writesSinceLogCheck = new AtomicLong();
  private final ListPaths listPaths;
  private final CommitLogWaits waits;

  /** Locks serialising counter writes per partition (by hash). */
  static final int COUNTER_STRIPES = 1024;

  private final ReentrantLock[] counterLocks = new ReentrantLock[COUNTER_STRIPES];

  /**
   * @param logged whether writes to the table with this id go through the commit log (false for the
   *     tables of a keyspace without durable writes)
   */
  public WritePipeline(
      DbContext ctx,
      CommitLog commitLog,
      MemtableBudget budget,
      FlushTrigger flushes,
      IntPredicate logged) {
    this.ctx = ctx;
    this.commitLog = commitLog;
    this.budget = budget;
    this.flushes = flushes;
    this.logged = logged;
    this.listPaths = new ListPaths(ctx.clock());
    this.waits = new CommitLogWaits(ctx, commitLog, budget);
    for (int i = 0; i < COUNTER_STRIPES; i++) {
      counterLocks[i] = new ReentrantLock();
    }
  }

  private static int stripe(TableStore t, PartitionKey key) {
    return (int) ((key.token() * 31 + t.id()) & (COUNTER_STRIPES - 1));
  }

  /** The counter locks a write takes, in stripe order (empty for tables without counters). */
  private TreeSet<Integer> counterStripes(List<TableStore> tables, List<WriteRequest> reqs) {
    TreeSet<Integer> stripes = new TreeSet<>();
    for (int i = 0; i < tables.size(); i++) {
      TableStore t = tables.get(i);
      if (t.schema().isCounterTable()) {
        stripes.add(stripe(t, WritePlanner.partitionKeyOf(t.keys(), reqs.get(i))));
      }
    }
    return stripes;
  }

  /** Takes the counter locks in stripe order, each waiting at most the write timeout. */
  private void lock(TreeSet<Integer> stripes) {
    List<Integer> taken = new ArrayList<>(stripes.size());
    try {
      for (int s : stripes) {
        waits.lock(counterLocks[s], "the lock of a counter partition");
        taken.add(s);
      }
    } catch (RuntimeException e) {
      for (int i = taken.size() - 1; i >= 0; i--) {
        counterLocks[taken.get(i)].unlock();
      }
      throw e;
    }
  }

  /**
   * A counter write reads the current total first: writes to its partitions that wait for their
   * commit-log fsync must be applied before (at most the write timeout).
   */
  private void awaitPendingCounters(List<TableStore> tables, List<WriteRequest> reqs) {
    for (int i = 0; i < tables.size(); i++) {
      TableStore t = tables.get(i);
      if (t.schema().isCounterTable()) {
        waits.awaitNoPending(t, WritePlanner.partitionKeyOf(t.keys(), reqs.get(i)));
      }
    }
  }

  /**
   * Takes a conditional write's partition lock and waits until no write to the partition waits for
   * its commit-log fsync (the conditional write reads it first), each at most the write timeout;
   * {@link dev.talus.WriteTimeoutException} otherwise, with nothing written and the lock not held.
   */
  public void lockConditional(ReentrantLock lock, TableStore table, PartitionKey key) {
    waits.lock(lock, "the conditional-write lock of a partition of table " + table.schema().name());
    try {
      waits.awaitNoPending(table, key);
    } catch (RuntimeException e) {
      lock.unlock();
      throw e;
    }
  }

  private void unlock(TreeSet<Integer> stripes) {
    for (int s : stripes.descendingSet()) {
      counterLocks[s].unlock();
    }
  }

  /** Validates and applies one write. */
  public void write(TableStore table, WriteRequest req) {
    ctx.checkWritable();
    long start = Histogram.startTimer();
    TreeSet<Integer> stripes = counterStripes(List.of(table), List.of(req));
    lock(stripes);
    try {
      if (!stripes.isEmpty()) {
        awaitPendingCounters(List.of(table), List.of(req));
      }
      long ts = req.timestamp() != null ? checkTimestamp(req.timestamp()) : ctx.nextTimestamp();
      logAndApply(table, validate(table, req, ts, ctx.requestNowSeconds()));
    } finally {
      unlock(stripes);
    }
    afterWrite();
    ctx.metrics().write(table.schema().name(), table.metrics().writeLatencySince(start));
  }

  /**
   * Applies one prepared INSERT: {@code values} (one per column of {@code plan}) into {@code
   * table}, at {@code timestamp} (null: the clock's). The plan replaces the general planner; the
   * other stages are those of {@link #write(TableStore, WriteRequest)} (a plan is never made for a
   * counter table, so no counter lock is needed).
   */
  public void insert(TableStore table, InsertPlan plan, Object[] values, Long timestamp) {
    ctx.checkWritable();
    long start = Histogram.startTimer();
    long ts = timestamp != null ? checkTimestamp(timestamp) : ctx.nextTimestamp();
    PartitionUpdate u = plan.update(values, ts, ctx.requestNowSeconds());
    table.guardrails().checkWrite(u);
    logAndApply(table, u);
    afterWrite();
    ctx.metrics().write(table.schema().name(), table.metrics().writeLatencySince(start));
  }

  /**
   * Reserves memory for one table's update, then logs it (waiting for the commit log, at most the
   * write timeout) and applies it under the table's write barrier.
   */
  private void logAndApply(TableStore table, PartitionUpdate u) {
    budget.reserve(u.heapSize());
    waits.lockWrites(table);
    try {
      boolean applyNow = true;
      if (logged.test(table.id())) {
        Mutation m = new Mutation(List.of(new Mutation.Entry(table.id(), u)));
        applyNow = waits.logAndAwait(m, List.of(table), List.of(u));
      }
      if (applyNow) {
        apply(table, u);
      }
    } finally {
      table.unlockWrites();
    }
  }

  /**
   * Validates every write of a batch (one invalid write refuses all), then logs them as one record
   * and applies them.
   */
  public void write(List<TableStore> tables, List<WriteRequest> requests) {
    ctx.checkWritable();
    long start = Histogram.startTimer();
    TreeSet<Integer> stripes = counterStripes(tables, requests);
    List<TableStore> order;
    lock(stripes);
    try {
      if (!stripes.isEmpty()) {
        awaitPendingCounters(tables, requests);
      }
      order = writeLocked(tables, requests);
    } finally {
      unlock(stripes);
    }
    for (TableStore t : order) {
      afterWrite();
      // the batch's latency, once for each table it wrote to
      ctx.metrics().write(t.schema().name(), t.metrics().writeLatencySince(start));
    }
  }

  /** Plans, logs and applies a batch; returns the tables it wrote to, in id order. */
  private List<TableStore> writeLocked(List<TableStore> tables, List<WriteRequest> requests) {
    long shared = ctx.nextTimestamp();
    long now = ctx.requestNowSeconds();
    List<PartitionUpdate> updates = new ArrayList<>(requests.size());
    for (int i = 0; i < requests.size(); i++) {
      WriteRequest r = requests.get(i);
      long ts = r.timestamp() != null ? checkTimestamp(r.timestamp()) : shared;
      TableStore t = tables.get(i);
      // A write that reads first sees the batch's earlier writes too (two increments of one
      // counter in a batch both count).
      WritePlanner.CurrentRows reader =
          (key, ck) -> withPending(CurrentRow.read(t, key, ck), t, key, ck, tables, updates);
      PartitionUpdate u = WritePlanner.plan(t.keys(), r, ts, now, reader, listPaths);
      t.guardrails().checkWrite(u);
      updates.add(u);
    }
    ctx.checkWritable();
    long bytes = 0;
    List<Mutation.Entry> entries = new ArrayList<>(updates.size());
    for (int i = 0; i < tables.size(); i++) {
      if (logged.test(tables.get(i).id())) {
        entries.add(new Mutation.Entry(tables.get(i).id(), updates.get(i)));
      }
      bytes += updates.get(i).heapSize();
    }
    budget.reserve(bytes);
    List<TableStore> order = inIdOrder(tables);
    int locked = 0;
    try {
      for (TableStore t : order) {
        waits.lockWrites(t);
        locked++;
      }
      boolean applyNow =
          entries.isEmpty() || waits.logAndAwait(new Mutation(entries), tables, updates);
      if (applyNow) {
        for (int i = 0; i < tables.size(); i++) {
          apply(tables.get(i), updates.get(i));
        }
      }
    } finally {
      for (int i = locked - 1; i >= 0; i--) {
        order.get(i).unlockWrites();
      }
    }
    return order;
  }

  /**
   * Every timestamp Cassandra accepts is accepted, {@code Long.MAX_VALUE} included, except {@code
   * Long.MIN_VALUE}: the storage engine (Talus's, like Cassandra's) uses it to mean "no timestamp"
   * (an empty row marker, a live deletion), so data written with it could not be told from none.
   */
  static long checkTimestamp(long ts) {
    if (ts == Long.MIN_VALUE) {
      throw new InvalidQueryException(
          "timestamp Long.MIN_VALUE ("
              + ts
              + ") is reserved: it means \"no timestamp\" in storage, so data written with it could"
              + " not be told from none. Talus differs from Cassandra here, which accepts it. Use"
              + " microseconds since the epoch (any other long is accepted)");
    }
    return ts;
  }

  /** Validation and guardrails: the update to write, or an exception that leaves nothing behind. */
  private PartitionUpdate validate(TableStore t, WriteRequest req, long ts, long now) {
    PartitionUpdate u =
        WritePlanner.plan(
            t.keys(), req, ts, now, (key, ck) -> CurrentRow.read(t, key, ck), listPaths);
    t.guardrails().checkWrite(u);
    return u;
  }

  /** {@code stored} merged with what the batch's earlier updates write at the same row. */
  private static dev.talus.data.Row withPending(
      dev.talus.data.Row stored,
      TableStore t,
      PartitionKey key,
      byte[] clustering,
      List<TableStore> tables,
      List<PartitionUpdate> planned) {
    dev.talus.data.Row r = stored;
    for (int i = 0; i < planned.size(); i++) {
      if (tables.get(i) != t || !planned.get(i).key().equals(key)) {
        continue;
      }
      for (dev.talus.data.Row p : planned.get(i).rows()) {
        if (java.util.Arrays.equals(p.clustering(), clustering)) {
          r = r == null ? p : dev.talus.data.Row.merge(r, p);
        }
      }
    }
    return r;
  }

  /** The distinct tables, by id: the order their write barriers are taken in. */
  private static List<TableStore> inIdOrder(List<TableStore> tables) {
    List<TableStore> order = new ArrayList<>(tables.size());
    for (TableStore t : tables) {
      if (!order.contains(t)) {
        order.add(t);
      }
    }
    order.sort((a, b) -> Integer.compare(a.id(), b.id()));
    return order;
  }

  private void apply(TableStore t, PartitionUpdate u) {
    budget.added(t.applyLogged(u));
  }

  /**
   * Past half the memtable space, flush the largest memtable; and now and then, if the commit log
   * outgrew its space, flush the tables that keep its oldest segment alive.
   */
  private void afterWrite() {
    if (budget.overHalf()) {
      flushes.memtablesOverHalf();
    }
    if ((writesSinceLogCheck.incrementAndGet() & 1023) == 0) {
      flushes.checkCommitLogSpace();
    }
  }
}
