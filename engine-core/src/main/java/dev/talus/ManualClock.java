package dev.talus;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that only moves when told to, for tests: TTL expiry, gc_grace and compaction windows
 * become exact to the second and nothing sleeps. Thread-safe.
 */
public final class ManualClock implements InstantSource {
  private final AtomicReference<Instant> now;

  public ManualClock(Instant start) {
    this.now = new AtomicReference<>(Objects.requireNonNull(start, "start"));
  }

  /** A clock at 2026-01-01T00:00:00Z. */
  public static ManualClock startingAtDefault() {
    return new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  /** Moves the clock forward by {@code d} (must not be negative) and returns the new time. */
  public Instant advance(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("a clock only moves forward; got " + d);
    }
    return now.updateAndGet(t -> t.plus(d));
  }

  /** Sets the time; tests of out-of-order writes may move it backwards. */
  public void set(Instant t) {
    now.set(Objects.requireNonNull(t, "t"));
  }

  @Override
  public String toString() {
    return "ManualClock{" + now.get() + "}";
  }
}
