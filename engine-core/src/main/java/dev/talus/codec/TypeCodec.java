package dev.talus.codec;

import dev.talus.DataType;
import java.io.ByteArrayOutputStream;
import java.util.Comparator;
import java.util.Objects;

/**
 * Validates, orders and encodes the values of one {@link DataType}.
 *
 * <p>Values come in two forms. A <em>user value</em> is whatever the caller supplied; {@link
 * #coerce} checks it and turns it into the <em>canonical value</em>, an instance of {@link
 * DataType#javaType()}. All other methods take canonical values (they re-validate what they encode,
 * so a bad value fails loudly instead of being stored wrongly).
 *
 * <p>Two byte encodings exist:
 *
 * <ul>
 *   <li>the <em>cell encoding</em> ({@link #serialize}, {@link #deserialize}): compact and exact,
 *       used for regular column values; the length of the whole array is known to the caller;
 *   <li>the <em>key encoding</em> ({@link #encodeKey}, {@link #decodeKey}): order-preserving
 *       (comparing two encodings with {@link java.util.Arrays#compareUnsigned(byte[], byte[])}
 *       gives the sign of {@link #compare}) and prefix-free (no encoding is a proper prefix of
 *       another), so a concatenation of the encodings of several columns sorts column by column and
 *       can be split again. Durations have no key encoding.
 * </ul>
 *
 * <p>The layouts and natural orders of each type are documented on the implementing classes: {@code
 * FixedWidthCodecs} (boolean, integers, floats), {@code NumberCodecs} (varint, decimal), {@code
 * TextCodecs} (text, ascii, blob), {@code UuidCodecs} (uuid, timeuuid), {@code TemporalCodecs}
 * (timestamp, date, time, duration) and {@code InetCodec}.
 *
 * <p>Codecs are stateless, immutable and thread-safe; {@link #of} returns shared instances. The
 * class cannot be extended outside this package: the set of types is closed.
 *
 * @param <T> the canonical Java type of the values
 */
public abstract class TypeCodec<T> {
  private final DataType type;
  private final Class<T> javaType;

  TypeCodec(DataType type, Class<T> javaType) {
    this.type = type;
    this.javaType = javaType;
  }

  /**
   * Returns the codec of a type.
   *
   * @param type the column type
   * @return the shared codec of that type
   */
  public static TypeCodec<?> of(DataType type) {
    return switch (Objects.requireNonNull(type, "type").kind()) {
      case TEXT -> TextCodecs.TEXT;
      case ASCII -> TextCodecs.ASCII;
      case BLOB -> TextCodecs.BLOB;
      case BOOLEAN -> FixedWidthCodecs.BOOLEAN;
      case TINYINT -> FixedWidthCodecs.TINYINT;
      case SMALLINT -> FixedWidthCodecs.SMALLINT;
      case INT -> FixedWidthCodecs.INT;
      case BIGINT -> FixedWidthCodecs.BIGINT;
      case FLOAT -> FixedWidthCodecs.FLOAT;
      case DOUBLE -> FixedWidthCodecs.DOUBLE;
      case VARINT -> NumberCodecs.VARINT;
      case DECIMAL -> NumberCodecs.DECIMAL;
      case UUID -> UuidCodecs.UUID;
      case TIMEUUID -> UuidCodecs.TIMEUUID;
      case TIMESTAMP -> TemporalCodecs.TIMESTAMP;
      case DATE -> TemporalCodecs.DATE;
      case TIME -> TemporalCodecs.TIME;
      case DURATION -> TemporalCodecs.DURATION;
      case INET -> InetCodec.INET;
      case COUNTER -> FixedWidthCodecs.COUNTER;
      case LIST, SET, MAP -> new CollectionCodec(type);
      case TUPLE, UDT -> new TupleCodec(type);
      case VECTOR -> new VectorCodec(type);
    };
  }

