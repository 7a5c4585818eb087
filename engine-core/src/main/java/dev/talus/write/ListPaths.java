package dev.talus.write;

import java.security.SecureRandom;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The cell paths of list elements: timeuuid keys (a 60-bit timestamp in 100-ns ticks, big-endian in
 * 8 bytes, then 8 bytes of node), as Cassandra's lists use. Appends take fresh increasing times
 * from the database's clock; prepends take decreasing times mirrored around 2010-01-01 (Cassandra's
 * {@code Lists.PrecisionTime} reference point), so every prepended element sorts before every
 * appended one and later prepends before earlier ones. Within one instance, paths never repeat:
 * appends go strictly up and prepends strictly down, even when the clock stands still.
 *
 * <p>Thread-safe; one per database (no static state).
 */
final class ListPaths {
  /** 100-ns ticks between the UUID epoch (1582-10-15) and the Unix epoch. */
  private static final long UUID_EPOCH_OFFSET = 0x01B2_1DD2_1381_4000L;

  private static final long REFERENCE_MILLIS = 1_262_304_000_000L; // 2010-01-01T00:00:00Z

  private final InstantSource clock;
  private final long node;
  private final AtomicLong lastAppend = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong lastPrepend = new AtomicLong(Long.MAX_VALUE);

  ListPaths(InstantSource clock) {
    this.clock = clock;
    // the low half of a version 1 UUID: RFC 4122 variant, random clock sequence and node with the
    // multicast bit set, as a random node should have
    long random = new SecureRandom().nextLong();
    this.node =
        (random & ~0xC000_0000_0000_0000L) | 0x8000_0000_0000_0000L | 0x0000_0100_0000_0000L;
  }

  private static long ticks(Instant t) {
    return t.getEpochSecond() * 10_000_000L + t.getNano() / 100 + UUID_EPOCH_OFFSET;
  }

  /** {@code n} increasing paths after every path handed out before. */
  byte[][] append(int n) {
    long now = ticks(clock.instant());
    long last = lastAppend.accumulateAndGet(now, (l, t) -> Math.max(t + n - 1, l + n));
    byte[][] out = new byte[n][];
    for (int i = 0; i < n; i++) {
      out[i] = path(last - n + 1 + i);
    }
    return out;
  }

  /** {@code n} increasing paths, all before every prepended path handed out before. */
  byte[][] prepend(int n) {
    long reference = REFERENCE_MILLIS * 10_000L + UUID_EPOCH_OFFSET;
    long mirrored = reference - (ticks(clock.instant()) - reference);
    long first = lastPrepend.accumulateAndGet(mirrored, (l, t) -> Math.min(t - n + 1, l - n));
    byte[][] out = new byte[n][];
    for (int i = 0; i < n; i++) {
      out[i] = path(first + i);
    }
    return out;
  }

  private byte[] path(long ticks) {
    byte[] b = new byte[16];
    for (int i = 0; i < 8; i++) {
      b[i] = (byte) (ticks >>> (56 - 8 * i));
      b[8 + i] = (byte) (node >>> (56 - 8 * i));
    }
    return b;
  }
}
