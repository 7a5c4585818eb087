package dev.talus.cql.exec.term;

import dev.talus.DataType;
import dev.talus.DurationValue;
import dev.talus.cql.parse.ast.CqlDuration;
import dev.talus.cql.parse.ast.LiteralKind;
import dev.talus.cql.parse.ast.Literals;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.HexFormat;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The values of CQL's native types: which literal kinds each type accepts and what they become
 * (Cassandra's assignment rules for constants), which Java objects a bind marker of each type
 * accepts, and each type's text form. Static methods, thread-safe.
 */
public final class Values {
  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
  private static final Pattern IPV6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

  private Values() {}

  /** True if a constant written as {@code kind} can be assigned to a value of {@code type}. */
  public static boolean accepts(DataType type, LiteralKind kind) {
    return switch (type.kind()) {
      case TEXT -> kind == LiteralKind.STRING;
      case ASCII -> kind == LiteralKind.STRING;
      case BOOLEAN -> kind == LiteralKind.BOOLEAN;
      case TINYINT, SMALLINT, INT, BIGINT, VARINT -> kind == LiteralKind.INTEGER;
      case FLOAT, DOUBLE, DECIMAL -> kind == LiteralKind.INTEGER || kind == LiteralKind.FLOAT;
      case BLOB -> kind == LiteralKind.HEX;
      case UUID, TIMEUUID -> kind == LiteralKind.UUID;
      case TIMESTAMP, DATE, TIME -> kind == LiteralKind.STRING || kind == LiteralKind.INTEGER;
      case INET -> kind == LiteralKind.STRING;
      case DURATION -> kind == LiteralKind.DURATION;
      default -> false;
    };
  }

  /** The natural type of a constant selected on its own ({@code SELECT 1 FROM t}). */
  public static DataType naturalType(LiteralKind kind, String text) {
    return switch (kind) {
      case STRING -> DataType.TEXT;
      case BOOLEAN -> DataType.BOOLEAN;
      case INTEGER -> {
        BigInteger v = Literals.toBigInteger(text);
        yield v.bitLength() < 32
            ? DataType.INT
            : v.bitLength() < 64 ? DataType.BIGINT : DataType.VARINT;
      }
      case FLOAT -> DataType.DOUBLE;
      case HEX -> DataType.BLOB;
      case UUID -> DataType.UUID;
      case DURATION -> DataType.DURATION;
    };
  }

  /**
   * The value of a constant for {@code type}; {@link IllegalArgumentException} saying why when the
   * text does not make one (the caller has checked {@link #accepts}).
   */
  public static Object literal(DataType type, LiteralKind kind, String text) {
    return switch (type.kind()) {
      case TEXT -> text;
      case ASCII -> ascii(text);
      case BOOLEAN -> Literals.toBoolean(text);
      case TINYINT -> Literals.toByte(text);
      case SMALLINT -> Literals.toShort(text);
      case INT -> Literals.toInt(text);
      case BIGINT -> Literals.toLong(text);
      case VARINT -> Literals.toBigInteger(text);
      case FLOAT -> Literals.toFloat(text);
      case DOUBLE -> Literals.toDouble(text);
      case DECIMAL -> Literals.toBigDecimal(text);
      case BLOB -> Literals.hexToBytes(text);
      case UUID -> Literals.toUuid(text);
      case TIMEUUID -> timeuuid(Literals.toUuid(text));
      case TIMESTAMP ->
          kind == LiteralKind.INTEGER
              ? Instant.ofEpochMilli(Literals.toLong(text))
              : Temporal.timestamp(text);
      case DATE ->
          kind == LiteralKind.INTEGER ? Temporal.dateFromUnsignedDays(text) : Temporal.date(text);
      case TIME -> kind == LiteralKind.INTEGER ? Temporal.timeFromNanos(text) : Temporal.time(text);
      case INET -> inet(text);
      case DURATION -> duration(Literals.toDuration(text));
      default ->
          throw new IllegalArgumentException(
              "not supported yet by Talus in CQL: constants of type " + type);
    };
  }

  private static String ascii(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) > 0x7F) {
        throw new IllegalArgumentException("Invalid ASCII character in string literal");
      }
    }
    return text;
  }

  static UUID timeuuid(UUID u) {
    if (u.version() != 1) {
      throw new IllegalArgumentException(
          "Unsupported UUID version " + u.version() + ": a timeuuid is a version 1 UUID");
    }
    return u;
  }

  public static DurationValue duration(CqlDuration d) {
    return DurationValue.of(d.months(), d.days(), d.nanoseconds());
  }

  /** An IP address written as text; never a host name (Talus does no DNS lookup). */
  public static InetAddress inet(String text) {
    String s = text.trim();
    if (!IPV4.matcher(s).matches() && !IPV6.matcher(s).matches()) {
      throw new IllegalArgumentException(
          "Unable to make inet address from '" + text + "': write an IPv4 or IPv6 address");
    }
    try {
      return InetAddress.getByName(s);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("Unable to make inet address from '" + text + "'", e);
    }
  }

  /**
   * Whether a Java object bound to a marker of {@code type} has the right kind: the type's class,
   * or any integral {@link Number} for the integer types and any {@link Number} for the decimal
   * ones (the engine then checks the range). Null and unset are checked elsewhere.
   */
  public static boolean bindable(DataType type, Object value) {
    if (type.javaType().isInstance(value)) {
      return true;
    }
    return switch (type.kind()) {
      case TINYINT, SMALLINT, INT, BIGINT, VARINT ->
          value instanceof Byte
              || value instanceof Short
              || value instanceof Integer
              || value instanceof Long
              || value instanceof BigInteger;
      case DOUBLE -> value instanceof Float;
      case DECIMAL ->
          value instanceof Byte
              || value instanceof Short
              || value instanceof Integer
              || value instanceof Long
              || value instanceof BigInteger;
      default -> false;
    };
  }

  /** A value of a native type as CQL text, the way {@code CAST(x AS text)} writes it. */
  public static String text(Object v) {
    if (v == null) {
      return null;
    }
    if (v instanceof byte[] b) {
      return "0x" + HexFormat.of().formatHex(b);
    }
    if (v instanceof Instant t) {
      return Temporal.textTimestamp(t);
    }
    if (v instanceof LocalTime t) {
      return Temporal.text(t);
    }
    if (v instanceof InetAddress a) {
      return a.getHostAddress();
    }
    if (v instanceof BigDecimal d) {
      return d.toString();
    }
    if (v instanceof Double d) {
      return special(d) != null ? special(d) : Double.toString(d);
    }
    if (v instanceof Float f) {
      return special(f) != null ? special(f) : Float.toString(f);
    }
    if (v instanceof LocalDate d) {
      return d.toString();
    }
    return v.toString();
  }

  private static String special(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "Infinity" : "-Infinity";
    }
    return null;
  }
}
