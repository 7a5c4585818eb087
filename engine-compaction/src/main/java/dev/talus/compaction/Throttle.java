package dev.talus.compaction;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Limits compaction I/O to a rate in MiB/s (Cassandra's {@code compaction_throughput}); 0 means
 * unlimited. One throttle may be shared by every compaction of a database so the limit is global,
 * and its rate may be changed while compactions run.
 *
 * <p>Each {@link #acquire} reserves its bytes at the end of the schedule and parks the calling
 * thread until the previous reservations are paid for, so the long-run rate never exceeds the limit
 * while a single large request is never starved. Waiting uses {@link System#nanoTime()} and {@link
 * LockSupport#parkNanos} (no sleeping, no wall clock); this is pacing, not logic, so it does not
 * read the engine clock.
 *
 * <p>Thread-safe.
 */
public final class Throttle {
  /** Parks the current thread for up to the given nanoseconds (may return early). */
  @FunctionalInterface
  interface Parker {
    void park(long nanos);
  }

  private static final double MIB = 1024.0 * 1024.0;

  private final LongSupplier nanoClock;
  private final Parker parker;
  private double nanosPerByte;
  private long nextFree = Long.MIN_VALUE;

  Throttle(double mibPerSecond, LongSupplier nanoClock, Parker parker) {
    this.nanoClock = nanoClock;
    this.parker = parker;
    setRate(mibPerSecond);
  }

  /** A throttle at {@code mibPerSecond} MiB/s; 0 is unlimited. */
  public static Throttle ofMibPerSecond(double mibPerSecond) {
    return new Throttle(mibPerSecond, System::nanoTime, LockSupport::parkNanos);
  }

  /** A throttle that never waits. */
  public static Throttle unlimited() {
    return ofMibPerSecond(0);
  }

  /** Changes the rate for every later {@link #acquire}; 0 is unlimited. */
  public synchronized void setRate(double mibPerSecond) {
    if (!(mibPerSecond >= 0) || Double.isInfinite(mibPerSecond)) {
      throw new IllegalArgumentException(
          "throttle rate must be a finite number of MiB/s >= 0 (0 = unlimited), got "
              + mibPerSecond);
    }
    nanosPerByte = mibPerSecond == 0 ? 0 : 1e9 / (mibPerSecond * MIB);
  }

  /** The rate in MiB/s, 0 if unlimited. */
  public synchronized double rate() {
    return nanosPerByte == 0 ? 0 : 1e9 / (nanosPerByte * MIB);
  }

  /**
   * Accounts for {@code bytes} of I/O, waiting as long as the rate requires.
   *
   * @throws CompactionInterruptedException if the thread is interrupted while waiting (the
   *     interrupt flag stays set)
   */
  public void acquire(long bytes) {
    if (bytes <= 0) {
      return;
    }
    long waitUntil;
    synchronized (this) {
      if (nanosPerByte == 0) {
        return;
      }
      long now = nanoClock.getAsLong();
      // Idle time is not banked: a throttle unused for a minute does not allow a minute's burst.
      long start = nextFree == Long.MIN_VALUE || nextFree - now < 0 ? now : nextFree;
      waitUntil = start;
      nextFree = start + (long) Math.min(Long.MAX_VALUE / 4, bytes * nanosPerByte);
    }
    while (true) {
      long remaining = waitUntil - nanoClock.getAsLong();
      if (remaining <= 0) {
        return;
      }
      if (Thread.currentThread().isInterrupted()) {
        throw new CompactionInterruptedException("interrupted while throttled");
      }
      parker.park(remaining);
    }
  }

  @Override
  public String toString() {
    double r = rate();
    return r == 0 ? "Throttle{unlimited}" : "Throttle{" + r + " MiB/s}";
  }
}
