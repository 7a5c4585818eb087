package dev.talus.db;

import dev.talus.table.TableStore;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Wake-ups of tables whose background compactions back off after a failure: one armed per table at
 * most, on one daemon thread, each asking for the table's compaction again after the wait. The wait
 * is measured on the database clock while the wake-up sleeps in real time, so a wake-up that finds
 * the retry still ahead (a clock that moved less, e.g. a manual one) arms the next; never sooner
 * than {@link #MIN_SLEEP}, so a clock that stands still just before the retry time costs one check
 * per interval, not a spin. Thread-safe.
 */
final class CompactionWakeUps {
  /** The shortest sleep between two checks of one table. */
  static final Duration MIN_SLEEP = Duration.ofMillis(100);

  private final ScheduledThreadPoolExecutor timer;
  private final Consumer<TableStore> schedule;
  private final Set<TableStore> armed = ConcurrentHashMap.newKeySet();

  /** {@code schedule} asks for a background compaction of a table (it checks the backoff again). */
  CompactionWakeUps(String threadName, Consumer<TableStore> schedule) {
    this.schedule = schedule;
    this.timer =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, threadName);
              t.setDaemon(true);
              return t;
            });
    timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false); // dropped at close
    timer.setRemoveOnCancelPolicy(true);
  }

  /**
   * Asks for {@code t}'s compaction again after {@code wait}, unless a wake-up is armed already.
   */
  void wakeUp(TableStore t, Duration wait) {
    if (!armed.add(t)) {
      return;
    }
    long nanos = Math.max(MIN_SLEEP.toNanos(), wait.toNanos());
    try {
      timer.schedule(
          () -> {
            armed.remove(t);
            schedule.accept(t);
          },
          nanos,
          TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      armed.remove(t); // closing
    }
  }

  /** Drops the armed wake-ups and stops the thread. */
  void stop() {
    timer.shutdown();
    try {
      timer.awaitTermination(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
