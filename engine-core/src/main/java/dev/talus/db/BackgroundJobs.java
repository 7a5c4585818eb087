package dev.talus.db;

import dev.talus.TalusOptions;
import dev.talus.commitlog.CommitLog;
import dev.talus.runtime.DbContext;
import dev.talus.table.TableStore;
import dev.talus.write.FlushTrigger;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The threads of one database and the work queued on them: background flushes (one queued per table
 * at most), background compaction rounds (one queued per table at most), the retries of flushes and
 * compactions a full disk failed ({@link DiskFullRetries}), the builds of indexes created on tables
 * with data or found incomplete at open (one thread, in order; {@link IndexBuildJob}), and the read
 * threads of multi-partition reads. Threads are daemons named after the database and their job;
 * {@link Database#close()} stops them. Thread-safe.
 */
final class BackgroundJobs implements FlushTrigger {
  private static final Logger LOG = LoggerFactory.getLogger(BackgroundJobs.class);

  private final DbContext ctx;
  private final Database db;
  private final ExecutorService readExecutor;
  private final ExecutorService flushExecutor;
  private final ExecutorService compactionExecutor;
  private final ExecutorService indexBuildExecutor;
  private final Set<TableStore> compactionQueued = ConcurrentHashMap.newKeySet();
  private final DiskFullRetries diskFull;
  private final CompactionWakeUps wakeUps;

  BackgroundJobs(DbContext ctx, Database db) {
    this.ctx = ctx;
    this.db = db;
    TalusOptions options = ctx.options();
    String name =
        ctx.directory().getFileName() == null ? "db" : ctx.directory().getFileName().toString();
    this.readExecutor =
        Executors.newFixedThreadPool(options.readThreads(), threads("talus-" + name + "-read-"));
    this.flushExecutor = Executors.newSingleThreadExecutor(threads("talus-" + name + "-flush-"));
    this.compactionExecutor =
        Executors.newFixedThreadPool(
            options.compactionThreads(), threads("talus-" + name + "-compaction-"));
    this.indexBuildExecutor =
        Executors.newSingleThreadExecutor(threads("talus-" + name + "-index-build-"));
    this.diskFull = new DiskFullRetries(ctx, "talus-" + name + "-retry", this::scheduleCompaction);
    this.wakeUps =
        new CompactionWakeUps("talus-" + name + "-compaction-retry", this::scheduleCompaction);
  }

  /** Flushes and compactions that failed on a full disk, retried by themselves. */
  DiskFullRetries diskFull() {
    return diskFull;
  }

  @Override
  public String stallReason() {
    return diskFull.stallReason();
  }

  /** Daemon threads named after their database and job, numbered from 1. */
  private static ThreadFactory threads(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /** The threads that read the partitions of a multi-partition read in parallel. */
  ExecutorService readThreads() {
    return readExecutor;
  }

  /** Queues a background index build (see {@link IndexBuildJob}); dropped once closing. */
  void scheduleIndexBuild(Runnable build) {
    try {
      indexBuildExecutor.execute(build);
    } catch (RejectedExecutionException e) {
      // closing: the build stays unfinished and the next open resumes it
    }
  }

  /**
   * Queues one background compaction round for {@code t} (at most one queued per table), unless its
   * compactions are backing off after a failure ({@link dev.talus.table.CompactionFailures}): then
   * a wake-up queues it once the database clock has reached the retry time.
   */
  void scheduleCompaction(TableStore t) {
    if (ctx.isClosed()
        || ctx.isStopped()
        || !ctx.options().backgroundCompaction()
        || ctx.compactionsPaused()
        || diskFull.active() // the retries compact the tables that failed
        || backingOff(t)) {
      return;
    }
    if (!compactionQueued.add(t)) {
      return;
    }
    try {
      compactionExecutor.execute(
          () -> {
            compactionQueued.remove(t);
            if (backingOff(t)) { // it failed after this round was queued
              return;
            }
            try {
              t.compactions().runNextBackground();
            } catch (RuntimeException e) {
              if (!ctx.isClosed()
                  && !ctx.isStopped() // the stop is logged once, with its cause
                  && !DiskFullRetries.isDiskFull(e) // a full disk: logged once per episode
                  && !t.compactions().failures().isRecorded(e)) { // logged once per episode
                LOG.error("Background compaction of table {} failed", t.schema().name(), e);
              }
            }
          });
    } catch (RejectedExecutionException e) {
      compactionQueued.remove(t);
    }
  }

  /** True if {@code t}'s compactions back off now; then its wake-up is armed. */
  private boolean backingOff(TableStore t) {
    java.time.Duration wait = t.compactions().failures().waitAt(ctx.clock().instant());
    if (wait.isZero()) {
      return false;
    }
    wakeUps.wakeUp(t, wait);
    return true;
  }

  /** Queues a background flush of {@code t} (at most one queued per table). */
  void scheduleFlush(TableStore t) {
    if (ctx.isClosed()
        || ctx.isStopped()
        || diskFull.active() // the retries flush the tables that failed
        || !t.flushQueued().compareAndSet(false, true)) {
      return;
    }
    try {
      flushExecutor.execute(
          () -> {
            t.flushQueued().set(false);
            try {
              t.flush();
            } catch (RuntimeException e) {
              if (!DiskFullRetries.isDiskFull(e)) { // a full disk is logged once per episode
                LOG.error("Background flush of table {} failed", t.schema().name(), e);
              }
            }
          });
    } catch (RejectedExecutionException e) {
      t.flushQueued().set(false);
    }
  }

  @Override
  public void flushLargest() {
    TableStore largest = null;
    long max = 0;
    for (TableStore t : db.stores()) {
      long b = t.activeMemtableBytes();
      if (b > max) {
        max = b;
        largest = t;
      }
    }
    if (largest != null) {
      scheduleFlush(largest);
    }
  }

  @Override
  public void memtablesOverHalf() {
    long active = 0;
    for (TableStore t : db.stores()) {
      active += t.activeMemtableBytes();
    }
    if (active > ctx.options().memtableSpaceBytes() / 2) {
      flushLargest();
    }
  }

  @Override
  public void checkCommitLogSpace() {
    CommitLog log = db.commitLog();
    if (log.totalBytes() <= ctx.options().commitLogTotalSpaceBytes()) {
      return;
    }
    for (int id : log.tablesHoldingOldestSegment()) {
      TableStore t = db.store(id);
      if (t != null) {
        scheduleFlush(t);
      } else if (!db.isSetAside(id)) {
        log.markFlushed(id, log.currentPosition()); // a table that no longer exists
      }
    }
  }

  /**
   * Stops flushes and compactions: queued work is dropped, running work finishes (compactions
   * cancel at their next partition boundary once the context is closed). Never interrupts: an
   * interrupt would close file channels that readers share. An interrupt of the caller ends the
   * wait it hit, or with {@code giveUpOnInterrupt} every wait (a simulated crash).
   */
  void stopFlushesAndCompactions(boolean giveUpOnInterrupt) {
    diskFull.stop();
    wakeUps.stop();
    compactionExecutor.shutdown();
    indexBuildExecutor.shutdown();
    flushExecutor.shutdown();
    try {
      compactionExecutor.awaitTermination(60, TimeUnit.SECONDS);
      indexBuildExecutor.awaitTermination(60, TimeUnit.SECONDS);
      if (giveUpOnInterrupt) {
        flushExecutor.awaitTermination(60, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!giveUpOnInterrupt) {
      try {
        flushExecutor.awaitTermination(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Stops the read threads; with {@code await}, waits for reads in flight. */
  void stopReads(boolean await) {
    readExecutor.shutdown();
    if (!await) {
      return;
    }
    try {
      readExecutor.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