  /**
   * The codec of a value nested inside a collection, tuple, user type or vector: the type's own
   * codec, except that a blob is a read-only {@link java.nio.ByteBuffer} there (a {@code byte[]}
   * has no value equality, so it could not be a set element or a map key).
   *
   * @param type the nested type
   * @return its codec
   */
  public static TypeCodec<?> nested(DataType type) {
    return type.kind() == DataType.Kind.BLOB ? TextCodecs.BLOB_BUFFER : of(type);
  }

  /**
   * Returns the type this codec handles.
   *
   * @return the column type
   */
  public final DataType type() {
    return type;
  }

  /**
   * Returns the class of canonical values, the same as {@code type().javaType()}.
   *
   * @return the canonical Java class
   */
  public final Class<T> javaType() {
    return javaType;
  }

  /**
   * Validates a user-supplied value and returns its canonical form. Integers may be widened (and
   * narrowed when the value fits), a {@link Float} is accepted for a double, and mutable values
   * ({@code byte[]}) are copied.
   *
   * @param value the user value
   * @return the canonical value, an instance of {@link #javaType()}
   * @throws IllegalArgumentException if the value is null, of a class this type does not accept, or
   *     out of the type's range; the message names the type, the expected and the received class
   */
  public final T coerce(Object value) {
    if (value == null) {
      throw new IllegalArgumentException(
          "Cannot use null as a " + type.cqlName() + " value: expected " + javaType.getName());
    }
    return coerceNonNull(value);
  }

  /**
   * Returns the cell encoding of a value.
   *
   * @param canonicalValue a canonical value of this type
   * @return its exact, compact encoding
   * @throws IllegalArgumentException if the value is not valid for this type
   */
  public final byte[] serialize(Object canonicalValue) {
    return encode(checked(canonicalValue));
  }

  /**
   * Like {@link #serialize}, for a value {@link #coerce} has just returned that the caller hands
   * over: nothing else references it. A blob's encoding is then that array itself, not a copy.
   *
   * @param coercedValue a value returned by {@link #coerce} and not shared
   * @return its cell encoding
   */
  public byte[] serializeOwned(Object coercedValue) {
    return serialize(coercedValue);
  }

  /**
   * The cell encoding of a checked value, as a fresh array; codecs whose encoding is one array at
   * hand override it to skip the stream.
   */
  byte[] encode(T value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    serializeValue(value, out);
    return out.toByteArray();
  }

  /**
   * Decodes a cell encoding produced by {@link #serialize}.
   *
   * @param bytes the whole encoding
   * @return a canonical value equal to the serialized one (a decimal keeps its scale)
   * @throws IllegalArgumentException if the bytes are not a valid encoding of this type
   */
  /**
   * Like {@link #deserialize}, for a caller that hands over {@code bytes}: a fresh array nothing
   * else references. A blob is then returned as the array itself instead of a copy.
   */
  public T deserializeOwned(byte[] bytes) {
    return deserialize(bytes);
  }

  public final T deserialize(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    int[] pos = {0};
    T value = deserializeValue(bytes, pos);
    if (pos[0] != bytes.length) {
      throw new IllegalArgumentException(
          "Trailing bytes after a " + type.cqlName() + " value: " + (bytes.length - pos[0]));
    }
    return value;
  }

  /**
   * Appends the order-preserving, prefix-free key encoding of a value.
   *
   * @param canonicalValue a canonical value of this type
   * @param out where to append the encoding
   * @throws IllegalArgumentException if the value is not valid for this type, or the type cannot be
   *     part of a key ({@link DataType#DURATION})
   */
  public final void encodeKey(Object canonicalValue, ByteArrayOutputStream out) {
    requireKeyType();
    Objects.requireNonNull(out, "out");
    encodeKeyValue(checked(canonicalValue), out);
  }

