package dev.talus.db;

import dev.talus.DiskFullStats;
import dev.talus.runtime.DbContext;
import dev.talus.table.TableStore;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flushes and background compactions that failed because the disk was full ("No space left on
 * device" from a write or an fsync of their own files), retried by themselves. A flush that fails
 * so keeps its memtable (it serves reads) and a compaction its inputs; both delete their partial
 * files. A background index build that fails so keeps its index building and goes on, from the
 * SSTable it failed on, in the next round. The first such failure starts an <em>episode</em>:
 * logged once at WARN, counted, and from then on every failed table is retried on one daemon thread
 * with a backoff — the first retry after a tenth of {@code writeStallTimeout} (at least 1 ms, at
 * most 1 s), doubling up to {@code writeStallTimeout} (at most 30 s) — so that writers waiting for
 * memtable space see retries before they give up. Meanwhile the memtable-driven and
 * commit-log-driven background flushes and background compactions are not queued (they would only
 * fail again); a round of retries in which every one succeeded ends the episode (logged at INFO)
 * and queues them again.
 *
 * <p>Not retried: anything after a fail-stop (a failed commit-log or manifest fsync stops the
 * instance until it is reopened), any other I/O error, and compactions a user called while
 * background compaction is off (the caller has the exception). Thread-safe.
 */
final class DiskFullRetries {
  private static final Logger LOG = LoggerFactory.getLogger(DiskFullRetries.class);
  private static final String ENOSPC = "No space left on device";

  private final DbContext ctx;
  private final ScheduledThreadPoolExecutor timer;
  private final Consumer<TableStore> compactionQueue;
  private final long firstDelayNanos;
  private final long maxDelayNanos;
  // Guarded by "this".
  private final Set<TableStore> flushes = new LinkedHashSet<>();
  private final Set<TableStore> compactions = new LinkedHashSet<>();
  private final List<Runnable> indexBuilds = new ArrayList<>();
  private boolean active;
  private boolean scheduled;
  private int attempt;
  private long episodes;
  private long failures;
  private long retries;
  private String lastFailure = "";

  /** {@code compactionQueue} queues a background compaction round once an episode is over. */
  DiskFullRetries(DbContext ctx, String threadName, Consumer<TableStore> compactionQueue) {
    this.ctx = ctx;
    this.compactionQueue = compactionQueue;
    this.timer =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, threadName);
              t.setDaemon(true);
              return t;
            });
    // at close a waiting retry is dropped at once (the next open replays the commit log)
    timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    Duration stall = ctx.options().writeStallTimeout();
    this.firstDelayNanos = clamp(stall.toNanos() / 10, 1_000_000L, 1_000_000_000L);
    this.maxDelayNanos = clamp(stall.toNanos(), firstDelayNanos, 30_000_000_000L);
  }

  private static long clamp(long v, long min, long max) {
    return Math.max(min, Math.min(max, v));
  }

  /** True if {@code e} or one of its causes is the file layer's "No space left on device". */
  static boolean isDiskFull(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IOException && t.getMessage() != null && t.getMessage().contains(ENOSPC)) {
        return true;
      }
    }
    return false;
  }

  /** While true, background flushes and compactions are left to the retries. */
  synchronized boolean active() {
    return active;
  }

  /** Why writers may be waiting, for their rejection message; empty outside an episode. */
  synchronized String stallReason() {
    if (!active) {
      return "";
    }
    return "flushes are failing because the disk is full ("
        + lastFailure
        + "); they are retried by themselves and writes are taken again once space is freed";
  }

  /**
   * A flush ({@code compaction} false) or a compaction of {@code t} failed with {@code cause}: if
   * the disk was full, the table is retried later. Never throws.
   */
  void failed(TableStore t, boolean compaction, String what, IOException cause) {
    if (!isDiskFull(cause) || ctx.isStopped() || ctx.isClosed()) {
      return;
    }
    if (compaction && !ctx.options().backgroundCompaction()) {
      return;
    }
    synchronized (this) {
      (compaction ? compactions : flushes).add(t);
      failedOnce(what + " in " + t.directory() + ": " + cause.getMessage());
    }
  }

  /**
   * A background index build failed with {@code cause} writing a component: if the disk was full,
   * {@code retry} runs in the next round, on the retry thread (it reports a new failure itself, by
   * calling this again, and its index stays building meanwhile). Never throws.
   */
  void failedIndexBuild(String what, IOException cause, Runnable retry) {
    if (!isDiskFull(cause) || ctx.isStopped() || ctx.isClosed()) {
      return;
    }
    synchronized (this) {
      indexBuilds.add(retry);
      failedOnce(what + ": " + cause.getMessage());
    }
  }

  /** Counts a failure, starting an episode if none is on, and schedules the next round. */
  private void failedOnce(String failure) {
    assert Thread.holdsLock(this);
    failures++;
    lastFailure = failure;
    if (!active) {
      active = true;
      episodes++;
      attempt = 0;
      LOG.warn(
          "The disk under {} is full ({}); flushes and compactions are retried by themselves"
              + " until space is freed, writes wait for memtable space meanwhile",
          ctx.directory(),
          lastFailure);
      ctx.metrics().diskFull(ctx.directory().toString(), true, lastFailure);
    }
    if (!scheduled) {
      long delay = Math.min(maxDelayNanos, firstDelayNanos << Math.min(attempt, 30));
      attempt++;
      try {
        timer.schedule(this::retry, delay, TimeUnit.NANOSECONDS);
        scheduled = true;
      } catch (RejectedExecutionException e) {
        // closing: the next open flushes from the commit log
      }
    }
  }

  /**
   * One round: every table waiting is flushed or compacted again, every index build waiting goes
   * on; failures report themselves.
   */
  private void retry() {
    List<TableStore> flush;
    List<TableStore> compact;
    List<Runnable> builds;
    synchronized (this) {
      scheduled = false;
      retries++;
      flush = new ArrayList<>(flushes);
      compact = new ArrayList<>(compactions);
      builds = new ArrayList<>(indexBuilds);
      flushes.clear();
      compactions.clear();
      indexBuilds.clear();
    }
    for (TableStore t : flush) {
      run(() -> t.flush(), t, "flush");
    }
    for (TableStore t : compact) {
      run(() -> t.compactions().runNextBackground(), t, "compaction");
    }
    for (Runnable build : builds) {
      if (!ctx.isClosed() && !ctx.isStopped()) {
        build.run(); // reports its own failures
      }
    }
    boolean ended;
    long rounds;
    synchronized (this) {
      ended =
          active
              && !scheduled
              && flushes.isEmpty()
              && compactions.isEmpty()
              && indexBuilds.isEmpty();
      rounds = attempt;
      if (ended) {
        active = false;
      }
    }
    if (ended) {
      LOG.info(
          "Disk space under {} is back: flushes and compactions went through after {} retries",
          ctx.directory(),
          rounds);
      ctx.metrics().diskFull(ctx.directory().toString(), false, "");
      for (TableStore t : flush) {
        compactionQueue.accept(t); // their flushes may have made a compaction due
      }
      for (TableStore t : compact) {
        compactionQueue.accept(t);
      }
    }
  }

  private void run(Runnable job, TableStore t, String what) {
    if (ctx.isClosed() || ctx.isStopped() || t.retired()) {
      return;
    }
    try {
      job.run();
    } catch (RuntimeException e) {
      if (!isDiskFull(e) && !ctx.isClosed()) {
        LOG.error("Retried {} of table {} failed", what, t.schema().name(), e);
      }
    }
  }

  synchronized DiskFullStats stats() {
    return new DiskFullStats(active, episodes, failures, retries, lastFailure);
  }

  /** Stops the retries: a queued one is dropped, a running one finishes. */
  void stop() {
    timer.shutdown();
    try {
      timer.awaitTermination(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
