package dev.talus;

import java.security.SecureRandom;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Generates version 1 (time-based) UUIDs for {@link DataType#TIMEUUID} columns, from a given clock.
 *
 * <p>The UUIDs of one generator are unique and strictly increasing in the timeuuid order (by
 * embedded timestamp, then by the low 64 bits as an unsigned number), even when the clock stands
 * still or goes backwards: the embedded timestamp, counted in 100-nanosecond ticks, is the clock's
 * time or one tick past the previous UUID's, whichever is later. More than 10,000 UUIDs within one
 * millisecond therefore carry a timestamp slightly ahead of the clock, until the clock catches up.
 *
 * <p>The clock sequence and node fields are random, drawn once per generator, so UUIDs of different
 * generators (or processes) do not collide with overwhelming probability. The node has its
 * multicast bit set, as RFC 4122 asks of random nodes.
 *
 * <p>Instances are thread-safe and lock-free.
 */
public final class TimeUuidGenerator {
  /** 100-ns ticks between the UUID epoch (1582-10-15T00:00Z) and the Unix epoch. */
  private static final long UUID_EPOCH_OFFSET = 0x01B2_1DD2_1381_4000L;

  private static final long TICKS_PER_MILLI = 10_000L;
  private static final long TICKS_PER_SECOND = 10_000_000L;
  private static final long MAX_TIMESTAMP = (1L << 60) - 1;
  private static final long VARIANT_MASK = 0xC000_0000_0000_0000L;
  private static final long VARIANT_RFC4122 = 0x8000_0000_0000_0000L;
  private static final long MULTICAST_BIT = 0x0000_0100_0000_0000L;

  private final InstantSource clock;
  private final long leastSigBits;
  private final AtomicLong lastTimestamp = new AtomicLong(Long.MIN_VALUE);

  /**
   * Creates a generator reading time from the given clock, with a fresh random node and clock
   * sequence.
   *
   * @param clock the source of the embedded timestamps
   */
  public TimeUuidGenerator(InstantSource clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    long random = new SecureRandom().nextLong();
    this.leastSigBits = (random & ~VARIANT_MASK) | VARIANT_RFC4122 | MULTICAST_BIT;
  }

  /**
   * Returns a new version 1 UUID, greater (in the timeuuid order) than every UUID this generator
   * returned before.
   *
   * @return a new time-based UUID
   * @throws IllegalStateException if the clock is outside the range of UUID timestamps (years 1582
   *     to about 5236), or the timestamps have been bumped past that range
   */
  public UUID next() {
    long now = ticksOf(clock.instant(), false);
    long timestamp = lastTimestamp.accumulateAndGet(now, (last, t) -> t > last ? t : last + 1);
    if (timestamp > MAX_TIMESTAMP) {
      throw new IllegalStateException("The UUID timestamp range is exhausted");
    }
    return new UUID(mostSigBits(timestamp), leastSigBits);
  }

  /**
   * Returns the instant embedded in a time-based UUID, truncated to the millisecond.
   *
   * @param uuid a version 1 UUID
   * @return the millisecond of its timestamp
   * @throws IllegalArgumentException if the UUID is not version 1
   */
  public static Instant timestampOf(UUID uuid) {
    requireVersion1(uuid);
    return Instant.ofEpochMilli(
        Math.floorDiv(uuid.timestamp() - UUID_EPOCH_OFFSET, TICKS_PER_MILLI));
  }

  /**
   * Returns the smallest timeuuid, in the timeuuid order, whose timestamp lies in the millisecond
   * of the given instant. Together with {@link #maxFor(Instant)} it bounds slices of timeuuid
   * columns by time. The result is version 1, but its variant bits are zero, so it is meant as a
   * bound, not as a stored value.
   *
   * @param instant any instant within the millisecond
   * @return the smallest version 1 UUID of that millisecond
   * @throws IllegalArgumentException if the instant is outside the range of UUID timestamps
   */
  public static UUID minFor(Instant instant) {
    return new UUID(mostSigBits(ticksOf(millisecondOf(instant), true)), 0L);
  }

  /**
   * Returns the greatest timeuuid, in the timeuuid order, whose timestamp lies in the millisecond
   * of the given instant. The result is version 1, but its variant bits are all ones, so it is
   * meant as a bound, not as a stored value.
   *
   * @param instant any instant within the millisecond
   * @return the greatest version 1 UUID of that millisecond
   * @throws IllegalArgumentException if the instant is outside the range of UUID timestamps
   */
  public static UUID maxFor(Instant instant) {
    long first = ticksOf(millisecondOf(instant), true);
    long last = first + TICKS_PER_MILLI - 1;
    if (last > MAX_TIMESTAMP) {
      throw new IllegalArgumentException("Instant after the range of UUID timestamps: " + instant);
    }
    return new UUID(mostSigBits(last), -1L);
  }

  private static Instant millisecondOf(Instant instant) {
    Objects.requireNonNull(instant, "instant");
    return instant.minusNanos(instant.getNano() % 1_000_000);
  }

  /** Converts an instant to 100-ns ticks since the UUID epoch, failing outside the 60-bit range. */
  private static long ticksOf(Instant instant, boolean argument) {
    long ticks;
    try {
      ticks =
          Math.addExact(
              Math.addExact(
                  Math.multiplyExact(instant.getEpochSecond(), TICKS_PER_SECOND),
                  instant.getNano() / 100),
              UUID_EPOCH_OFFSET);
    } catch (ArithmeticException e) {
      ticks = -1;
    }
    if (ticks < 0 || ticks > MAX_TIMESTAMP) {
      String message = "Instant outside the range of UUID timestamps: " + instant;
      throw argument
          ? new IllegalArgumentException(message)
          : new IllegalStateException("Clock " + message);
    }
    return ticks;
  }

  /** Lays out a 60-bit timestamp as time_low, time_mid, version 1 and time_hi. */
  private static long mostSigBits(long timestamp) {
    return (timestamp << 32)
        | ((timestamp >>> 16) & 0xFFFF_0000L)
        | 0x1000L
        | ((timestamp >>> 48) & 0x0FFFL);
  }

  private static void requireVersion1(UUID uuid) {
    Objects.requireNonNull(uuid, "uuid");
    if (uuid.version() != 1) {
      throw new IllegalArgumentException(
          "Not a time-based (version 1) UUID: " + uuid + " has version " + uuid.version());
    }
  }
}
