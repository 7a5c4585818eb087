package dev.talus;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

/**
 * The type of a column, following the CQL types of Cassandra 5.0: the native types (constants of
 * this class), collections ({@link #list}, {@link #set}, {@link #map}), {@link #frozen} values,
 * {@link #tuple}s, user-defined types ({@link #udt}), {@link #vector}s and {@link #COUNTER}.
 *
 * <p>Values read from Talus are always instances of {@link #javaType()}, and values written are
 * validated and converted to it (lossless integer widening is allowed, e.g. an {@link Integer} for
 * a {@link #BIGINT} column). Collections read as immutable {@link List}, {@link Set} and {@link
 * Map} in Cassandra's order (sets by element, maps by key, lists by position); inside a collection,
 * tuple, user type or vector a blob is a read-only {@link java.nio.ByteBuffer} (a {@code byte[]}
 * has no value equality, so it could not be a set element or map key).
 *
 * <p><b>Frozen or not.</b> A non-frozen collection or user type stores every element (field) as its
 * own cell with its own timestamp and TTL, so elements can be added and removed without reading; it
 * cannot be part of a key. A frozen one is a single value, rewritten whole, and can be a key.
 * Tuples and vectors are always single values; types nested inside a collection, tuple or user type
 * must be frozen (a nested collection must be wrapped in {@link #frozen}; tuple components and
 * user-type fields are frozen implicitly, as in Cassandra).
 *
 * <p>Which types can be key columns ({@link #canBeKey()}): every native type except {@link
 * #DURATION} and {@link #COUNTER}, and frozen collections, tuples and frozen user types made of key
 * types; never a non-frozen collection or a vector. Keys sort in the natural order documented on
 * each constant; frozen collections, tuples and user types sort component by component (a shorter
 * prefix first, a null component before any value).
 *
 * <p>Immutable and thread-safe; equal types are {@link #equals equal}.
 */
public final class DataType {
  /** What a type is; parameterised kinds carry their component types. */
  public enum Kind {
    TEXT,
    ASCII,
    BOOLEAN,
    TINYINT,
    SMALLINT,
    INT,
    BIGINT,
    VARINT,
    FLOAT,
    DOUBLE,
    DECIMAL,
    BLOB,
    UUID,
    TIMEUUID,
    TIMESTAMP,
    DATE,
    TIME,
    INET,
    DURATION,
    COUNTER,
    LIST,
    SET,
    MAP,
    TUPLE,
    UDT,
    VECTOR
  }

  /**
   * UTF-8 text, as a {@link String}. Strings with unpaired surrogates are rejected because they
   * have no UTF-8 form. Sorts by Unicode code point (which is not the UTF-16 order of {@link
   * String#compareTo}).
   */
  public static final DataType TEXT = nativeType(Kind.TEXT, String.class);

  /** US-ASCII text, as a {@link String} whose characters are all below U+0080. Sorts by code. */
  public static final DataType ASCII = nativeType(Kind.ASCII, String.class);

  /** A boolean, as a {@link Boolean}. {@code false} sorts before {@code true}. */
  public static final DataType BOOLEAN = nativeType(Kind.BOOLEAN, Boolean.class);

  /** An 8-bit signed integer, as a {@link Byte}. Sorts numerically. */
  public static final DataType TINYINT = nativeType(Kind.TINYINT, Byte.class);

  /** A 16-bit signed integer, as a {@link Short}. Sorts numerically. */
  public static final DataType SMALLINT = nativeType(Kind.SMALLINT, Short.class);

  /** A 32-bit signed integer, as an {@link Integer}. Sorts numerically. */
  public static final DataType INT = nativeType(Kind.INT, Integer.class);

  /** A 64-bit signed integer, as a {@link Long}. Sorts numerically. */
  public static final DataType BIGINT = nativeType(Kind.BIGINT, Long.class);

  /** An arbitrary-precision integer, as a {@link BigInteger}. Sorts numerically. */
  public static final DataType VARINT = nativeType(Kind.VARINT, BigInteger.class);

  /**
   * A 32-bit IEEE 754 float, as a {@link Float}. Sorts like {@link Float#compare}: {@code -0.0}
   * before {@code 0.0}, NaN after positive infinity. All NaNs are stored as the canonical NaN.
   */
  public static final DataType FLOAT = nativeType(Kind.FLOAT, Float.class);

