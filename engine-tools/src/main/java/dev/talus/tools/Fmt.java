package dev.talus.tools;

import dev.talus.Percentiles;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Number, size and time formatting shared by the commands. */
final class Fmt {
  private static final String[] UNITS = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  private Fmt() {}

  /** {@code 1536} → {@code "1.5 KiB"}; below 1 KiB the exact count of bytes. */
  static String bytes(long n) {
    if (n < 1024) {
      return n + " bytes";
    }
    double v = n;
    int u = 0;
    while (v >= 1024 && u < UNITS.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, UNITS[u]);
  }

  /** {@code "p50 12, p95 30, p99 41, max 200 (n=1000)"} with a unit after each value. */
  static String percentiles(Percentiles p, String unit) {
    if (p.count() == 0) {
      return "(none recorded)";
    }
    String u = unit.isEmpty() ? "" : " " + unit;
    return "p50 " + p.p50() + u + ", p95 " + p.p95() + u + ", p99 " + p.p99() + u + ", max "
        + p.max() + u + " (n=" + p.count() + ")";
  }

  /** A write timestamp in microseconds as ISO-8601 UTC with microseconds. */
  static String micros(long micros) {
    return MICROS.format(
        Instant.ofEpochSecond(
            Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L));
  }

  /** A local deletion or expiry time in seconds as ISO-8601 UTC; "never" for no expiry. */
  static String seconds(long seconds) {
    if (seconds == Long.MAX_VALUE || seconds == Integer.MAX_VALUE) {
      return "never";
    }
    return Instant.ofEpochSecond(seconds).toString();
  }

  /**
   * {@code s} safe to print on a terminal: control characters (and the replacement character left
   * by undecodable bytes) escaped as {@code \\uXXXX}; line breaks and tabs kept.
   */
  static String printable(String s) {
    if (s == null) {
      return "null";
    }
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if ((Character.isISOControl(c) && c != '\n' && c != '\t') || c == '\uFFFD') {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  static String ratio(double r) {
    return String.format(Locale.ROOT, "%.3f", r);
  }
}
