package dev.talus.db;

import dev.talus.DataType;
import dev.talus.codec.TypeCodec;
import dev.talus.data.Murmur3;
import java.util.Comparator;

/**
 * The value encodings the public API's helpers ({@code Buckets}) share with the engine, so that a
 * hash bucket computed in the API is the one the engine would compute, and values compare in their
 * type's order. Stateless.
 */
public final class ValueCodecs {
  private ValueCodecs() {}

  /**
   * The first 64 bits of the Murmur3 hash of {@code value}'s serialized form as {@code type}.
   *
   * @throws IllegalArgumentException if the value does not fit the type
   */
  public static long hash(DataType type, Object value) {
    TypeCodec<?> codec = TypeCodec.of(type);
    byte[] bytes = codec.serialize(codec.coerce(value));
    return Murmur3.hash128(bytes, 0, bytes.length)[0];
  }

  /** The natural order of {@code type}'s canonical values. */
  public static Comparator<Object> order(DataType type) {
    return TypeCodec.of(type).comparator();
  }
}
