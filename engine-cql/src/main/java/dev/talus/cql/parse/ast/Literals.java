package dev.talus.cql.parse.ast;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The conversions of CQL constants to Java values that belong to the language rather than to a
 * column type: integers of any size with range checks, floats with {@code NaN}/{@code Infinity},
 * hex blobs, UUIDs, booleans and durations (all four duration formats, with Cassandra's rules on
 * unit order and overflow). Each method takes the {@link Term.Literal#text()} of a literal of the
 * matching kind and throws {@link IllegalArgumentException} with a message fit for the user when
 * the text cannot become that value. Stateless and thread-safe.
 */
public final class Literals {
  private static final long NANOS_PER_MICRO = 1_000L;
  private static final long NANOS_PER_MILLI = 1_000_000L;
  private static final long NANOS_PER_SECOND = 1_000_000_000L;
  private static final long NANOS_PER_MINUTE = 60 * NANOS_PER_SECOND;
  private static final long NANOS_PER_HOUR = 60 * NANOS_PER_MINUTE;

  private static final Pattern STANDARD =
      Pattern.compile("\\G(\\d+)(mo|ms|us|µs|ns|y|w|d|h|m|s)", Pattern.CASE_INSENSITIVE);
  private static final Pattern ISO =
      Pattern.compile(
          "P(?:(\\d+)Y)?(?:(\\d+)M)?(?:(\\d+)D)?(?:T(?:(\\d+)H)?(?:(\\d+)M)?(?:(\\d+)S)?)?");
  private static final Pattern ISO_WEEK = Pattern.compile("P(\\d+)W");
  private static final Pattern ISO_ALTERNATIVE =
      Pattern.compile("P(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2}):(\\d{2})");

  private Literals() {}

  /**
   * Returns the integer written, of any size (a {@code varint}).
   *
   * @param text an {@link LiteralKind#INTEGER} literal's text, e.g. {@code -12345678901234567890}
   * @return the value
   */
  public static BigInteger toBigInteger(String text) {
    try {
      return new BigInteger(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is not an integer", e);
    }
  }

  /**
   * Returns the integer written as a {@code bigint}.
   *
   * @param text an integer literal's text
   * @return the value
   */
  public static long toLong(String text) {
    return toBigInteger(text, Long.MIN_VALUE, Long.MAX_VALUE, "bigint");
  }

  /**
   * Returns the integer written as an {@code int}.
   *
   * @param text an integer literal's text
   * @return the value
   */
  public static int toInt(String text) {
    return (int) toBigInteger(text, Integer.MIN_VALUE, Integer.MAX_VALUE, "int");
  }

  /**
   * Returns the integer written as a {@code smallint}.
   *
   * @param text an integer literal's text
   * @return the value
   */
  public static short toShort(String text) {
    return (short) toBigInteger(text, Short.MIN_VALUE, Short.MAX_VALUE, "smallint");
  }

  /**
   * Returns the integer written as a {@code tinyint}.
   *
   * @param text an integer literal's text
   * @return the value
   */
  public static byte toByte(String text) {
    return (byte) toBigInteger(text, Byte.MIN_VALUE, Byte.MAX_VALUE, "tinyint");
  }

  private static long toBigInteger(String text, long min, long max, String type) {
    BigInteger v = toBigInteger(text);
    if (v.compareTo(BigInteger.valueOf(min)) < 0 || v.compareTo(BigInteger.valueOf(max)) > 0) {
      throw new IllegalArgumentException(
          text + " is out of range for " + type + " [" + min + ", " + max + "]");
    }
    return v.longValue();
  }

  /**
   * Returns the number written as a {@code decimal}, keeping its scale ({@code 1.50} has two
   * decimals). {@code NaN} and infinities have no decimal form.
   *
   * @param text an integer or float literal's text
   * @return the value
   */
  public static BigDecimal toBigDecimal(String text) {
    try {
      return new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is not a decimal number", e);
    }
  }

  /**
   * Returns the number written as a {@code double}: {@code NaN}, {@code Infinity}, {@code
   * -Infinity} and every integer or float literal. A finite number too large for a double is
   * refused rather than silently turned into an infinity (Cassandra stores the infinity).
   *
   * @param text an integer or float literal's text
   * @return the value
   */
  public static double toDouble(String text) {
    double d = parseFloating(text);
    if (Double.isInfinite(d) && !text.endsWith("Infinity")) {
      throw new IllegalArgumentException(text + " is out of range for double");
    }
    return d;
  }

  /**
   * Returns the number written as a {@code float}, like {@link #toDouble} (a finite number beyond
   * the float range is refused; precision beyond the float's is rounded, as in Cassandra).
   *
   * @param text an integer or float literal's text
   * @return the value
   */
  public static float toFloat(String text) {
    double d = parseFloating(text);
    float f = (float) d;
    if (Float.isInfinite(f) && !text.endsWith("Infinity")) {
      throw new IllegalArgumentException(text + " is out of range for float");
    }
    return f;
  }

  private static double parseFloating(String text) {
    switch (text) {
      case "NaN":
        return Double.NaN;
      case "Infinity":
        return Double.POSITIVE_INFINITY;
      case "-Infinity":
        return Double.NEGATIVE_INFINITY;
      default:
        break;
    }
    // Double.parseDouble accepts "NaN", "0x1p3" and trailing 'd'/'f'; a CQL number has none.
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!(c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E')) {
        throw new IllegalArgumentException("'" + text + "' is not a number");
      }
    }
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "' is not a number", e);
    }
  }

  /**
   * Returns the bytes of a hex blob.
   *
   * @param text a {@link LiteralKind#HEX} literal's text, {@code 0x} then an even number of hex
   *     digits (upper or lower case); {@code 0x} alone is the empty blob
   * @return the bytes
   */
  public static byte[] hexToBytes(String text) {
    if (text.length() < 2 || text.charAt(0) != '0' || (text.charAt(1) | 0x20) != 'x') {
      throw new IllegalArgumentException("'" + text + "' is not a blob: it must start with 0x");
    }
    int digits = text.length() - 2;
    if (digits % 2 != 0) {
      throw new IllegalArgumentException(
          "the blob "
              + text
              + " has an odd number of hex digits ("
              + digits
              + "); each byte takes two");
    }
    byte[] bytes = new byte[digits / 2];
    for (int i = 0; i < bytes.length; i++) {
      int hi = Character.digit(text.charAt(2 + 2 * i), 16);
      int lo = Character.digit(text.charAt(3 + 2 * i), 16);
      if (hi < 0 || lo < 0) {
        throw new IllegalArgumentException("'" + text + "' is not a blob: bad hex digit");
      }
      bytes[i] = (byte) (hi << 4 | lo);
    }
    return bytes;
  }

  /**
   * Returns the UUID written.
   *
   * @param text a {@link LiteralKind#UUID} literal's text
   * @return the UUID
   */
  public static UUID toUuid(String text) {
    if (text.length() != 36) {
      throw new IllegalArgumentException("'" + text + "' is not a UUID");
    }
    try {
      return UUID.fromString(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + text + "' is not a UUID", e);
    }
  }

  /**
   * Returns the boolean written.
   *
   * @param text {@code true} or {@code false}, in any case
   * @return the value
   */
  public static boolean toBoolean(String text) {
    switch (text.toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw new IllegalArgumentException("'" + text + "' is not a boolean");
    }
  }

  /**
   * Returns the duration written, in any of CQL's formats: units ({@code
   * 1y2mo3w4d5h6m7s8ms9us10ns}, units in that order, each at most once, {@code µs} for {@code us},
   * case-insensitive), ISO 8601 with designators ({@code P1Y2M3DT4H5M6S}), ISO 8601 weeks ({@code
   * P2W}) and the ISO 8601 alternative format ({@code P0001-02-03T04:05:06}); each may start with
   * {@code -}. Months and days must fit in an int and nanoseconds in a long, as in Cassandra.
   *
   * @param text a {@link LiteralKind#DURATION} literal's text
   * @return the months, days and nanoseconds
   */
  public static CqlDuration toDuration(String text) {
    boolean negative = text.startsWith("-");
    String source = negative ? text.substring(1) : text;
    DurationBuilder b = new DurationBuilder(text, negative);
    if (source.startsWith("P")) {
      Matcher m;
      if (source.endsWith("W")) {
        m = matchWhole(ISO_WEEK, source, text);
        b.add(m.group(1), 3);
      } else if (source.contains("-")) {
        m = matchWhole(ISO_ALTERNATIVE, source, text);
        for (int g = 1; g <= 6; g++) {
          b.add(m.group(g), g == 1 ? 1 : g == 2 ? 2 : g + 1);
        }
      } else {
        m = matchWhole(ISO, source, text);
        int[] units = {1, 2, 4, 5, 6, 7};
        boolean any = false;
        for (int g = 1; g <= 6; g++) {
          if (m.group(g) != null) {
            b.add(m.group(g), units[g - 1]);
            any = true;
          }
        }
        if (!any) {
          throw cannotConvert(text);
        }
      }
      return b.build();
    }
    Matcher m = STANDARD.matcher(source);
    int end = 0;
    while (m.find()) {
      b.add(m.group(1), unitIndex(m.group(2)));
      end = m.end();
    }
    if (end == 0 || end != source.length()) {
      throw cannotConvert(text);
    }
    return b.build();
  }

  private static Matcher matchWhole(Pattern p, String source, String text) {
    Matcher m = p.matcher(source);
    if (!m.matches()) {
      throw cannotConvert(text);
    }
    return m;
  }

  private static IllegalArgumentException cannotConvert(String text) {
    return new IllegalArgumentException("'" + text + "' is not a duration");
  }

  private static int unitIndex(String symbol) {
    switch (symbol.toLowerCase(Locale.ROOT)) {
      case "y":
        return 1;
      case "mo":
        return 2;
      case "w":
        return 3;
      case "d":
        return 4;
      case "h":
        return 5;
      case "m":
        return 6;
      case "s":
        return 7;
      case "ms":
        return 8;
      case "us":
      case "µs":
        return 9;
      default: // "ns": the pattern admits nothing else
        return 10;
    }
  }

  /** Adds units in their fixed order, checking order and overflow like Cassandra's Duration. */
  private static final class DurationBuilder {
    private static final String[] UNIT_NAMES = {
      "",
      "years",
      "months",
      "weeks",
      "days",
      "hours",
      "minutes",
      "seconds",
      "milliseconds",
      "microseconds",
      "nanoseconds"
    };

    private final String text;
    private final boolean negative;
    private long months;
    private long days;
    private long nanos;
    private int lastUnit;

    DurationBuilder(String text, boolean negative) {
      this.text = text;
      this.negative = negative;
    }

    void add(String digits, int unit) {
      if (unit == lastUnit) {
        throw new IllegalArgumentException(
            "invalid duration " + text + ": the " + UNIT_NAMES[unit] + " are given twice");
      }
      if (unit < lastUnit) {
        throw new IllegalArgumentException(
            "invalid duration "
                + text
                + ": the "
                + UNIT_NAMES[lastUnit]
                + " must come after the "
                + UNIT_NAMES[unit]);
      }
      lastUnit = unit;
      long n;
      try {
        n = Long.parseLong(digits);
      } catch (NumberFormatException e) {
        throw tooLarge(unit <= 2 ? "months" : unit <= 4 ? "days" : "nanoseconds", e);
      }
      switch (unit) {
        case 1 -> months = addChecked(months, n, 12, Integer.MAX_VALUE, "months");
        case 2 -> months = addChecked(months, n, 1, Integer.MAX_VALUE, "months");
        case 3 -> days = addChecked(days, n, 7, Integer.MAX_VALUE, "days");
        case 4 -> days = addChecked(days, n, 1, Integer.MAX_VALUE, "days");
        case 5 -> nanos = addChecked(nanos, n, NANOS_PER_HOUR, Long.MAX_VALUE, "nanoseconds");
        case 6 -> nanos = addChecked(nanos, n, NANOS_PER_MINUTE, Long.MAX_VALUE, "nanoseconds");
        case 7 -> nanos = addChecked(nanos, n, NANOS_PER_SECOND, Long.MAX_VALUE, "nanoseconds");
        case 8 -> nanos = addChecked(nanos, n, NANOS_PER_MILLI, Long.MAX_VALUE, "nanoseconds");
        case 9 -> nanos = addChecked(nanos, n, NANOS_PER_MICRO, Long.MAX_VALUE, "nanoseconds");
        default -> nanos = addChecked(nanos, n, 1, Long.MAX_VALUE, "nanoseconds");
      }
    }

    private long addChecked(long total, long n, long perUnit, long max, String what) {
      if (n > (max - total) / perUnit) {
        throw tooLarge(what, null);
      }
      return total + n * perUnit;
    }

    private IllegalArgumentException tooLarge(String what, Throwable cause) {
      long max = what.equals("nanoseconds") ? Long.MAX_VALUE : Integer.MAX_VALUE;
      return new IllegalArgumentException(
          "invalid duration " + text + ": the total " + what + " must be at most " + max, cause);
    }

    CqlDuration build() {
      return negative
          ? new CqlDuration((int) -months, (int) -days, -nanos)
          : new CqlDuration((int) months, (int) days, nanos);
    }
  }
}