  /**
   * A 64-bit IEEE 754 float, as a {@link Double}. Sorts like {@link Double#compare}: {@code -0.0}
   * before {@code 0.0}, NaN after positive infinity. All NaNs are stored as the canonical NaN.
   */
  public static final DataType DOUBLE = nativeType(Kind.DOUBLE, Double.class);

  /**
   * An arbitrary-precision decimal, as a {@link BigDecimal}. Sorts numerically ({@link
   * BigDecimal#compareTo}), so {@code 1.0} and {@code 1.00} are the same key: a key column returns
   * the value with trailing zeros stripped, while a regular column keeps the scale as written.
   */
  public static final DataType DECIMAL = nativeType(Kind.DECIMAL, BigDecimal.class);

  /** Arbitrary bytes, as a {@code byte[]} (copied on the way in). Sorts unsigned-lexicographic. */
  public static final DataType BLOB = nativeType(Kind.BLOB, byte[].class);

  /**
   * A UUID of any version, as a {@link java.util.UUID}. Sorts as an unsigned 128-bit number, which
   * differs from {@link java.util.UUID#compareTo} (signed).
   */
  public static final DataType UUID = nativeType(Kind.UUID, java.util.UUID.class);

  /**
   * A version 1 (time-based) UUID, as a {@link java.util.UUID}; other versions are rejected. Sorts
   * by the embedded 60-bit timestamp, then by the low 64 bits as an unsigned number. See {@link
   * TimeUuidGenerator}.
   */
  public static final DataType TIMEUUID = nativeType(Kind.TIMEUUID, java.util.UUID.class);

  /**
   * An instant with millisecond precision, as an {@link Instant}. Instants with a sub-millisecond
   * part are rejected rather than silently truncated. Sorts chronologically.
   */
  public static final DataType TIMESTAMP = nativeType(Kind.TIMESTAMP, Instant.class);

  /** A date without time zone, as a {@link LocalDate}. Sorts chronologically. */
  public static final DataType DATE = nativeType(Kind.DATE, LocalDate.class);

  /** A time of day with nanosecond precision, as a {@link LocalTime}. Sorts chronologically. */
  public static final DataType TIME = nativeType(Kind.TIME, LocalTime.class);

  /**
   * An IPv4 or IPv6 address, as an {@link InetAddress} (only the address is kept, not a host name;
   * IPv6 addresses with a scope are rejected). Sorts IPv4 before IPv6, then by unsigned bytes.
   */
  public static final DataType INET = nativeType(Kind.INET, InetAddress.class);

  /**
   * A duration in months, days and nanoseconds, as a {@link DurationValue}. Durations have no
   * natural order (a month has no fixed number of days), so they cannot be part of a key, a set
   * element or a map key.
   */
  public static final DataType DURATION = nativeType(Kind.DURATION, DurationValue.class);

  /**
   * A counter, read as a {@link Long}: only incremented and decremented ({@link Update#increment}),
   * never set. A table with counters holds counters only (besides its key), as in Cassandra;
   * counters take no TTL and cannot be keys or inside other types. Increments are exact but not
   * idempotent: a retried increment counts twice (see docs/data-modeling.md).
   */
  public static final DataType COUNTER = nativeType(Kind.COUNTER, Long.class);

  private static final DataType[] NATIVE = {
    TEXT, ASCII, BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, VARINT, FLOAT, DOUBLE, DECIMAL, BLOB,
    UUID, TIMEUUID, TIMESTAMP, DATE, TIME, INET, DURATION, COUNTER
  };

  private final Kind kind;
  private final Class<?> javaType;
  private final boolean frozen;
  private final List<DataType> components;
  private final UserType userType;
  private final int dimension;

  private DataType(
      Kind kind,
      Class<?> javaType,
      boolean frozen,
      List<DataType> components,
      UserType userType,
      int dimension) {
    this.kind = kind;
    this.javaType = javaType;
    this.frozen = frozen;
    this.components = components;
    this.userType = userType;
    this.dimension = dimension;
  }

  private static DataType nativeType(Kind kind, Class<?> javaType) {
    return new DataType(kind, javaType, false, List.of(), null, 0);
  }

  /**
   * The native types, in declaration order: the 19 value types and {@link #COUNTER}.
   *
   * @return a fresh array of the native types
   */
  public static DataType[] values() {
    return NATIVE.clone();
  }

