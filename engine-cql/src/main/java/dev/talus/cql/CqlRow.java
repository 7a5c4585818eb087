package dev.talus.cql;

import dev.talus.DurationValue;
import dev.talus.InvalidQueryException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * One row of a {@link CqlResult}: values by position (0-based, in the order of {@link
 * CqlResult#columns()}) or by name. A value is an instance of its column type's Java class ({@link
 * ColumnType#javaType()}, as documented on {@link dev.talus.DataType}), or null. A name is matched
 * as CQL matches names: exactly, else ignoring case; {@code "\"Name\""} (in double quotes) matches
 * only exactly. A getter of the wrong type, or an unknown name or position, throws {@link
 * InvalidQueryException}. Immutable and thread-safe.
 */
public interface CqlRow {
  /** The columns of the row (those of its result). */
  List<CqlColumn> columns();

  /** The position of the column named {@code name}; {@link InvalidQueryException} if none. */
  int indexOf(String name);

  /** The value at position {@code i}, or null. */
  Object get(int i);

  /** The value of the column named {@code name}, or null. */
  default Object get(String name) {
    return get(indexOf(name));
  }

  /** The value at position {@code i} as {@code type}. */
  default <T> T get(int i, Class<T> type) {
    Object v = get(i);
    if (v == null || type.isInstance(v)) {
      return type.cast(v);
    }
    throw new InvalidQueryException(
        "column "
            + columns().get(i).name()
            + " is "
            + columns().get(i).type().cql()
            + " ("
            + v.getClass().getName()
            + "), not "
            + type.getName());
  }

  /** The value of the column named {@code name} as {@code type}. */
  default <T> T get(String name, Class<T> type) {
    return get(indexOf(name), type);
  }

  /** True if the value at position {@code i} is null. */
  default boolean isNull(int i) {
    return get(i) == null;
  }

  default boolean isNull(String name) {
    return get(name) == null;
  }

  default String getString(int i) {
    return get(i, String.class);
  }

  default String getString(String name) {
    return get(name, String.class);
  }

  default Boolean getBoolean(int i) {
    return get(i, Boolean.class);
  }

  default Boolean getBoolean(String name) {
    return get(name, Boolean.class);
  }

  default Byte getByte(String name) {
    return get(name, Byte.class);
  }

  default Short getShort(String name) {
    return get(name, Short.class);
  }

  default Integer getInt(int i) {
    return get(i, Integer.class);
  }

  default Integer getInt(String name) {
    return get(name, Integer.class);
  }

  default Long getLong(int i) {
    return get(i, Long.class);
  }

  default Long getLong(String name) {
    return get(name, Long.class);
  }

  default Float getFloat(String name) {
    return get(name, Float.class);
  }

  default Double getDouble(int i) {
    return get(i, Double.class);
  }

  default Double getDouble(String name) {
    return get(name, Double.class);
  }

  default BigDecimal getDecimal(String name) {
    return get(name, BigDecimal.class);
  }

  default BigInteger getVarint(String name) {
    return get(name, BigInteger.class);
  }

  default UUID getUuid(int i) {
    return get(i, UUID.class);
  }

  default UUID getUuid(String name) {
    return get(name, UUID.class);
  }

  default Instant getInstant(String name) {
    return get(name, Instant.class);
  }

  default LocalDate getDate(String name) {
    return get(name, LocalDate.class);
  }

  default LocalTime getTime(String name) {
    return get(name, LocalTime.class);
  }

  default InetAddress getInet(String name) {
    return get(name, InetAddress.class);
  }

  default DurationValue getDuration(String name) {
    return get(name, DurationValue.class);
  }

  /** A blob's bytes (a fresh copy). */
  default byte[] getBytes(String name) {
    byte[] b = get(name, byte[].class);
    return b == null ? null : b.clone();
  }

  /** A list column's value (unmodifiable). */
  @SuppressWarnings("unchecked")
  default <E> List<E> getList(String name, Class<E> element) {
    return (List<E>) get(name, List.class);
  }

  /** A set column's value (unmodifiable). */
  @SuppressWarnings("unchecked")
  default <E> Set<E> getSet(String name, Class<E> element) {
    return (Set<E>) get(name, Set.class);
  }

  /** A map column's value (unmodifiable). */
  @SuppressWarnings("unchecked")
  default <K, V> Map<K, V> getMap(String name, Class<K> key, Class<V> value) {
    return (Map<K, V>) get(name, Map.class);
  }
}