  /**
   * Decodes one key component written by {@link #encodeKey}.
   *
   * @param src the bytes holding the encoding
   * @param position a one-element array: on entry the offset of the component, on return the offset
   *     just past it
   * @return the canonical value; for a decimal, the value with trailing zeros stripped
   * @throws IllegalArgumentException if the bytes are not a valid key encoding of this type, or the
   *     type cannot be part of a key
   */
  public final T decodeKey(byte[] src, int[] position) {
    requireKeyType();
    Objects.requireNonNull(src, "src");
    if (position.length != 1) {
      throw new IllegalArgumentException("position must have exactly one element");
    }
    int[] pos = {position[0]};
    T value = decodeKeyValue(src, pos);
    position[0] = pos[0];
    return value;
  }

  /**
   * Compares two canonical values in the natural order of this type, the order of key columns.
   *
   * @param a a canonical value
   * @param b a canonical value
   * @return a negative number, zero or a positive number as {@code a} sorts before, with or after
   *     {@code b}
   * @throws IllegalArgumentException if a value is not of {@link #javaType()}, or the type has no
   *     order ({@link DataType#DURATION})
   */
  public final int compare(Object a, Object b) {
    if (!ordered()) {
      requireKeyType();
    }
    return compareValues(cast(a), cast(b));
  }

  /** Whether values have a natural order: key types, and counters (numbers that are no keys). */
  boolean ordered() {
    return type.canBeKey();
  }

  /**
   * Renders a value as a CQL literal, as in a result column's name ({@code m['k']}): text quoted
   * with single quotes, collections and tuples in CQL's brackets, everything else as {@link
   * #format}.
   *
   * @param value a canonical value
   * @return its literal
   */
  public String literal(Object value) {
    return format(value);
  }

  /**
   * Returns the natural order of this type as a comparator over canonical values.
   *
   * @return a comparator delegating to {@link #compare}
   */
  public final Comparator<Object> comparator() {
    return this::compare;
  }

  /**
   * Renders a value for people: text as is, blobs as {@code 0x}-prefixed hex, timestamps in
   * ISO-8601, addresses as literals, and so on.
   *
   * @param value a canonical value
   * @return its readable form
   * @throws IllegalArgumentException if the value is not of {@link #javaType()}
   */
  public final String format(Object value) {
    return formatValue(cast(value));
  }

  @Override
  public String toString() {
    return "TypeCodec[" + type.cqlName() + "]";
  }

  /** Coerces a non-null user value. */
  abstract T coerceNonNull(Object value);

  /** Validates a value about to be encoded; codecs holding mutable values skip the copy. */
  T checked(Object canonicalValue) {
    return coerce(canonicalValue);
  }

  abstract void serializeValue(T value, ByteArrayOutputStream out);

  /** Reads a cell encoding from pos[0]; the caller checks that it ends at the end of the array. */
  abstract T deserializeValue(byte[] src, int[] pos);

  abstract void encodeKeyValue(T value, ByteArrayOutputStream out);

  abstract T decodeKeyValue(byte[] src, int[] pos);

  abstract int compareValues(T a, T b);

  String formatValue(T value) {
    return value.toString();
  }

  final T cast(Object value) {
    if (!javaType.isInstance(value)) {
      throw mismatch(value);
    }
    return javaType.cast(value);
  }

  final IllegalArgumentException mismatch(Object value) {
    return new IllegalArgumentException(
        "Cannot use "
            + (value == null ? "null" : "a " + value.getClass().getName())
            + " as a "
            + type.cqlName()
            + " value: expected "
            + javaType.getName());
  }

  final IllegalArgumentException invalid(Object value, String reason) {
    // the classes are worth naming only when a conversion was involved
    String classes =
        value.getClass() == javaType
            ? ""
            : " (" + value.getClass().getName() + ", expected " + javaType.getName() + ")";
    return new IllegalArgumentException(
        "Invalid " + type.cqlName() + " value" + classes + ": " + reason);
  }

  private void requireKeyType() {
    if (!type.canBeKey()) {
      throw new IllegalArgumentException(
          type.cqlName() + " values have no order and cannot be part of a key");
    }
  }
}