  /**
   * The native type with this constant name (e.g. {@code "TEXT"}), as an enum's {@code valueOf}.
   *
   * @param name the constant name
   * @return the native type
   * @throws IllegalArgumentException if no native type has that name
   */
  public static DataType valueOf(String name) {
    for (DataType t : NATIVE) {
      if (t.kind.name().equals(name)) {
        return t;
      }
    }
    throw new IllegalArgumentException("No native type " + name);
  }

  /**
   * A non-frozen list: elements in insertion order, duplicates allowed; appending and prepending
   * write without reading, setting or removing by position or value reads first.
   *
   * @param element the element type (a nested collection or user type must be frozen)
   * @return the list type
   */
  public static DataType list(DataType element) {
    DataTypeRules.checkElement("list", element, false);
    return new DataType(Kind.LIST, List.class, false, List.of(element), null, 0);
  }

  /**
   * A non-frozen set: distinct elements in their natural order.
   *
   * @param element the element type: one that can be ordered (not duration, counter or vector), and
   *     frozen if it is a collection or user type
   * @return the set type
   */
  public static DataType set(DataType element) {
    DataTypeRules.checkElement("set", element, true);
    return new DataType(Kind.SET, Set.class, false, List.of(element), null, 0);
  }

  /**
   * A non-frozen map: entries in the natural order of their keys.
   *
   * @param key the key type: one that can be ordered, and frozen if it is a collection or user type
   * @param value the value type (a nested collection or user type must be frozen)
   * @return the map type
   */
  public static DataType map(DataType key, DataType value) {
    DataTypeRules.checkElement("map key", key, true);
    DataTypeRules.checkElement("map value", value, false);
    return new DataType(Kind.MAP, Map.class, false, List.of(key, value), null, 0);
  }

  /**
   * A tuple of values of fixed types; any component may be null. Always a single (frozen) value;
   * collections and user types inside it are frozen implicitly.
   *
   * @param components the component types, at least one
   * @return the tuple type
   */
  public static DataType tuple(DataType... components) {
    if (components.length == 0) {
      throw new InvalidSchemaException("a tuple needs at least one component type");
    }
    List<DataType> l = new ArrayList<>();
    for (DataType c : components) {
      DataTypeRules.checkInside("tuple", c);
      l.add(c.frozenInside());
    }
    return new DataType(Kind.TUPLE, TupleValue.class, true, List.copyOf(l), null, 0);
  }

  /**
   * A non-frozen user-defined type: every field is its own cell, so a field can be set without
   * rewriting the others. Wrap it in {@link #frozen} to store it as one value (and to use it in a
   * key, a collection or a tuple). The type must be created on the database ({@link
   * TalusDb#createType}) before a table using it.
   *
   * @param type the user type
   * @return the user-type type
   */
  public static DataType udt(UserType type) {
    Objects.requireNonNull(type, "type");
    return new DataType(Kind.UDT, UdtValue.class, false, type.fieldTypes(), type, 0);
  }

  /**
   * A vector of exactly {@code dimension} non-null elements (Cassandra 5.0's {@code vector<T, n>}),
   * a single value. {@code vector<float, n>} reads as a {@code float[]} (a copy); vectors of other
   * element types as an immutable {@link List}. Vectors cannot be keys.
   *
   * @param element the element type (not counter; nested collections must be frozen)
   * @param dimension the number of elements, at least 1
   * @return the vector type
   */
  public static DataType vector(DataType element, int dimension) {
    DataTypeRules.checkInside("vector", element);
    if (!element.isFrozenOrSimple()) {
      throw new InvalidSchemaException(
          "non-frozen " + element.cqlName() + " is not allowed inside a vector; use frozen(...)");
    }
    if (dimension < 1) {
      throw new InvalidSchemaException(
          "a vector needs a dimension of at least 1, got " + dimension);
    }
    Class<?> java = element.equals(FLOAT) ? float[].class : List.class;
    return new DataType(Kind.VECTOR, java, true, List.of(element), null, dimension);
  }

  /**
   * The frozen form of a collection or user type: one value, rewritten whole on every write, which
   * can be part of a primary key. Freezing a native type, tuple or vector returns it unchanged.
   *
   * @param type the type to freeze
   * @return the frozen type
   */
  public static DataType frozen(DataType type) {
    Objects.requireNonNull(type, "type");
    if (type.frozen || !type.isMultiCellKind()) {
      return type;
    }
    List<DataType> inner = new ArrayList<>();
    for (DataType c : type.components) {
      inner.add(c.frozenInside());
    }
    return new DataType(
        type.kind, type.javaType, true, List.copyOf(inner), type.userType, type.dimension);
  }

