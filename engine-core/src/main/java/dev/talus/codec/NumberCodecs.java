package dev.talus.codec;

import dev.talus.DataType;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Codecs of the arbitrary-precision numbers: varint and decimal. Both sort numerically.
 *
 * <p>Cell encodings: a varint is its minimal big-endian two's complement ({@link
 * BigInteger#toByteArray}); a decimal is its scale as a 4-byte big-endian int followed by the two's
 * complement of its unscaled value, so the scale survives ({@code 1.0} stays {@code 1.0}).
 *
 * <p>Key encoding of a varint: one sign byte ({@code 0x7F} negative, {@code 0x80} zero, {@code
 * 0x81} positive), nothing more for zero; otherwise the length {@code n} of the magnitude in bytes
 * (unsigned big-endian, no leading zero byte) as a 4-byte big-endian int, then the magnitude. For
 * negative numbers the length and magnitude bytes are inverted, so larger magnitudes sort first.
 *
 * <p>Key encoding of a decimal: the value is normalised with {@link
 * BigDecimal#stripTrailingZeros()} and seen as {@code ±0.d1d2...dp × 10^e} with {@code d1 != 0} and
 * {@code dp != 0}. It is one sign byte (as for varint), nothing more for zero; otherwise the
 * exponent {@code e} as an 8-byte big-endian long with the sign bit flipped, then each digit {@code
 * d} as the byte {@code d + 1}, then a {@code 0x00} terminator (which sorts below every digit, so
 * {@code 0.1} sorts before {@code 0.12}). For negative numbers the exponent, digit and terminator
 * bytes are all inverted. Decimals equal in {@link BigDecimal#compareTo} (e.g. {@code 1.0} and
 * {@code 1.00}) thus have the same key, and decoding returns the normalised value. A decimal whose
 * scale would overflow an int once trailing zeros are stripped (e.g. {@code 10} with scale {@link
 * Integer#MIN_VALUE}) is a valid cell value but is rejected as a key.
 *
 * <p>Coercion: varint accepts a {@link BigInteger}, {@link Long}, {@link Integer}, {@link Short} or
 * {@link Byte}; decimal accepts a {@link BigDecimal} or any of these integers (scale 0). Binary
 * floating-point values are rejected for decimal since they are rarely the decimal the user means.
 * Subclasses of {@code BigInteger} and {@code BigDecimal} (which could be mutable) are copied.
 *
 * <p>All codecs here are immutable and thread-safe.
 */
final class NumberCodecs {
  static final TypeCodec<BigInteger> VARINT = new VarintCodec();
  static final TypeCodec<BigDecimal> DECIMAL = new DecimalCodec();

  private static final int NEGATIVE = 0x7F;
  private static final int ZERO = 0x80;
  private static final int POSITIVE = 0x81;

  private NumberCodecs() {}

  private static int readSign(byte[] src, int[] pos) {
    int sign = KeyBytes.readByte(src, pos);
    if (sign != NEGATIVE && sign != ZERO && sign != POSITIVE) {
      throw new IllegalArgumentException("Invalid sign byte 0x" + Integer.toHexString(sign));
    }
    return sign;
  }

  private static BigInteger toBigInteger(TypeCodec<?> codec, Object value) {
    if (value instanceof BigInteger big) {
      return big.getClass() == BigInteger.class ? big : new BigInteger(big.toByteArray());
    }
    return BigInteger.valueOf(FixedWidthCodecs.integralValue(codec, value));
  }

  private static BigInteger readTwosComplement(byte[] src, int[] pos) {
    int length = src.length - pos[0];
    if (length <= 0) {
      throw new IllegalArgumentException("Missing integer bytes");
    }
    return new BigInteger(KeyBytes.readBytes(src, pos, length));
  }

  private static final class VarintCodec extends TypeCodec<BigInteger> {
    VarintCodec() {
      super(DataType.VARINT, BigInteger.class);
    }

    @Override
    BigInteger coerceNonNull(Object value) {
      return toBigInteger(this, value);
    }

    @Override
    void serializeValue(BigInteger value, ByteArrayOutputStream out) {
      out.writeBytes(value.toByteArray());
    }

    @Override
    BigInteger deserializeValue(byte[] src, int[] pos) {
      return readTwosComplement(src, pos);
    }

    @Override
    void encodeKeyValue(BigInteger value, ByteArrayOutputStream out) {
      int signum = value.signum();
      if (signum == 0) {
        out.write(ZERO);
        return;
      }
      byte[] magnitude = value.abs().toByteArray();
      int offset = magnitude[0] == 0 ? 1 : 0;
      int length = magnitude.length - offset;
      int mask = signum < 0 ? 0xFF : 0;
      out.write(signum < 0 ? NEGATIVE : POSITIVE);
      KeyBytes.writeLong(out, signum < 0 ? ~length : length, 4);
      for (int i = offset; i < magnitude.length; i++) {
        out.write((magnitude[i] & 0xFF) ^ mask);
      }
    }

    @Override
    BigInteger decodeKeyValue(byte[] src, int[] pos) {
      int sign = readSign(src, pos);
      if (sign == ZERO) {
        return BigInteger.ZERO;
      }
      int length = (int) KeyBytes.readLong(src, pos, 4);
      if (sign == NEGATIVE) {
        length = ~length;
      }
      if (length <= 0) {
        throw new IllegalArgumentException("Invalid varint length " + length);
      }
      byte[] magnitude = KeyBytes.readBytes(src, pos, length);
      if (sign == NEGATIVE) {
        for (int i = 0; i < length; i++) {
          magnitude[i] = (byte) ~magnitude[i];
        }
      }
      if (magnitude[0] == 0) {
        throw new IllegalArgumentException("Varint key with a leading zero byte");
      }
      return new BigInteger(sign == NEGATIVE ? -1 : 1, magnitude);
    }

    @Override
    int compareValues(BigInteger a, BigInteger b) {
      return a.compareTo(b);
    }
  }

  private static final class DecimalCodec extends TypeCodec<BigDecimal> {
    private static final int TERMINATOR = 0x00;

    DecimalCodec() {
      super(DataType.DECIMAL, BigDecimal.class);
    }

    @Override
    BigDecimal coerceNonNull(Object value) {
      if (value instanceof BigDecimal dec) {
        return dec.getClass() == BigDecimal.class
            ? dec
            : new BigDecimal(new BigInteger(dec.unscaledValue().toByteArray()), dec.scale());
      }
      if (value instanceof Float || value instanceof Double) {
        throw invalid(
            value, "binary floating-point values are not accepted, use BigDecimal.valueOf");
      }
      return new BigDecimal(toBigInteger(this, value));
    }

    @Override
    void serializeValue(BigDecimal value, ByteArrayOutputStream out) {
      KeyBytes.writeLong(out, value.scale(), 4);
      out.writeBytes(value.unscaledValue().toByteArray());
    }

    @Override
    BigDecimal deserializeValue(byte[] src, int[] pos) {
      int scale = (int) KeyBytes.readLong(src, pos, 4);
      return new BigDecimal(readTwosComplement(src, pos), scale);
    }

    @Override
    void encodeKeyValue(BigDecimal value, ByteArrayOutputStream out) {
      if (value.signum() == 0) {
        out.write(ZERO);
        return;
      }
      BigDecimal normal;
      try {
        normal = value.stripTrailingZeros();
      } catch (ArithmeticException e) {
        throw invalid(value, "scale out of range once trailing zeros are stripped");
      }
      String digits = normal.unscaledValue().abs().toString();
      long exponent = (long) digits.length() - normal.scale();
      boolean negative = normal.signum() < 0;
      int mask = negative ? 0xFF : 0;
      out.write(negative ? NEGATIVE : POSITIVE);
      long flipped = exponent ^ Long.MIN_VALUE;
      KeyBytes.writeLong(out, negative ? ~flipped : flipped, 8);
      for (int i = 0; i < digits.length(); i++) {
        out.write((digits.charAt(i) - '0' + 1) ^ mask);
      }
      out.write(TERMINATOR ^ mask);
    }

    @Override
    BigDecimal decodeKeyValue(byte[] src, int[] pos) {
      int sign = readSign(src, pos);
      if (sign == ZERO) {
        return BigDecimal.ZERO;
      }
      boolean negative = sign == NEGATIVE;
      int mask = negative ? 0xFF : 0;
      long flipped = KeyBytes.readLong(src, pos, 8);
      long exponent = (negative ? ~flipped : flipped) ^ Long.MIN_VALUE;
      StringBuilder digits = new StringBuilder();
      if (negative) {
        digits.append('-');
      }
      while (true) {
        int b = KeyBytes.readByte(src, pos) ^ mask;
        if (b == TERMINATOR) {
          break;
        }
        if (b > 10) {
          throw new IllegalArgumentException("Invalid decimal digit byte " + b);
        }
        digits.append((char) ('0' + b - 1));
      }
      int precision = digits.length() - (negative ? 1 : 0);
      if (precision == 0
          || digits.charAt(negative ? 1 : 0) == '0'
          || digits.charAt(digits.length() - 1) == '0') {
        throw new IllegalArgumentException("Decimal key digits are not normalised: " + digits);
      }
      long scale = precision - exponent;
      if (scale != (int) scale) {
        throw new IllegalArgumentException("Decimal key exponent out of range: " + exponent);
      }
      return new BigDecimal(new BigInteger(digits.toString()), (int) scale);
    }

    @Override
    int compareValues(BigDecimal a, BigDecimal b) {
      return a.compareTo(b);
    }
  }
}
