package dev.talus;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.Locale;
import java.util.UUID;

/**
 * The type of a column, following the CQL types of Cassandra.
 *
 * <p>Each constant documents the Java class that represents its values: values read from Talus are
 * always instances of {@link #javaType()}, and values written to Talus are validated and converted
 * to that class (lossless integer widening is allowed, e.g. an {@link Integer} for a {@link
 * #BIGINT} column). Every type except {@link #DURATION} can be part of a primary key; key columns
 * sort in the natural order documented on each constant.
 *
 * <p>This enum is immutable and thread-safe.
 */
public enum DataType {
  /**
   * UTF-8 text, as a {@link String}. Strings with unpaired surrogates are rejected because they
   * have no UTF-8 form. Sorts by Unicode code point (which is not the UTF-16 order of {@link
   * String#compareTo}).
   */
  TEXT(String.class),
  /** US-ASCII text, as a {@link String} whose characters are all below U+0080. Sorts by code. */
  ASCII(String.class),
  /** A boolean, as a {@link Boolean}. {@code false} sorts before {@code true}. */
  BOOLEAN(Boolean.class),
  /** An 8-bit signed integer, as a {@link Byte}. Sorts numerically. */
  TINYINT(Byte.class),
  /** A 16-bit signed integer, as a {@link Short}. Sorts numerically. */
  SMALLINT(Short.class),
  /** A 32-bit signed integer, as an {@link Integer}. Sorts numerically. */
  INT(Integer.class),
  /** A 64-bit signed integer, as a {@link Long}. Sorts numerically. */
  BIGINT(Long.class),
  /** An arbitrary-precision integer, as a {@link BigInteger}. Sorts numerically. */
  VARINT(BigInteger.class),
  /**
   * A 32-bit IEEE 754 float, as a {@link Float}. Sorts like {@link Float#compare}: {@code -0.0}
   * before {@code 0.0}, NaN after positive infinity. All NaNs are stored as the canonical NaN.
   */
  FLOAT(Float.class),
  /**
   * A 64-bit IEEE 754 float, as a {@link Double}. Sorts like {@link Double#compare}: {@code -0.0}
   * before {@code 0.0}, NaN after positive infinity. All NaNs are stored as the canonical NaN.
   */
  DOUBLE(Double.class),
  /**
   * An arbitrary-precision decimal, as a {@link BigDecimal}. Sorts numerically ({@link
   * BigDecimal#compareTo}), so {@code 1.0} and {@code 1.00} are the same key: a key column returns
   * the value with trailing zeros stripped, while a regular column keeps the scale as written.
   */
  DECIMAL(BigDecimal.class),
  /** Arbitrary bytes, as a {@code byte[]} (copied on the way in). Sorts unsigned-lexicographic. */
  BLOB(byte[].class),
  /**
   * A UUID of any version, as a {@link UUID}. Sorts as an unsigned 128-bit number, which differs
   * from {@link UUID#compareTo} (signed).
   */
  UUID(UUID.class),
  /**
   * A version 1 (time-based) UUID, as a {@link java.util.UUID}; other versions are rejected. Sorts
   * by the embedded 60-bit timestamp, then by the low 64 bits as an unsigned number. See {@link
   * TimeUuidGenerator}.
   */
  TIMEUUID(UUID.class),
  /**
   * An instant with millisecond precision, as an {@link Instant}. Instants with a sub-millisecond
   * part are rejected rather than silently truncated. Sorts chronologically.
   */
  TIMESTAMP(Instant.class),
  /** A date without time zone, as a {@link LocalDate}. Sorts chronologically. */
  DATE(LocalDate.class),
  /** A time of day with nanosecond precision, as a {@link LocalTime}. Sorts chronologically. */
  TIME(LocalTime.class),
  /**
   * An IPv4 or IPv6 address, as an {@link InetAddress} (only the address is kept, not a host name;
   * IPv6 addresses with a scope are rejected). Sorts IPv4 before IPv6, then by unsigned bytes.
   */
  INET(InetAddress.class),
  /**
   * A duration in months, days and nanoseconds, as a {@link DurationValue}. Durations have no
   * natural order (a month has no fixed number of days), so they cannot be part of a key.
   */
  DURATION(DurationValue.class);

  private final Class<?> javaType;

  DataType(Class<?> javaType) {
    this.javaType = javaType;
  }

  /**
   * Returns the class of this type's values as returned by Talus.
   *
   * @return the Java class of the canonical values of this type
   */
  public Class<?> javaType() {
    return javaType;
  }

  /**
   * Tells whether columns of this type can be part of a primary key (partition or clustering).
   *
   * @return {@code false} for {@link #DURATION}, {@code true} otherwise
   */
  public boolean canBeKey() {
    return this != DURATION;
  }

  /**
   * Returns the CQL name of this type, in lower case, e.g. {@code "timeuuid"}.
   *
   * @return the lower-case CQL name
   */
  public String cqlName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
