package dev.talus.commitlog;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Lets the sync thread wait for every writer that reserved space before a given moment, without a
 * lock on the append path (a two-phase variant of Cassandra's {@code OpOrder}). A writer {@link
 * #enter enters} the current phase before reserving space and {@link #exit exits} after its write
 * returned; {@link #awaitPrior} starts a new phase and waits until the old one is empty. A writer
 * that reserved before the sync thread reserved its marker had entered (and re-checked) a phase
 * that was current before the swap, so it is waited for. Thread-safe.
 */
final class WriteBarrier {
  static final class Phase {
    private final AtomicInteger active = new AtomicInteger();
  }

  private volatile Phase phase = new Phase();

  Phase enter() {
    while (true) {
      Phase p = phase;
      p.active.incrementAndGet();
      if (phase == p) {
        return p;
      }
      p.active.decrementAndGet(); // raced with a swap: join the new phase instead
    }
  }

  void exit(Phase p) {
    p.active.decrementAndGet();
  }

  /** Waits for every writer that entered before this call; writers are short, so spin then park. */
  void awaitPrior() {
    Phase old = phase;
    phase = new Phase();
    int spins = 0;
    while (old.active.get() != 0) {
      if (++spins < 200) {
        Thread.onSpinWait();
      } else {
        LockSupport.parkNanos(20_000);
      }
    }
  }
}
