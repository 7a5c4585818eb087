package dev.talus;

/**
 * A duration as in Cassandra: a number of months, a number of days and a number of nanoseconds,
 * kept separate because a month has no fixed number of days and a day no fixed number of
 * nanoseconds (daylight saving time changes).
 *
 * <p>All three components share the same sign: a duration is either entirely non-negative or
 * entirely non-positive.
 *
 * <p>Instances are immutable and thread-safe. Two durations are equal when all three components are
 * equal, so {@code 1mo} and {@code 30d} differ.
 */
public final class DurationValue {
  private static final long NANOS_PER_MICRO = 1_000L;
  private static final long NANOS_PER_MILLI = 1_000_000L;
  private static final long NANOS_PER_SECOND = 1_000_000_000L;
  private static final long NANOS_PER_MINUTE = 60 * NANOS_PER_SECOND;
  private static final long NANOS_PER_HOUR = 60 * NANOS_PER_MINUTE;

  private final int months;
  private final int days;
  private final long nanoseconds;

  private DurationValue(int months, int days, long nanoseconds) {
    this.months = months;
    this.days = days;
    this.nanoseconds = nanoseconds;
  }

  /**
   * Returns the duration with the given components.
   *
   * @param months the number of months
   * @param days the number of days
   * @param nanoseconds the number of nanoseconds
   * @return the duration
   * @throws IllegalArgumentException if some components are negative and others positive
   */
  public static DurationValue of(int months, int days, long nanoseconds) {
    boolean anyNegative = months < 0 || days < 0 || nanoseconds < 0;
    boolean anyPositive = months > 0 || days > 0 || nanoseconds > 0;
    if (anyNegative && anyPositive) {
      throw new IllegalArgumentException(
          "The components of a duration must all have the same sign, got months="
              + months
              + ", days="
              + days
              + ", nanoseconds="
              + nanoseconds);
    }
    return new DurationValue(months, days, nanoseconds);
  }

  /**
   * Returns the number of months.
   *
   * @return the months component
   */
  public int months() {
    return months;
  }

  /**
   * Returns the number of days.
   *
   * @return the days component
   */
  public int days() {
    return days;
  }

  /**
   * Returns the number of nanoseconds.
   *
   * @return the nanoseconds component
   */
  public long nanoseconds() {
    return nanoseconds;
  }

  /**
   * Tells whether the duration is negative, i.e. has a negative component.
   *
   * @return {@code true} if any component is negative
   */
  public boolean isNegative() {
    return months < 0 || days < 0 || nanoseconds < 0;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DurationValue d
        && months == d.months
        && days == d.days
        && nanoseconds == d.nanoseconds;
  }

  @Override
  public int hashCode() {
    int h = Integer.hashCode(months);
    h = 31 * h + Integer.hashCode(days);
    return 31 * h + Long.hashCode(nanoseconds);
  }

  /**
   * Returns the duration in the compact unit notation of CQL, e.g. {@code "1y2mo3d4h5m6s7ms8us9ns"}
   * or {@code "-3d"}: an optional minus sign, then the non-zero units from years ({@code y}, 12
   * months) down to nanoseconds; the zero duration is {@code "0s"}.
   *
   * @return the readable form of this duration
   */
  @Override
  public String toString() {
    if (months == 0 && days == 0 && nanoseconds == 0) {
      return "0s";
    }
    StringBuilder sb = new StringBuilder();
    if (isNegative()) {
      sb.append('-');
    }
    long absMonths = Math.abs((long) months);
    append(sb, absMonths / 12, "y");
    append(sb, absMonths % 12, "mo");
    append(sb, Math.abs((long) days), "d");
    // Negating Long.MIN_VALUE overflows to itself, which read as unsigned is the right magnitude.
    long n = nanoseconds < 0 ? -nanoseconds : nanoseconds;
    append(sb, Long.divideUnsigned(n, NANOS_PER_HOUR), "h");
    n = Long.remainderUnsigned(n, NANOS_PER_HOUR);
    append(sb, n / NANOS_PER_MINUTE, "m");
    n %= NANOS_PER_MINUTE;
    append(sb, n / NANOS_PER_SECOND, "s");
    n %= NANOS_PER_SECOND;
    append(sb, n / NANOS_PER_MILLI, "ms");
    n %= NANOS_PER_MILLI;
    append(sb, n / NANOS_PER_MICRO, "us");
    append(sb, n % NANOS_PER_MICRO, "ns");
    return sb.toString();
  }

  private static void append(StringBuilder sb, long amount, String unit) {
    if (amount != 0) {
      sb.append(amount).append(unit);
    }
  }
}