  boolean isMultiCellKind() {
    return kind == Kind.LIST || kind == Kind.SET || kind == Kind.MAP || kind == Kind.UDT;
  }

  private boolean isFrozenOrSimple() {
    return frozen || !isMultiCellKind();
  }

  /** This type as it is stored inside a frozen value: collections and user types frozen. */
  private DataType frozenInside() {
    return frozen(this);
  }

  /** What this type is. */
  public Kind kind() {
    return kind;
  }

  /** The class of this type's values as returned by Talus. */
  public Class<?> javaType() {
    return javaType;
  }

  /**
   * Tells whether this is a frozen collection or user type (tuples and vectors are always frozen;
   * native types are neither).
   *
   * @return true if values of this type are stored as one value and it is a parameterised kind
   */
  public boolean isFrozen() {
    return frozen;
  }

  /**
   * Tells whether values of this type are stored one cell per element: a non-frozen list, set, map
   * or user type.
   *
   * @return true for non-frozen collections and user types
   */
  public boolean isMultiCell() {
    return isMultiCellKind() && !frozen;
  }

  /** True for a list, set or map, frozen or not. */
  public boolean isCollection() {
    return kind == Kind.LIST || kind == Kind.SET || kind == Kind.MAP;
  }

  /**
   * The element type of a list, set or vector, the key type of a map; else {@link
   * IllegalStateException}.
   */
  public DataType elementType() {
    if (kind != Kind.LIST && kind != Kind.SET && kind != Kind.VECTOR && kind != Kind.MAP) {
      throw new IllegalStateException(cqlName() + " has no element type");
    }
    return components.get(0);
  }

  /** The value type of a map; {@link IllegalStateException} for other kinds. */
  public DataType valueType() {
    if (kind != Kind.MAP) {
      throw new IllegalStateException(cqlName() + " has no value type");
    }
    return components.get(1);
  }

  /**
   * The component types: a tuple's components, a user type's field types, a map's key and value,
   * the element of a list, set or vector; empty for native types.
   *
   * @return an immutable list
   */
  public List<DataType> componentTypes() {
    return components;
  }

  /** The user type of a {@link Kind#UDT}; {@link IllegalStateException} for other kinds. */
  public UserType userType() {
    if (kind != Kind.UDT) {
      throw new IllegalStateException(cqlName() + " is not a user type");
    }
    return userType;
  }

  /** The number of elements of a vector; {@link IllegalStateException} for other kinds. */
  public int dimension() {
    if (kind != Kind.VECTOR) {
      throw new IllegalStateException(cqlName() + " is not a vector");
    }
    return dimension;
  }

  /** Whether columns of this type can be part of a primary key (see the class documentation). */
  public boolean canBeKey() {
    return switch (kind) {
      case DURATION, COUNTER, VECTOR -> false;
      case LIST, SET, MAP, UDT -> frozen && components.stream().allMatch(DataType::canBeKey);
      case TUPLE -> components.stream().allMatch(DataType::canBeKey);
      default -> true;
    };
  }

  /**
   * The constant name of a native type (e.g. {@code "TEXT"}, as an enum's {@code name()}), or the
   * CQL name of any other type.
   *
   * @return the name
   */
  public String name() {
    return isNative() ? kind.name() : cqlName();
  }

  /** True for the native types ({@link #values()}). */
  public boolean isNative() {
    return kind.ordinal() <= Kind.COUNTER.ordinal();
  }

  /**
   * Returns the CQL name of this type, e.g. {@code "timeuuid"}, {@code "set<text>"}, {@code
   * "frozen<map<int, text>>"}, {@code "tuple<int, text>"}, {@code "frozen<address>"}, {@code
   * "vector<float, 3>"}.
   *
   * @return the CQL name
   */
  public String cqlName() {
    return DataTypeRules.cqlName(this, userType);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DataType t
        && t.kind == kind
        && t.frozen == frozen
        && t.dimension == dimension
        && t.components.equals(components)
        && Objects.equals(
            t.userType == null ? null : t.userType.name(),
            userType == null ? null : userType.name());
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, frozen, dimension, components);
  }

  @Override
  public String toString() {
    return name();
  }
}
