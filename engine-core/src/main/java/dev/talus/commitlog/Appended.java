package dev.talus.commitlog;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A record written to the commit log ({@link CommitLog#appendAsync}) and not yet released: its
 * position, and where it ends in its segment (what must be durable for it to be). Until {@link
 * #release} it counts as an append in flight, which {@link CommitLog#close} waits for. Thread-safe.
 */
public final class Appended {
  private final CommitLogPosition position;
  private final Segment segment;
  private final long end;
  private final AtomicInteger inFlight;
  private final AtomicBoolean released = new AtomicBoolean();

  Appended(CommitLogPosition position, Segment segment, long end, AtomicInteger inFlight) {
    this.position = position;
    this.segment = segment;
    this.end = end;
    this.inFlight = inFlight;
  }

  public CommitLogPosition position() {
    return position;
  }

  Segment segment() {
    return segment;
  }

  long end() {
    return end;
  }

  /** Ends the append: {@link CommitLog#close} no longer waits for it. Idempotent. */
  public void release() {
    if (released.compareAndSet(false, true)) {
      inFlight.decrementAndGet();
    }
  }
}
