package dev.talus.codec;

import dev.talus.DataType;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.function.LongFunction;

/**
 * Codecs of the fixed-width types: boolean, tinyint, smallint, int, bigint, float and double.
 *
 * <p>Cell encodings: boolean is one byte 0 or 1; integers (and a counter's total) are big-endian
 * two's complement of their width (1, 2, 4, 8 bytes); floats are the big-endian bits of {@link
 * Float#floatToIntBits} and {@link Double#doubleToLongBits} (so every NaN is stored as the
 * canonical NaN).
 *
 * <p>Key encodings have the same width. Integers flip the sign bit, so negative numbers sort before
 * positive ones. Floats take the canonical bits; a negative value (sign bit set) has all its bits
 * inverted, which reverses the order of magnitudes, and a non-negative value has its sign bit
 * flipped, which puts it above all negatives. The result follows {@link Float#compare} and {@link
 * Double#compare}: {@code -Infinity < ... < -0.0 < 0.0 < ... < Infinity < NaN}.
 *
 * <p>Natural orders: numeric for integers, {@link Float#compare}/{@link Double#compare} for floats,
 * {@code false < true} for booleans.
 *
 * <p>Coercion: an integer type accepts a {@link Byte}, {@link Short}, {@link Integer}, {@link Long}
 * or {@link BigInteger} whose value fits; float accepts a {@link Float}; double accepts a {@link
 * Double} or a {@link Float}.
 *
 * <p>All codecs here are immutable and thread-safe.
 */
final class FixedWidthCodecs {
  static final TypeCodec<Boolean> BOOLEAN = new BooleanCodec();
  static final TypeCodec<Byte> TINYINT =
      new IntegerCodec<>(DataType.TINYINT, Byte.class, 1, v -> (byte) v);
  static final TypeCodec<Short> SMALLINT =
      new IntegerCodec<>(DataType.SMALLINT, Short.class, 2, v -> (short) v);
  static final TypeCodec<Integer> INT =
      new IntegerCodec<>(DataType.INT, Integer.class, 4, v -> (int) v);
  static final TypeCodec<Long> BIGINT = new IntegerCodec<>(DataType.BIGINT, Long.class, 8, v -> v);

  /** A counter's total: a bigint in its cell encoding, ordered (for filters) but never a key. */
  static final TypeCodec<Long> COUNTER =
      new IntegerCodec<>(DataType.COUNTER, Long.class, 8, v -> v);

  static final TypeCodec<Float> FLOAT = new FloatCodec();
  static final TypeCodec<Double> DOUBLE = new DoubleCodec();

  private FixedWidthCodecs() {}

  /**
   * Returns the value of a user-supplied integer of any integral class, or throws the mismatch
   * error of the codec; a {@link BigInteger} beyond 64 bits is reported as out of range.
   */
  static long integralValue(TypeCodec<?> codec, Object value) {
    if (value instanceof Long || value instanceof Integer) {
      return ((Number) value).longValue();
    }
    if (value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof BigInteger big) {
      if (big.bitLength() > 63) {
        throw codec.invalid(value, value + " is out of range");
      }
      return big.longValue();
    }
    throw codec.mismatch(value);
  }

  private static final class BooleanCodec extends TypeCodec<Boolean> {
    BooleanCodec() {
      super(DataType.BOOLEAN, Boolean.class);
    }

    @Override
    Boolean coerceNonNull(Object value) {
      return cast(value);
    }

    @Override
    void serializeValue(Boolean value, ByteArrayOutputStream out) {
      out.write(value ? 1 : 0);
    }

    @Override
    Boolean deserializeValue(byte[] src, int[] pos) {
      return read(src, pos);
    }

    @Override
    void encodeKeyValue(Boolean value, ByteArrayOutputStream out) {
      out.write(value ? 1 : 0);
    }

    @Override
    Boolean decodeKeyValue(byte[] src, int[] pos) {
      return read(src, pos);
    }

    private static Boolean read(byte[] src, int[] pos) {
      int b = KeyBytes.readByte(src, pos);
      if (b > 1) {
        throw new IllegalArgumentException("Invalid boolean byte " + b);
      }
      return b == 1;
    }

    @Override
    int compareValues(Boolean a, Boolean b) {
      return Boolean.compare(a, b);
    }
  }

  private static final class IntegerCodec<T extends Number> extends TypeCodec<T> {
    private final int width;
    private final int unusedBits;
    private final long min;
    private final long max;
    private final long signBit;
    private final LongFunction<T> box;

