package dev.talus.write;

import dev.talus.TalusOptions;
import dev.talus.WriteRejectedException;
import dev.talus.runtime.DbContext;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The engine-wide memtable space (design decision 8): writes reserve room before they are logged,
 * memtables report the bytes a write added and a flush the bytes it freed. Past half the space the
 * write path asks for a flush; at the limit writers wait, then are refused — never an
 * OutOfMemoryError. Thread-safe.
 */
public final class MemtableBudget {
  private final DbContext ctx;
  private final FlushTrigger flushes;
  private final long limit;
  private final AtomicLong used = new AtomicLong();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition freed = lock.newCondition();

  public MemtableBudget(DbContext ctx, FlushTrigger flushes) {
    this.ctx = ctx;
    this.flushes = flushes;
    this.limit = ctx.options().memtableSpaceBytes();
  }

  /** Bytes in memtables, taking writes and being flushed. */
  public long used() {
    return used.get();
  }

  /** Whether memtables fill more than half the space (a flush is due). */
  boolean overHalf() {
    return used.get() > limit / 2;
  }

  /**
   * Blocks a writer while memtables (taking writes and being flushed) fill the memtable space, so
   * memory never grows without bound; gives up with {@link WriteRejectedException} after the
   * configured stall timeout.
   */
  void reserve(long bytes) {
    TalusOptions options = ctx.options();
    if (bytes > limit / 2) {
      throw new WriteRejectedException(
          "a write of ~"
              + bytes
              + " bytes is larger than half the memtable space ("
              + limit
              + " bytes); split it or raise memtableSpaceBytes");
    }
    if (used.get() + bytes <= limit) {
      return;
    }
    long left = options.writeStallTimeout().toNanos();
    lock.lock();
    try {
      while (used.get() + bytes > limit) {
        ctx.checkOpen();
        flushes.flushLargest();
        if (left <= 0) {
          String reason = flushes.stallReason();
          throw new WriteRejectedException(
              "memtable space ("
                  + limit
                  + " bytes) stayed full for "
                  + options.writeStallTimeout()
                  + ": "
                  + (reason.isEmpty() ? "flushes are not keeping up" : reason)
                  + ". Nothing was written; retry later");
        }
        // awaitNanos returns what is left of the wait, so no wall-clock reads are needed
        long slice = Math.min(left, 100_000_000L);
        left -= slice - Math.max(0, freed.awaitNanos(slice));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new WriteRejectedException("interrupted while waiting for memtable space");
    } finally {
      lock.unlock();
    }
  }

  /** A memtable grew by {@code bytes} (a write, or a replayed record). */
  public void added(long bytes) {
    used.addAndGet(bytes);
  }

  /** A flush freed {@code bytes}; writers waiting for space try again. */
  public void freed(long bytes) {
    used.addAndGet(-bytes);
    lock.lock();
    try {
      freed.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
