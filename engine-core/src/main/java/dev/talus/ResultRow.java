package dev.talus;

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
 * One row of a read result: the selected columns' values plus, for each regular column, its write
 * time and remaining TTL (Cassandra's {@code writetime()} and {@code ttl()}). A column that has no
 * value reads as null. Immutable and thread-safe.
 */
public interface ResultRow {
  /** The selected columns, in schema order. */
  List<String> columns();

  /** The value of {@code column} as its type's Java class (see {@link DataType}), or null. */
  Object get(String column);

  /** The value cast to {@code type}; a wrong type is an {@link InvalidQueryException}. */
  <T> T get(String column, Class<T> type);

  default String getString(String column) {
    return get(column, String.class);
  }

  default Boolean getBoolean(String column) {
    return get(column, Boolean.class);
  }

  default Integer getInt(String column) {
    return get(column, Integer.class);
  }

  default Long getLong(String column) {
    return get(column, Long.class);
  }

  default Double getDouble(String column) {
    return get(column, Double.class);
  }

  default Float getFloat(String column) {
    return get(column, Float.class);
  }

  default BigDecimal getDecimal(String column) {
    return get(column, BigDecimal.class);
  }

  default BigInteger getVarint(String column) {
    return get(column, BigInteger.class);
  }

  default UUID getUuid(String column) {
    return get(column, UUID.class);
  }

  default Instant getInstant(String column) {
    return get(column, Instant.class);
  }

  default LocalDate getDate(String column) {
    return get(column, LocalDate.class);
  }

  default LocalTime getTime(String column) {
    return get(column, LocalTime.class);
  }

  default InetAddress getInet(String column) {
    return get(column, InetAddress.class);
  }

  default byte[] getBytes(String column) {
    return get(column, byte[].class);
  }

  /**
   * A set column (frozen or not) as an immutable {@link Set} in element order, or null (an empty
   * non-frozen set reads as null).
   *
   * @throws InvalidQueryException if the column is no set or an element is no {@code elementType}
   */
  @SuppressWarnings("unchecked")
  default <T> Set<T> getSet(String column, Class<T> elementType) {
    Set<?> s = get(column, Set.class);
    return s == null ? null : (Set<T>) ResultRows.checkElements(column, s, elementType);
  }

  /**
   * A list column (frozen or not) or a non-float vector as an immutable {@link List}, or null.
   *
   * @throws InvalidQueryException if the column is no list or an element is no {@code elementType}
   */
  @SuppressWarnings("unchecked")
  default <T> List<T> getList(String column, Class<T> elementType) {
    List<?> l = get(column, List.class);
    return l == null ? null : (List<T>) ResultRows.checkElements(column, l, elementType);
  }

  /**
   * A map column (frozen or not) as an immutable {@link Map} in key order, or null.
   *
   * @throws InvalidQueryException if the column is no map or a key or value has another class
   */
  @SuppressWarnings("unchecked")
  default <K, V> Map<K, V> getMap(String column, Class<K> keyType, Class<V> valueType) {
    Map<?, ?> m = get(column, Map.class);
    if (m == null) {
      return null;
    }
    ResultRows.checkElements(column, m.keySet(), keyType);
    ResultRows.checkElements(column, m.values(), valueType);
    return (Map<K, V>) m;
  }

  /** A tuple column, or null. */
  default TupleValue getTuple(String column) {
    return get(column, TupleValue.class);
  }

  /** A user-type column (frozen or not), or null. */
  default UdtValue getUdt(String column) {
    return get(column, UdtValue.class);
  }

  /** A {@code vector<float, n>} column as a copy of its floats (like a blob's bytes), or null. */
  default float[] getFloatVector(String column) {
    return get(column, float[].class);
  }

  /** True if {@code column} has no value in this row. */
  default boolean isNull(String column) {
    return get(column) == null;
  }

  /**
   * The write timestamp (microseconds) of a regular column's value, or null if it has none
   * (Cassandra's {@code writetime(column)}).
   *
   * @throws InvalidQueryException for a primary key column, which has no cell and so no write time
   *     (as in Cassandra), or a column that was not selected
   */
  Long writeTime(String column);

  /**
   * Seconds until a regular column's value expires, or null if it does not expire (Cassandra's
   * {@code ttl(column)}).
   *
   * @throws InvalidQueryException for a primary key column (as in Cassandra), or a column that was
   *     not selected
   */
  Integer ttl(String column);

  /**
   * The write timestamps (microseconds) of the cells of a non-frozen collection or user type, as
   * Cassandra 5.0's {@code writetime(column)} returns them for such a column: one per element of a
   * list, set or map, in the order the value reads in; one per field of a user type, in field
   * order, null for a field without a value. Null if the column has no cell in this row (null or
   * empty). Immutable.
   *
   * @throws InvalidQueryException for a primary key column, a column that was not selected, or a
   *     column that is not a non-frozen collection or user type (use {@link #writeTime})
   */
  default List<Long> writeTimes(String column) {
    return null;
  }

  /**
   * Seconds until each cell of a non-frozen collection or user type expires, null for a cell that
   * does not expire: Cassandra 5.0's {@code ttl(column)} of such a column, in the order of {@link
   * #writeTimes}. Null if the column has no cell in this row. Immutable.
   *
   * @throws InvalidQueryException like {@link #writeTimes}
   */
  default List<Integer> ttls(String column) {
    return null;
  }
}