    IntegerCodec(DataType type, Class<T> javaType, int width, LongFunction<T> box) {
      super(type, javaType);
      this.width = width;
      this.unusedBits = 64 - 8 * width;
      this.signBit = 1L << (8 * width - 1);
      this.min = -signBit;
      this.max = signBit - 1;
      this.box = box;
    }

    @Override
    boolean ordered() {
      return true;
    }

    @Override
    T coerceNonNull(Object value) {
      if (value.getClass() == javaType()) {
        return javaType().cast(value); // already canonical, and in range by its type
      }
      long v = integralValue(this, value);
      if (v < min || v > max) {
        throw invalid(value, value + " is out of range [" + min + ", " + max + "]");
      }
      return box.apply(v);
    }

    @Override
    void serializeValue(T value, ByteArrayOutputStream out) {
      KeyBytes.writeLong(out, value.longValue(), width);
    }

    @Override
    T deserializeValue(byte[] src, int[] pos) {
      return box.apply(signExtend(KeyBytes.readLong(src, pos, width)));
    }

    @Override
    void encodeKeyValue(T value, ByteArrayOutputStream out) {
      KeyBytes.writeLong(out, value.longValue() ^ signBit, width);
    }

    @Override
    T decodeKeyValue(byte[] src, int[] pos) {
      return box.apply(signExtend(KeyBytes.readLong(src, pos, width) ^ signBit));
    }

    private long signExtend(long v) {
      return (v << unusedBits) >> unusedBits;
    }

    @Override
    int compareValues(T a, T b) {
      return Long.compare(a.longValue(), b.longValue());
    }
  }

  private static final class FloatCodec extends TypeCodec<Float> {
    FloatCodec() {
      super(DataType.FLOAT, Float.class);
    }

    @Override
    Float coerceNonNull(Object value) {
      float f = cast(value);
      return Float.isNaN(f) ? Float.NaN : f;
    }

    @Override
    void serializeValue(Float value, ByteArrayOutputStream out) {
      KeyBytes.writeLong(out, Float.floatToIntBits(value), 4);
    }

    @Override
    Float deserializeValue(byte[] src, int[] pos) {
      return Float.intBitsToFloat((int) KeyBytes.readLong(src, pos, 4));
    }

    @Override
    void encodeKeyValue(Float value, ByteArrayOutputStream out) {
      int bits = Float.floatToIntBits(value);
      KeyBytes.writeLong(out, bits < 0 ? ~bits : bits ^ Integer.MIN_VALUE, 4);
    }

    @Override
    Float decodeKeyValue(byte[] src, int[] pos) {
      int k = (int) KeyBytes.readLong(src, pos, 4);
      return Float.intBitsToFloat(k < 0 ? k ^ Integer.MIN_VALUE : ~k);
    }

    @Override
    int compareValues(Float a, Float b) {
      return Float.compare(a, b);
    }
  }

  private static final class DoubleCodec extends TypeCodec<Double> {
    DoubleCodec() {
      super(DataType.DOUBLE, Double.class);
    }

    @Override
    Double coerceNonNull(Object value) {
      double d;
      if (value instanceof Double boxed) {
        d = boxed;
      } else if (value instanceof Float f) {
        d = f;
      } else {
        throw mismatch(value);
      }
      return Double.isNaN(d) ? Double.NaN : d;
    }

    @Override
    void serializeValue(Double value, ByteArrayOutputStream out) {
      KeyBytes.writeLong(out, Double.doubleToLongBits(value), 8);
    }

    @Override
    Double deserializeValue(byte[] src, int[] pos) {
      return Double.longBitsToDouble(KeyBytes.readLong(src, pos, 8));
    }

    @Override
    void encodeKeyValue(Double value, ByteArrayOutputStream out) {
      long bits = Double.doubleToLongBits(value);
      KeyBytes.writeLong(out, bits < 0 ? ~bits : bits ^ Long.MIN_VALUE, 8);
    }

    @Override
    Double decodeKeyValue(byte[] src, int[] pos) {
      long k = KeyBytes.readLong(src, pos, 8);
      return Double.longBitsToDouble(k < 0 ? k ^ Long.MIN_VALUE : ~k);
    }

    @Override
    int compareValues(Double a, Double b) {
      return Double.compare(a, b);
    }
  }
}
