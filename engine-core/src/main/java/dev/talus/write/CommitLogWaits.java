package dev.talus.write;

import dev.talus.CommitLogSync;
import dev.talus.WriteRejectedException;
import dev.talus.WriteTimeoutException;
import dev.talus.commitlog.Appended;
import dev.talus.commitlog.CommitLog;
import dev.talus.commitlog.CommitLogFailedException;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionUpdate;
import dev.talus.runtime.DbContext;
import dev.talus.table.TableStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every wait of the write path that a stalling disk can make long, bounded by {@code
 * TalusOptions.writeTimeout}: the table's write barrier (a flush may hold it while it waits for
 * pending writes), the partition locks and pending writes that counter and conditional writes wait
 * for, and — in GROUP and BATCH — the fsync of the write's own record.
 *
 * <p>A write that gives up before its record is written throws {@link WriteTimeoutException} with
 * {@code logged() == false}: nothing was written. One that gives up waiting for its record's fsync
 * cannot take the record back; it hands the record to the commit log ({@link
 * CommitLog#whenDurable}) with its updates, registered as pending in each table, and throws with
 * {@code logged() == true}. When the fsync completes the updates are applied, all together, on the
 * log's sync thread; if it fails, never (the database stops, and a reopen replays what the disk
 * kept, all of the record or none). While a write is pending, a flush of its table waits for it
 * (see {@code Flusher}), so a memtable switch never passes a record whose update is not in the
 * memtable — the replay bound stays exact — and the pending update is applied without the write
 * barrier. Thread-safe.
 */
final class CommitLogWaits {
  private static final Logger LOG = LoggerFactory.getLogger(CommitLogWaits.class);

  private final DbContext ctx;
  private final CommitLog log;
  private final MemtableBudget budget;
  private final Duration timeout;

  CommitLogWaits(DbContext ctx, CommitLog log, MemtableBudget budget) {
    this.ctx = ctx;
    this.log = log;
    this.budget = budget;
    this.timeout = ctx.options().writeTimeout();
  }

  /** Takes the write barrier of {@code t}, waiting at most the write timeout. */
  void lockWrites(TableStore t) {
    if (!t.tryLockWrites(timeout.toNanos())) {
      throw notLogged("the write barrier of table " + t.schema().name());
    }
  }

  /** Takes {@code lock}, waiting at most the write timeout; {@code what} names it. */
  void lock(ReentrantLock lock, String what) {
    try {
      if (lock.tryLock(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
        return;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    throw notLogged(what);
  }

  /**
   * Before a write that reads the partition's current value (a counter or conditional write): waits
   * until no write to it is pending, at most the write timeout.
   */
  void awaitNoPending(TableStore t, PartitionKey key) {
    if (!t.pendingWrites().awaitClear(key.token(), timeout.toNanos())) {
      throw notLogged(
          "an earlier write to the same partition of table "
              + t.schema().name()
              + " that waits for its commit-log fsync");
    }
  }

  /**
   * Appends {@code mutation} and waits as the sync mode says. Returns true if the caller is to
   * apply {@code updates} (to {@code tables}, index for index) now, false if they were applied
   * already (durable just after the wait ended). If the fsync does not complete within the write
   * timeout, hands the updates over to be applied when it does, and throws.
   *
   * @throws WriteTimeoutException (logged) after handing the updates over
   */
  boolean logAndAwait(Mutation mutation, List<TableStore> tables, List<PartitionUpdate> updates) {
    Appended a;
    try {
      a = log.appendAsync(mutation, mutation.tableIds());
    } catch (IllegalArgumentException e) {
      throw new WriteRejectedException(
          "a write of "
              + mutation.size()
              + " bytes is larger than the commit log accepts ("
              + log.config().maxMutationSize()
              + " bytes, half a segment); nothing was written. Split it or raise"
              + " commitLogSegmentBytes");
    } catch (CommitLogFailedException e) {
      // fail-stop: this write was not acknowledged, and nothing else is written until a reopen
      throw ctx.stop("the commit log", e);
    } catch (IllegalStateException e) {
      ctx.checkOpen();
      throw e;
    }
    if (log.config().syncMode() == CommitLogSync.PERIODIC) {
      a.release();
      return true;
    }
    boolean durable;
    try {
      durable = log.awaitDurable(a, timeout);
    } catch (CommitLogFailedException e) {
      a.release();
      throw ctx.stop("the commit log", e);
    }
    if (durable) {
      a.release();
      return true;
    }
    for (int i = 0; i < tables.size(); i++) {
      tables.get(i).pendingWrites().add(updates.get(i).key().token());
    }
    AtomicBoolean appliedNow = new AtomicBoolean();
    log.whenDurable(
        a,
        cause -> {
          try {
            if (cause == null) {
              for (int i = 0; i < tables.size(); i++) {
                budget.added(tables.get(i).applyLogged(updates.get(i)));
              }
              appliedNow.set(true);
            } else {
              LOG.warn(
                  "A write that timed out waiting for its commit-log fsync is not applied: {}",
                  cause.toString());
            }
          } finally {
            for (int i = 0; i < tables.size(); i++) {
              tables.get(i).pendingWrites().remove(updates.get(i).key().token());
            }
          }
        });
    if (appliedNow.get()) {
      return false; // durable just after the wait ended, and applied: acknowledged after all
    }
    throw new WriteTimeoutException(
        "write not acknowledged within "
            + timeout
            + ": its commit-log record is written but the fsync that makes it durable ("
            + log.config().syncMode()
            + ") did not complete"
            + runningSince()
            + " — the disk may be stalled. The write will be applied, as a whole, once that fsync"
            + " completes (or not at all if it fails, which stops the database); until then reads"
            + " do not see it. Retry only if the write is idempotent",
        true);
  }

  private WriteTimeoutException notLogged(String what) {
    return new WriteTimeoutException(
        "write timed out after "
            + timeout
            + " waiting for "
            + what
            + runningSince()
            + "; nothing was written, retry later",
        false);
  }

  /** ", the commit log's sync running since …", or "" if none runs. */
  private String runningSince() {
    Instant since = log.stats().syncRunningSince();
    return since == null ? "" : " (the commit log's sync has been running since " + since + ")";
  }
}
