package dev.talus.table;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The writes of one table whose commit-log record is written but not yet applied, because their
 * writer stopped waiting for its fsync (a stalled disk, {@code TalusOptions.writeTimeout}): they
 * are applied when the fsync completes. Until then a flush of the table waits for them (a memtable
 * switch must not pass a record whose update is not in the memtable), and a counter or conditional
 * write to the same partition waits too (it reads the current value first). Counted by partition
 * token. Thread-safe.
 */
public final class PendingWrites {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final Map<Long, Integer> byToken = new HashMap<>();
  private int total;

  /** A write to the partition with this token is pending. */
  public void add(long token) {
    lock.lock();
    try {
      byToken.merge(token, 1, Integer::sum);
      total++;
    } finally {
      lock.unlock();
    }
  }

  /** A pending write to the partition with this token was applied (or will never be). */
  public void remove(long token) {
    lock.lock();
    try {
      if (byToken.merge(token, -1, Integer::sum) <= 0) {
        byToken.remove(token);
      }
      total--;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Pending writes now. */
  public int count() {
    lock.lock();
    try {
      return total;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits at most {@code nanos} until no write to the partition with this token is pending; returns
   * false if the time ran out first.
   */
  public boolean awaitClear(long token, long nanos) {
    long left = nanos;
    lock.lock();
    try {
      while (byToken.containsKey(token)) {
        if (left <= 0) {
          return false;
        }
        left = changed.awaitNanos(left);
      }
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !byToken.containsKey(token);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until no write of the table is pending. Each is resolved by its fsync, a failure of the
   * commit log, or its close, so this ends unless the disk never answers (as a flush would hang).
   */
  void awaitNone() {
    lock.lock();
    try {
      while (total > 0) {
        changed.awaitUninterruptibly();
      }
    } finally {
      lock.unlock();
    }
  }
}
