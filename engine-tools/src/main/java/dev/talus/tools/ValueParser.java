package dev.talus.tools;

import dev.talus.ColumnDef;
import dev.talus.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.Locale;
import java.util.UUID;

/**
 * Parses a column value from command-line text by the column's {@link DataType}: the CQL literal
 * forms without quotes (text as is, {@code 0x…} blobs, ISO-8601 timestamps and dates, …).
 */
final class ValueParser {
  private ValueParser() {}

  /** The value of {@code column} written as {@code text}, or a {@link CliException} saying why. */
  static Object parse(ColumnDef column, String text) {
    try {
      return parse(column.type(), text);
    } catch (RuntimeException e) {
      throw new CliException(
          ExitCodes.ERROR,
          "bad value '"
              + text
              + "' for column "
              + column.name()
              + " ("
              + column.type().cqlName()
              + "): expected "
              + expected(column.type()));
    }
  }

  static Object parse(DataType type, String s) {
    return switch (type.kind()) {
      case TEXT -> s;
      case ASCII -> {
        if (!s.chars().allMatch(c -> c < 0x80)) {
          throw new IllegalArgumentException("not ascii");
        }
        yield s;
      }
      case BOOLEAN -> {
        String l = s.toLowerCase(Locale.ROOT);
        if (!l.equals("true") && !l.equals("false")) {
          throw new IllegalArgumentException("not a boolean");
        }
        yield Boolean.parseBoolean(l);
      }
      case TINYINT -> Byte.parseByte(s);
      case SMALLINT -> Short.parseShort(s);
      case INT -> Integer.parseInt(s);
      case BIGINT -> Long.parseLong(s);
      case VARINT -> new BigInteger(s);
      case FLOAT -> Float.parseFloat(s);
      case DOUBLE -> Double.parseDouble(s);
      case DECIMAL -> new BigDecimal(s);
      case BLOB -> {
        if (!s.startsWith("0x") && !s.startsWith("0X")) {
          throw new IllegalArgumentException("no 0x");
        }
        yield HexFormat.of().parseHex(s.substring(2));
      }
      case UUID -> parseUuid(s);
      case TIMEUUID -> {
        UUID u = parseUuid(s);
        if (u.version() != 1) {
          throw new IllegalArgumentException("not version 1");
        }
        yield u;
      }
      case TIMESTAMP -> parseTimestamp(s);
      case DATE -> LocalDate.parse(s);
      case TIME -> LocalTime.parse(s);
      case INET -> parseInet(s);
      case DURATION -> throw new IllegalArgumentException("durations cannot be keys");
      default ->
          throw new IllegalArgumentException(
              type.cqlName() + " keys cannot be given on the command line");
    };
  }

  private static UUID parseUuid(String s) {
    if (s.length() != 36) {
      throw new IllegalArgumentException("not a uuid");
    }
    return UUID.fromString(s);
  }

  /** ISO-8601 instant, a local date-time or a date (both taken as UTC), or epoch milliseconds. */
  private static Instant parseTimestamp(String s) {
    if (s.matches("-?\\d+")) {
      return Instant.ofEpochMilli(Long.parseLong(s));
    }
    if (s.length() == 10) {
      return LocalDate.parse(s).atStartOfDay().toInstant(ZoneOffset.UTC);
    }
    Instant i;
    if (s.endsWith("Z") || s.matches(".*[+-]\\d\\d:\\d\\d$")) {
      i = java.time.OffsetDateTime.parse(s).toInstant();
    } else {
      i = LocalDateTime.parse(s).toInstant(ZoneOffset.UTC);
    }
    if (i.getNano() % 1_000_000 != 0) {
      throw new IllegalArgumentException("timestamps have millisecond precision");
    }
    return i;
  }

  private static InetAddress parseInet(String s) {
    // only literal addresses: never a DNS lookup
    if (!s.matches("[0-9.]+|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*")) {
      throw new IllegalArgumentException("not an address literal");
    }
    try {
      return InetAddress.getByName(s);
    } catch (java.net.UnknownHostException e) {
      throw new IllegalArgumentException(e);
    }
  }

  static String expected(DataType type) {
    return switch (type.kind()) {
      case TEXT -> "any text";
      case ASCII -> "US-ASCII text";
      case BOOLEAN -> "true or false";
      case TINYINT -> "an integer from -128 to 127";
      case SMALLINT -> "an integer from -32768 to 32767";
      case INT -> "a 32-bit integer, e.g. 42";
      case BIGINT -> "a 64-bit integer, e.g. 42";
      case VARINT -> "an integer, e.g. 123456789012345678901234567890";
      case FLOAT, DOUBLE -> "a number, e.g. 21.5";
      case DECIMAL -> "a decimal number, e.g. 12.50";
      case BLOB -> "hex bytes starting with 0x, e.g. 0xcafe";
      case UUID -> "a UUID, e.g. 00000000-0000-4000-8000-000000000042";
      case TIMEUUID -> "a version 1 (time-based) UUID";
      case TIMESTAMP ->
          "an ISO-8601 instant with at most millisecond precision, e.g. 2026-09-01T09:00:00Z"
              + " (a date-time without offset or a date is taken as UTC), or epoch milliseconds";
      case DATE -> "a date yyyy-mm-dd, e.g. 2026-09-01";
      case TIME -> "a time hh:mm[:ss[.fffffffff]], e.g. 09:30:00";
      case INET -> "an IPv4 or IPv6 address literal, e.g. 10.0.0.1";
      case DURATION -> "nothing: duration columns cannot be part of a key";
      default ->
          "nothing: "
              + type.cqlName()
              + " keys cannot be given on the command line (only native-type keys)";
    };
  }
}
