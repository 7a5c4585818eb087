package dev.talus.codec;

import dev.talus.DataType;
import dev.talus.DurationValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/** Random and edge-case user values of every type, biased towards encoding corner cases. */
final class RandomValues {
  private static final long MAX_UUID_TIMESTAMP = (1L << 60) - 1;

  private RandomValues() {}

  /** The edge cases of a type, as user values. */
  static List<Object> edgeCases(DataType type) {
    List<Object> v = new ArrayList<>();
    switch (type.kind()) {
      case TEXT -> {
        v.addAll(
            List.of(
                "", "\u0000", "\u0000\u0000", "\u0000\u00ff", "a", "a\u0000", "a\u0000b", "ab"));
        v.addAll(List.of("\u007f", "\u0080", "\u07ff", "\u0800", "\ud7ff", "\ue000", "\uffff"));
        v.addAll(List.of("\ud800\udc00", "\ud83d\ude00", "\udbff\udfff", "\ud83d\ude00\u0000"));
      }
      case ASCII -> v.addAll(List.of("", "\u0000", "\u0000\u0000", "a", "a\u0000", "\u007f"));
      case BLOB -> {
        v.add(new byte[0]);
        v.add(new byte[] {0});
        v.add(new byte[] {0, 0});
        v.add(new byte[] {0, (byte) 0xFF});
        v.add(new byte[] {(byte) 0xFF});
        v.add(new byte[] {(byte) 0xFF, 0});
        v.add(new byte[] {1, 0});
      }
      case BOOLEAN -> v.addAll(List.of(true, false));
      case TINYINT -> v.addAll(List.of(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0, (byte) -1));
      case SMALLINT -> v.addAll(List.of(Short.MIN_VALUE, Short.MAX_VALUE, (short) 0, (short) -1));
      case INT -> v.addAll(List.of(Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, 1));
      case BIGINT, COUNTER -> v.addAll(List.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, 1L));
      case FLOAT -> {
        v.addAll(List.of(Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY));
        v.addAll(List.of(0.0f, -0.0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MAX_VALUE));
        v.addAll(List.of(-Float.MAX_VALUE, Float.MIN_NORMAL, 1.0f, -1.0f));
        v.add(Float.intBitsToFloat(0x7fc00001));
        v.add(Float.intBitsToFloat(0xffc00000));
      }
      case DOUBLE -> {
        v.addAll(List.of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY));
        v.addAll(List.of(0.0, -0.0, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE));
        v.addAll(List.of(-Double.MAX_VALUE, Double.MIN_NORMAL, 1.0, -1.0, 1.0f));
        v.add(Double.longBitsToDouble(0xfff8000000000001L));
      }
      case VARINT -> {
        v.addAll(List.of(0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, BigInteger.ZERO));
        for (int bits : new int[] {7, 8, 15, 16, 63, 64, 1000}) {
          BigInteger p = BigInteger.ONE.shiftLeft(bits);
          v.addAll(
              List.of(p, p.negate(), p.subtract(BigInteger.ONE), p.negate().add(BigInteger.ONE)));
          v.addAll(List.of(p.add(BigInteger.ONE), p.negate().subtract(BigInteger.ONE)));
        }
      }
      case DECIMAL -> {
        v.addAll(List.of(BigDecimal.ZERO, new BigDecimal("0.000"), new BigDecimal("0E+5")));
        v.addAll(List.of(new BigDecimal("1"), new BigDecimal("1.0"), new BigDecimal("1.00")));
        v.addAll(List.of(new BigDecimal("-1"), new BigDecimal("-1.0"), new BigDecimal("10")));
        v.addAll(List.of(new BigDecimal("1E+1"), new BigDecimal("0.1"), new BigDecimal("0.12")));
        v.addAll(List.of(new BigDecimal("-0.1"), new BigDecimal("-0.12"), new BigDecimal("9.99")));
        v.addAll(List.of(new BigDecimal("1E-400"), new BigDecimal("-1E+400"), 7, Long.MIN_VALUE));
        v.add(new BigDecimal(BigInteger.valueOf(7), Integer.MAX_VALUE));
        v.add(new BigDecimal(BigInteger.valueOf(-7), Integer.MAX_VALUE));
        v.add(new BigDecimal(BigInteger.valueOf(123), Integer.MIN_VALUE));
        v.add(new BigDecimal(BigInteger.valueOf(-123), Integer.MIN_VALUE));
        v.add(new BigDecimal(BigInteger.TEN.pow(50), Integer.MAX_VALUE));
      }
      case UUID -> {
        v.add(new UUID(0, 0));
        v.add(new UUID(-1, -1));
        v.add(new UUID(Long.MIN_VALUE, Long.MAX_VALUE));
        v.add(new UUID(Long.MAX_VALUE, Long.MIN_VALUE));
        v.add(new UUID(0, -1));
        v.add(new UUID(-1, 0));
      }
      case TIMEUUID -> {
        for (long ts : new long[] {0, 1, MAX_UUID_TIMESTAMP, 1L << 32, 1L << 48}) {
          for (long lsb : new long[] {0, -1, Long.MIN_VALUE, Long.MAX_VALUE}) {
            v.add(timeUuid(ts, lsb));
          }
        }
      }
      case TIMESTAMP -> {
        for (long millis : new long[] {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1}) {
          v.add(Instant.ofEpochMilli(millis));
        }
      }
      case DATE -> v.addAll(List.of(LocalDate.MIN, LocalDate.MAX, LocalDate.EPOCH));
      case TIME -> v.addAll(List.of(LocalTime.MIN, LocalTime.MAX, LocalTime.NOON));
      case INET -> {
        v.add(inet(new byte[4]));
        v.add(inet(new byte[] {-1, -1, -1, -1}));
        v.add(inet(new byte[16]));
        byte[] ones = new byte[16];
        java.util.Arrays.fill(ones, (byte) -1);
        v.add(inet(ones));
        byte[] loopback = new byte[16];
        loopback[15] = 1;
        v.add(inet(loopback));
      }
      case DURATION -> {
        v.add(DurationValue.of(0, 0, 0));
        v.add(DurationValue.of(Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE));
        v.add(DurationValue.of(Integer.MIN_VALUE, Integer.MIN_VALUE, Long.MIN_VALUE));
        v.add(DurationValue.of(1, 0, 0));
        v.add(DurationValue.of(0, -1, 0));
      }
    }
    return v;
  }

  /** A random user value of a type. */
  static Object next(DataType type, Random rnd) {
    return switch (type.kind()) {
      case TEXT -> text(rnd);
      case ASCII -> ascii(rnd);
      case BLOB -> blob(rnd);
      case BOOLEAN -> rnd.nextBoolean();
      case TINYINT -> (byte) integral(rnd);
      case SMALLINT -> (short) integral(rnd);
      case INT -> (int) integral(rnd);
      case BIGINT, COUNTER -> integral(rnd);
      case FLOAT ->
          rnd.nextInt(4) == 0 ? (float) rnd.nextGaussian() : Float.intBitsToFloat(rnd.nextInt());
      case DOUBLE ->
          rnd.nextInt(4) == 0 ? rnd.nextGaussian() : Double.longBitsToDouble(rnd.nextLong());
      case VARINT -> bigInteger(rnd);
      case DECIMAL -> decimal(rnd);
      case UUID -> new UUID(rnd.nextLong(), rnd.nextLong());
      case TIMEUUID -> timeUuid(rnd.nextLong() & MAX_UUID_TIMESTAMP, rnd.nextLong());
      case TIMESTAMP ->
          Instant.ofEpochMilli(
              rnd.nextBoolean() ? rnd.nextLong() : 1_800_000_000_000L + rnd.nextInt(1_000_000));
      case DATE ->
          LocalDate.ofEpochDay(
              rnd.nextBoolean()
                  ? LocalDate.MIN.toEpochDay()
                      + (long)
                          (rnd.nextDouble()
                              * (LocalDate.MAX.toEpochDay() - LocalDate.MIN.toEpochDay()))
                  : 20_000 + rnd.nextInt(1000) - 500);
      case TIME -> LocalTime.ofNanoOfDay((rnd.nextLong() >>> 1) % LocalTime.MAX.toNanoOfDay());
      case INET -> {
        byte[] b = new byte[rnd.nextBoolean() ? 4 : 16];
        rnd.nextBytes(b);
        if (rnd.nextInt(4) == 0) {
          b[0] = 0;
        }
        yield inet(b);
      }
      case DURATION -> {
        int sign = rnd.nextBoolean() ? 1 : -1;
        yield DurationValue.of(
            sign * rnd.nextInt(1000),
            sign * rnd.nextInt(100_000),
            sign * (rnd.nextLong() >>> rnd.nextInt(64) >>> 1));
      }
      default -> throw new IllegalArgumentException("not a native type: " + type);
    };
  }

  private static long integral(Random rnd) {
    return switch (rnd.nextInt(4)) {
      case 0 -> rnd.nextInt(21) - 10;
      case 1 -> rnd.nextLong() >> rnd.nextInt(64);
      default -> rnd.nextLong();
    };
  }

  private static String text(Random rnd) {
    int length = rnd.nextInt(10) == 0 ? rnd.nextInt(100) : rnd.nextInt(8);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < length; i++) {
      int cp =
          switch (rnd.nextInt(8)) {
            case 0 -> 0;
            case 1 -> 'a' + rnd.nextInt(3);
            case 2 -> rnd.nextInt(0x80);
            case 3 -> 0x80 + rnd.nextInt(0x800 - 0x80);
            case 4 -> 0xE000 + rnd.nextInt(0x2000);
            case 5 -> 0x10000 + rnd.nextInt(Character.MAX_CODE_POINT - 0xFFFF);
            case 6 -> 0x1F600 + rnd.nextInt(3);
            default -> rnd.nextInt(Character.MIN_SURROGATE);
          };
      sb.appendCodePoint(cp);
    }
    return sb.toString();
  }

  private static String ascii(Random rnd) {
    int length = rnd.nextInt(8);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < length; i++) {
      sb.append((char) (rnd.nextInt(3) == 0 ? rnd.nextInt(3) : rnd.nextInt(0x80)));
    }
    return sb.toString();
  }

  private static byte[] blob(Random rnd) {
    byte[] b = new byte[rnd.nextInt(10) == 0 ? rnd.nextInt(100) : rnd.nextInt(6)];
    for (int i = 0; i < b.length; i++) {
      int r = rnd.nextInt(4);
      b[i] = r == 0 ? 0 : r == 1 ? (byte) 0xFF : (byte) rnd.nextInt();
    }
    return b;
  }

  private static BigInteger bigInteger(Random rnd) {
    int bits =
        switch (rnd.nextInt(4)) {
          case 0 -> rnd.nextInt(10);
          case 1 -> rnd.nextInt(2000);
          default -> rnd.nextInt(130);
        };
    BigInteger v = new BigInteger(bits, rnd);
    return rnd.nextBoolean() ? v.negate() : v;
  }

  private static BigDecimal decimal(Random rnd) {
    BigInteger unscaled = bigInteger(rnd);
    if (rnd.nextInt(3) == 0) {
      unscaled = unscaled.multiply(BigInteger.TEN.pow(rnd.nextInt(5)));
    }
    int scale =
        switch (rnd.nextInt(10)) {
          case 0 -> Integer.MAX_VALUE - rnd.nextInt(1000);
          case 1 -> Integer.MIN_VALUE + 1000 + rnd.nextInt(1000);
          default -> rnd.nextInt(81) - 40;
        };
    return new BigDecimal(unscaled, scale);
  }

  static UUID timeUuid(long timestamp, long lsb) {
    long msb =
        (timestamp << 32)
            | ((timestamp >>> 16) & 0xFFFF_0000L)
            | 0x1000L
            | ((timestamp >>> 48) & 0x0FFFL);
    return new UUID(msb, lsb);
  }

  static InetAddress inet(byte[] bytes) {
    try {
      return InetAddress.getByAddress(bytes);
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }
}
