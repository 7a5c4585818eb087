package dev.talus.commitlog;

import static dev.talus.commitlog.SegmentFormat.MARKER_SIZE;
import static dev.talus.commitlog.SegmentFormat.SYNC_MARKER;

import dev.talus.CommitLogSync;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit log's sync thread, {@code talus-commitlog-sync}, and the state writers wait on: it
 * runs sync passes — reserve a sync marker in each segment with unsynced data, wait (via {@link
 * WriteBarrier}) for every writer that reserved space before the marker, fsync, write the marker —
 * when the period elapsed (PERIODIC), when writers wait and the group window is over (GROUP; BATCH
 * has a zero window), or when asked. It also holds the log's failure: the first failed write, fsync
 * or segment creation stops every further marker and fsync. Thread-safe; its state is guarded by
 * one lock.
 *
 * <p>A writer that stopped waiting for its fsync (a stalled disk) leaves a <em>late</em> action:
 * the sync thread runs it after the pass that makes the record durable, and a failure (or {@link
 * #abandon}) runs it with the cause. Late records count as writers waiting, so the passes go on.
 */
final class SyncThread {
  private static final Logger LOG = LoggerFactory.getLogger(SyncThread.class);

  private final CommitLog log;
  private final CommitLogConfig config;
  private final SegmentSet segments;
  private final WriteBarrier barrier;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition wake = lock.newCondition(); // the sync thread waits here
  private final Condition progress = lock.newCondition(); // writers, sync() and close() wait here
  // Guarded by lock:
  private int waiters;
  private boolean forceRequested;
  private boolean stopRequested;
  private long passesStarted;
  private long passesCompleted;
  private final List<Late> late = new ArrayList<>();

  /** When the running pass began (the config's clock), or null: the stall indicator. */
  private volatile Instant passSince;

  /** A record whose writer stopped waiting: {@code action} runs once it is durable, or failed. */
  private record Late(Segment seg, long end, Consumer<Throwable> action) {}

  private volatile Throwable failure;
  private final LongAdder syncs = new LongAdder();
  private Thread thread;

  SyncThread(CommitLog log, CommitLogConfig config, SegmentSet segments, WriteBarrier barrier) {
    this.log = log;
    this.config = config;
    this.segments = segments;
    this.barrier = barrier;
  }

  void start() {
    thread = new Thread(this::loop, "talus-commitlog-sync");
    thread.setDaemon(true);
    thread.start();
  }

  /** The failure that stopped the log, or null. */
  Throwable failure() {
    return failure;
  }

  long syncCount() {
    return syncs.sum();
  }

  /** Records the first failure and wakes everyone; later failures are not reported again. */
  void fail(Throwable cause, String what) {
    lock.lock();
    try {
      if (failure == null) {
        failure = cause;
        LOG.error(
            "Commit log in {} failed ({}); refusing all appends until it is reopened",
            log.directory(),
            what,
            cause);
      }
      progress.signalAll();
      wake.signal();
    } finally {
      lock.unlock();
    }
    runLate(takeLate(true), failure);
  }

  /** Asks for a pass soon, whatever the mode (a roll, an explicit sync). */
  void requestSync() {
    lock.lock();
    try {
      forceRequested = true;
      wake.signal();
    } finally {
      lock.unlock();
    }
  }

  /** Forces a pass started after this call and waits for it (or for a failure). */
  void syncNow() {
    lock.lock();
    try {
      long target = passesStarted + 1;
      forceRequested = true;
      wake.signal();
      while (passesCompleted < target && failure == null) {
        progress.awaitUninterruptibly();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits at most {@code nanos} until {@code seg} is durable up to {@code end} (or the log failed);
   * returns false if the time ran out first.
   */
  boolean awaitDurable(Segment seg, long end, long nanos) {
    long left = nanos;
    lock.lock();
    try {
      waiters++;
      wake.signal();
      while (seg.durableEnd < end && failure == null) {
        if (left <= 0) {
          return false;
        }
        left = progress.awaitNanos(left);
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return seg.durableEnd >= end || failure != null;
    } finally {
      waiters--;
      lock.unlock();
    }
  }

  /**
   * Runs {@code action} once {@code seg} is durable up to {@code end} — with null, on the sync
   * thread after that pass (or at once if it already is) — or with the cause if the log fails or is
   * abandoned first.
   */
  void whenDurable(Segment seg, long end, Consumer<Throwable> action) {
    Throwable cause;
    lock.lock();
    try {
      cause = failure;
      if (cause == null && seg.durableEnd < end) {
        late.add(new Late(seg, end, action));
        wake.signal();
        return;
      }
    } finally {
      lock.unlock();
    }
    action.accept(cause);
  }

  /** Late records whose fsync has not completed yet. */
  int lateCount() {
    lock.lock();
    try {
      return late.size();
    } finally {
      lock.unlock();
    }
  }

  /** When the running sync pass began, or null if none runs. */
  Instant passSince() {
    return passSince;
  }

  /** Removes and returns the late records that are durable now (all of them if {@code all}). */
  private List<Late> takeLate(boolean all) {
    List<Late> due = new ArrayList<>();
    lock.lock();
    try {
      late.removeIf(
          l -> {
            boolean now = all || l.seg().durableEnd >= l.end();
            if (now) {
              due.add(l);
            }
            return now;
          });
    } finally {
      lock.unlock();
    }
    return due;
  }

  /** Runs late actions (outside the lock); one that throws is logged, the others still run. */
  private void runLate(List<Late> due, Throwable cause) {
    for (Late l : due) {
      try {
        l.action().accept(cause);
      } catch (RuntimeException | Error e) {
        LOG.error("Completing a write after its commit-log fsync failed", e);
      }
    }
  }

  /** After the final pass of {@link CommitLog#close}: runs what it made durable, fails the rest. */
  void closeLate(Throwable closed) {
    runLate(takeLate(false), null);
    runLate(takeLate(true), failure != null ? failure : closed);
  }

  /** Waits until {@code seg} is durable up to {@code end} (or the log failed). */
  void awaitDurable(Segment seg, long end) {
    lock.lock();
    try {
      waiters++;
      wake.signal();
      while (seg.durableEnd < end && failure == null) {
        progress.awaitUninterruptibly();
      }
    } finally {
      waiters--;
      lock.unlock();
    }
  }

  private void loop() {
    CommitLogSync mode = config.syncMode();
    long interval =
        mode == CommitLogSync.PERIODIC
            ? config.periodicInterval().toNanos()
            : mode == CommitLogSync.GROUP ? config.groupWindow().toNanos() : 0;
    long lastStart = System.nanoTime();
    lock.lock();
    try {
      while (true) {
        // Wait for a reason to sync: the period elapsed (PERIODIC), or someone is waiting and the
        // group window since the last pass is over (GROUP; BATCH has a zero window).
        while (!stopRequested) {
          boolean waiting = waiters > 0 || !late.isEmpty();
          boolean demand = forceRequested || waiting;
          long due = lastStart + interval - System.nanoTime();
          // An explicit sync(), a roll or close goes at once; waiting writers respect the window.
          if (forceRequested || (mode == CommitLogSync.PERIODIC ? due <= 0 : waiting && due <= 0)) {
            break;
          }
          if (mode != CommitLogSync.PERIODIC && !demand) {
            wake.awaitUninterruptibly();
          } else {
            try {
              wake.awaitNanos(due);
            } catch (InterruptedException e) {
              stopRequested = true;
            }
          }
        }
        if (stopRequested) {
          return;
        }
        forceRequested = false;
        passesStarted++;
        lastStart = System.nanoTime();
        lock.unlock();
        try {
          pass(false);
        } finally {
          lock.lock();
        }
        passesCompleted++;
        progress.signalAll();
        lock.unlock();
        try {
          runLate(takeLate(false), null);
          log.prepareSpare();
        } finally {
          lock.lock();
        }
      }
    } catch (RuntimeException | Error e) {
      fail(e, "the commit log sync thread died");
      throw e;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Writes a sync marker into each segment with unsynced records and fsyncs it; seals segments that
   * take no more records. Sync thread only (or close, after that thread stopped).
   */
  void pass(boolean closing) {
    if (failure != null) {
      return;
    }
    passSince = log.clock().instant();
    try {
      passFsyncs(closing);
    } finally {
      passSince = null;
    }
  }

  private void passFsyncs(boolean closing) {
    List<Segment> targets = segments.unsealed();
    if (closing) {
      log.active().closeForRecords();
    }
    int n = targets.size();
    long[] markerAt = new long[n];
    boolean[] sealing = new boolean[n];
    for (int i = 0; i < n; i++) {
      Segment s = targets.get(i);
      sealing[i] = s.closedForRecords(); // read before reserving: no record can follow the marker
      markerAt[i] = s.end() > s.markedEnd ? s.reserveMarker() : -1;
    }
    barrier.awaitPrior();
    if (failure != null) {
      return; // a writer failed: a marker now could vouch for a hole
    }
    boolean synced = false;
    for (int i = 0; i < n; i++) {
      Segment s = targets.get(i);
      try {
        if (markerAt[i] >= 0) {
          // fsync first, marker after: a marker that reaches the disk then proves the bytes before
          // it did too, whatever order a power loss persists the blocks of one fsync in. The
          // marker itself becomes durable with the next fsync (or the second one when sealing).
          long m = markerAt[i];
          s.file.sync();
          synced = true;
          s.durableEnd = m;
          s.file.write(SegmentFormat.marker(SYNC_MARKER, 0, s.id, m), m);
          s.markedEnd = m + MARKER_SIZE;
        }
        if (sealing[i]) {
          s.file.sync(); // the final marker, or an earlier one still unsynced
          s.file.close();
          s.sealed = true;
        }
      } catch (IOException e) {
        fail(e, "commit log sync of " + s.path + " failed");
        return;
      }
    }
    if (synced) {
      syncs.increment();
    }
  }

  /**
   * Stops the thread as a crash would: no final pass; waiting writers fail with {@code
   * abandonedCause} unless the log had failed already.
   */
  void abandon(Throwable abandonedCause) {
    lock.lock();
    try {
      if (failure == null) {
        failure = abandonedCause;
      }
      stopRequested = true;
      wake.signal();
      progress.signalAll();
    } finally {
      lock.unlock();
    }
    join();
    runLate(takeLate(true), failure);
  }

  /**
   * Stops the thread once no append is in flight (passes run meanwhile so that waiting appends
   * complete); the caller runs the final pass.
   */
  void stopAfter(java.util.concurrent.atomic.AtomicInteger inFlight) {
    lock.lock();
    try {
      while (inFlight.get() > 0 && thread != null && thread.isAlive()) {
        forceRequested = true;
        wake.signal();
        try {
          progress.awaitNanos(1_000_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      stopRequested = true;
      wake.signal();
    } finally {
      lock.unlock();
    }
    join();
  }

  private void join() {
    if (thread == null) {
      return;
    }
    boolean interrupted = false;
    while (thread.isAlive()) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
