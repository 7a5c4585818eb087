package dev.talus.cql.exec.term;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CQL's text forms of timestamps, dates and times, as Cassandra reads and writes them. A timestamp
 * without a time zone is read in UTC (Cassandra uses the server's zone; Talus has no server, and a
 * test must not depend on the machine's zone). Static methods, thread-safe.
 */
public final class Temporal {
  private static final Pattern TIMESTAMP =
      Pattern.compile(
          "(-?\\d{4,})-(\\d{1,2})-(\\d{1,2})"
              + "(?:[ T](\\d{1,2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,9}))?)?)?"
              + " ?(Z|z|[+-]\\d{2}(?::?\\d{2})?)?");
  private static final Pattern DATE = Pattern.compile("(-?\\d{4,})-(\\d{1,2})-(\\d{1,2})");
  private static final Pattern TIME =
      Pattern.compile("(\\d{1,2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,9}))?");
  private static final Pattern DIGITS = Pattern.compile("-?\\d+");

  /** The epoch of CQL's unsigned integer dates: day 2^31 is 1970-01-01. */
  private static final long DATE_EPOCH = 1L << 31;

  private static final DateTimeFormatter JSON_TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter TEXT_TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private Temporal() {}

  /**
   * A timestamp written as text: {@code yyyy-mm-dd}, optionally followed by {@code [ T]HH:MM},
   * {@code :SS}, {@code .fff} and a zone ({@code Z}, {@code +hh}, {@code +hhmm}, {@code +hh:mm}),
   * or a number of milliseconds since the epoch.
   */
  public static Instant timestamp(String text) {
    String s = text.trim();
    if (DIGITS.matcher(s).matches()) {
      try {
        return Instant.ofEpochMilli(Long.parseLong(s));
      } catch (NumberFormatException e) {
        throw bad(text, "timestamp");
      }
    }
    Matcher m = TIMESTAMP.matcher(s);
    if (!m.matches()) {
      throw bad(text, "timestamp");
    }
    try {
      LocalDate date =
          LocalDate.of(
              Integer.parseInt(m.group(1)),
              Integer.parseInt(m.group(2)),
              Integer.parseInt(m.group(3)));
      int hour = m.group(4) == null ? 0 : Integer.parseInt(m.group(4));
      int minute = m.group(5) == null ? 0 : Integer.parseInt(m.group(5));
      int second = m.group(6) == null ? 0 : Integer.parseInt(m.group(6));
      String frac = m.group(7);
      if (frac != null && frac.length() > 3 && !frac.substring(3).chars().allMatch(c -> c == '0')) {
        throw new IllegalArgumentException(
            "Unable to coerce '"
                + text
                + "' to a formatted date (long): timestamps have"
                + " millisecond precision");
      }
      int millis = frac == null ? 0 : Integer.parseInt((frac + "00").substring(0, 3));
      ZoneOffset zone = zone(m.group(8));
      return date.atTime(hour, minute, second, millis * 1_000_000).toInstant(zone);
    } catch (DateTimeException | NumberFormatException e) {
      throw bad(text, "timestamp");
    }
  }

  private static ZoneOffset zone(String z) {
    if (z == null || z.equalsIgnoreCase("Z")) {
      return ZoneOffset.UTC;
    }
    String digits = z.replace(":", "");
    int hours = Integer.parseInt(digits.substring(1, 3));
    int minutes = digits.length() > 3 ? Integer.parseInt(digits.substring(3)) : 0;
    int sign = z.charAt(0) == '-' ? -1 : 1;
    return ZoneOffset.ofHoursMinutes(sign * hours, sign * minutes);
  }

  /** A date written as text: {@code yyyy-mm-dd}, or a number of days with 2^31 as 1970-01-01. */
  public static LocalDate date(String text) {
    String s = text.trim();
    if (DIGITS.matcher(s).matches()) {
      return dateFromUnsignedDays(s);
    }
    Matcher m = DATE.matcher(s);
    if (!m.matches()) {
      throw bad(text, "date");
    }
    try {
      return LocalDate.of(
          Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
    } catch (DateTimeException | NumberFormatException e) {
      throw bad(text, "date");
    }
  }

  /** A date given as CQL's unsigned day number (day 2^31 is 1970-01-01). */
  public static LocalDate dateFromUnsignedDays(String digits) {
    long days;
    try {
      days = Long.parseLong(digits);
    } catch (NumberFormatException e) {
      throw bad(digits, "date");
    }
    if (days < 0 || days > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException(
          "Unable to make unsigned int (for date) from: '" + digits + "': out of range");
    }
    return LocalDate.ofEpochDay(days - DATE_EPOCH);
  }

  /** A time of day written as text: {@code HH:MM:SS[.fffffffff]}, or nanoseconds since midnight. */
  public static LocalTime time(String text) {
    String s = text.trim();
    if (DIGITS.matcher(s).matches()) {
      return timeFromNanos(s);
    }
    Matcher m = TIME.matcher(s);
    if (!m.matches()) {
      throw bad(text, "time");
    }
    try {
      String frac = m.group(4) == null ? "" : m.group(4);
      int nanos = frac.isEmpty() ? 0 : Integer.parseInt((frac + "000000000").substring(0, 9));
      return LocalTime.of(
          Integer.parseInt(m.group(1)),
          Integer.parseInt(m.group(2)),
          Integer.parseInt(m.group(3)),
          nanos);
    } catch (DateTimeException | NumberFormatException e) {
      throw bad(text, "time");
    }
  }

  /** A time given as nanoseconds since midnight. */
  public static LocalTime timeFromNanos(String digits) {
    try {
      return LocalTime.ofNanoOfDay(Long.parseLong(digits));
    } catch (DateTimeException | NumberFormatException e) {
      throw new IllegalArgumentException(
          "Unable to make time from '" + digits + "': nanoseconds must be in [0, 86399999999999]");
    }
  }

  /** A timestamp as Cassandra's {@code toJson} writes it: {@code 2026-09-01 10:00:00.000Z}. */
  public static String jsonTimestamp(Instant t) {
    return JSON_TIMESTAMP.format(t);
  }

  /**
   * A timestamp as Cassandra's {@code CAST(t AS text)} writes it: {@code 2026-09-01T10:00:00.000Z}.
   */
  public static String textTimestamp(Instant t) {
    return TEXT_TIMESTAMP.format(t);
  }

  /** A time of day with nine fraction digits, as Cassandra writes it. */
  public static String text(LocalTime t) {
    return String.format(
        "%02d:%02d:%02d.%09d", t.getHour(), t.getMinute(), t.getSecond(), t.getNano());
  }

  private static IllegalArgumentException bad(String text, String what) {
    return new IllegalArgumentException("Unable to parse a " + what + " from '" + text + "'");
  }
}
