package dev.talus.cql.exec.term;

import static dev.talus.DataType.DATE;
import static dev.talus.DataType.DURATION;
import static dev.talus.DataType.TIME;
import static dev.talus.DataType.TIMESTAMP;
import static dev.talus.DataType.TIMEUUID;

import dev.talus.DurationValue;
import dev.talus.TimeUuidGenerator;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;

/**
 * Cassandra 5.0's {@code floor()} of a time value ({@code TimeFcts}, {@code
 * Duration.floorTimestamp} and {@code floorTime}): a timestamp, timeuuid or date rounded down to a
 * multiple of a duration counted from an optional start (the epoch by default), in UTC; a time of
 * day rounded down to a multiple of a duration shorter than a day. Months count in calendar months.
 * Static, thread-safe.
 */
final class Floors {
  private static final long MILLIS_PER_DAY = 86_400_000L;
  private static final long NANOS_PER_DAY = MILLIS_PER_DAY * 1_000_000L;

  private Floors() {}

  /** Registers every signature of {@code floor}. */
  static void register() {
    String[] floor = Functions.names("floor");
    Functions.fn(
        floor,
        List.of(TIMESTAMP, DURATION),
        TIMESTAMP,
        true,
        (c, a) -> instant(millis((Instant) a[0], (DurationValue) a[1], 0)));
    Functions.fn(
        floor,
        List.of(TIMESTAMP, DURATION, TIMESTAMP),
        TIMESTAMP,
        true,
        (c, a) -> instant(millis((Instant) a[0], (DurationValue) a[1], ms((Instant) a[2]))));
    Functions.fn(
        floor,
        List.of(TIMEUUID, DURATION),
        TIMESTAMP,
        true,
        (c, a) -> instant(millis(uuidTime(a[0]), (DurationValue) a[1], 0)));
    Functions.fn(
        floor,
        List.of(TIMEUUID, DURATION, TIMESTAMP),
        TIMESTAMP,
        true,
        (c, a) -> instant(millis(uuidTime(a[0]), (DurationValue) a[1], ms((Instant) a[2]))));
    Functions.fn(
        floor,
        List.of(DATE, DURATION),
        DATE,
        true,
        (c, a) -> date((LocalDate) a[0], (DurationValue) a[1], 0));
    Functions.fn(
        floor,
        List.of(DATE, DURATION, DATE),
        DATE,
        true,
        (c, a) -> date((LocalDate) a[0], (DurationValue) a[1], dayMillis((LocalDate) a[2])));
    Functions.fn(
        floor,
        List.of(TIME, DURATION),
        TIME,
        true,
        (c, a) -> time((LocalTime) a[0], (DurationValue) a[1]));
  }

  private static Instant uuidTime(Object timeuuid) {
    return TimeUuidGenerator.timestampOf((UUID) timeuuid).truncatedTo(ChronoUnit.MILLIS);
  }

  private static long ms(Instant t) {
    return t.toEpochMilli();
  }

  private static Instant instant(long millis) {
    return Instant.ofEpochMilli(millis);
  }

  private static long dayMillis(LocalDate d) {
    return d.toEpochDay() * MILLIS_PER_DAY;
  }

  private static long millis(Instant t, DurationValue d, long start) {
    if (d.nanoseconds() % 1_000_000L != 0) {
      throw new Functions.Refusal(
          "The floor cannot be computed for the "
              + d
              + " duration as precision is below 1 millisecond");
    }
    return floor(t.toEpochMilli(), d, start);
  }

  private static LocalDate date(LocalDate day, DurationValue d, long start) {
    if (d.nanoseconds() != 0) {
      throw new Functions.Refusal(
          "The floor on date values cannot be computed for the "
              + d
              + " duration as precision is below 1 day");
    }
    return LocalDate.ofEpochDay(Math.floorDiv(floor(dayMillis(day), d, start), MILLIS_PER_DAY));
  }

  private static LocalTime time(LocalTime t, DurationValue d) {
    if (d.isNegative()) {
      throw new Functions.Refusal("Negative durations are not supported by the floor function");
    }
    if (d.months() != 0 || d.days() != 0 || d.nanoseconds() > NANOS_PER_DAY) {
      throw new Functions.Refusal(
          "For time values, the floor can only be computed for durations smaller that a day");
    }
    if (d.nanoseconds() == 0) {
      return t;
    }
    long nanos = t.toNanoOfDay();
    return LocalTime.ofNanoOfDay(nanos - nanos % d.nanoseconds());
  }

  /**
   * The greatest {@code start + n * d} (n a whole number) not after {@code time}, in milliseconds;
   * months are calendar months in UTC.
   */
  static long floor(long time, DurationValue d, long start) {
    if (start > time) {
      throw new Functions.Refusal(
          "The floor function starting time is greater than the provided time");
    }
    if (d.isNegative()) {
      throw new Functions.Refusal("Negative durations are not supported by the floor function");
    }
    long fixed = d.days() * MILLIS_PER_DAY + d.nanoseconds() / 1_000_000L;
    if (d.months() == 0) {
      return fixed == 0 ? time : time - (time - start) % fixed;
    }
    ZonedDateTime t = Instant.ofEpochMilli(time).atZone(ZoneOffset.UTC);
    ZonedDateTime s = Instant.ofEpochMilli(start).atZone(ZoneOffset.UTC);
    int months = (t.getYear() - s.getYear()) * 12 + (t.getMonthValue() - s.getMonthValue());
    long steps = months / d.months();
    ZonedDateTime at = s.plusMonths(steps * d.months());
    if (fixed == 0) {
      // months alone: the calendar step may still pass the time within its month
      while (at.toInstant().toEpochMilli() > time) {
        steps--;
        at = at.minusMonths(d.months());
      }
      return at.toInstant().toEpochMilli();
    }
    long floor = at.toInstant().toEpochMilli() + steps * fixed;
    while (floor > time) {
      steps--;
      at = at.minusMonths(d.months());
      floor = at.toInstant().toEpochMilli() + steps * fixed;
    }
    return Math.max(start, floor);
  }
}
