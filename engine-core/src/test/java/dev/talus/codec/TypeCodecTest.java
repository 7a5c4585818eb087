package dev.talus.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.DataType;
import dev.talus.DurationValue;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class TypeCodecTest {
  static java.util.stream.Stream<DataType> nativeTypes() {
    return java.util.Arrays.stream(DataType.values());
  }

  private static TypeCodec<?> codec(DataType type) {
    return TypeCodec.of(type);
  }

  private static byte[] key(DataType type, Object value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    codec(type).encodeKey(value, out);
    return out.toByteArray();
  }

  /**
   * Asserts that coerce rejects the value, naming the type and — when they differ — the expected
   * and the given class (when the class is right, naming it twice is noise).
   */
  private static void assertRejected(DataType type, Object value) {
    var thrown =
        assertThatThrownBy(() -> codec(type).coerce(value))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining(type.cqlName());
    if (value.getClass() != type.javaType()) {
      thrown
          .hasMessageContaining(type.javaType().getName())
          .hasMessageContaining(value.getClass().getName());
    } else {
      thrown.hasMessageNotContaining("expected " + type.javaType().getName());
    }
  }

  @ParameterizedTest
  @MethodSource("nativeTypes")
  void ofReturnsTheCodecOfTheType(DataType type) {
    TypeCodec<?> codec = TypeCodec.of(type);
    assertThat(codec.type()).isEqualTo(type);
    assertThat(codec.javaType()).isEqualTo(type.javaType());
    assertThat(TypeCodec.of(type)).isSameAs(codec);
  }

  @ParameterizedTest
  @MethodSource("nativeTypes")
  void nullAndForeignClassesAreRejected(DataType type) {
    assertThatThrownBy(() -> codec(type).coerce(null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(type.cqlName())
        .hasMessageContaining(type.javaType().getName());
    assertRejected(type, new Object());
    if (type != DataType.TEXT && type != DataType.ASCII) {
      assertRejected(type, "1");
    }
  }

  @Test
  void integersWidenAndNarrowWhenTheValueFits() {
    assertThat(codec(DataType.BIGINT).coerce(5)).isEqualTo(5L);
    assertThat(codec(DataType.BIGINT).coerce((short) -5)).isEqualTo(-5L);
    assertThat(codec(DataType.BIGINT).coerce(BigInteger.valueOf(Long.MIN_VALUE)))
        .isEqualTo(Long.MIN_VALUE);
    assertThat(codec(DataType.INT).coerce((short) 7)).isEqualTo(7);
    assertThat(codec(DataType.INT).coerce((byte) 7)).isEqualTo(7);
    assertThat(codec(DataType.SMALLINT).coerce(-32768)).isEqualTo((short) -32768);
    assertThat(codec(DataType.TINYINT).coerce(127L)).isEqualTo((byte) 127);
    assertThat(codec(DataType.VARINT).coerce(5)).isEqualTo(BigInteger.valueOf(5));
    assertThat(codec(DataType.VARINT).coerce(Long.MAX_VALUE))
        .isEqualTo(BigInteger.valueOf(Long.MAX_VALUE));
    assertThat(codec(DataType.DECIMAL).coerce(5)).isEqualTo(new BigDecimal("5"));
  }

  @Test
  void integersOutOfRangeAreRejected() {
    assertRejected(DataType.TINYINT, 300);
    assertRejected(DataType.TINYINT, -129);
    assertRejected(DataType.SMALLINT, 40_000);
    assertRejected(DataType.INT, Long.MAX_VALUE);
    assertRejected(DataType.BIGINT, BigInteger.ONE.shiftLeft(63));
    assertThatThrownBy(() -> codec(DataType.TINYINT).coerce(300)).hasMessageContaining("300");
  }

  @Test
  void floatingPointRules() {
    assertThat(codec(DataType.DOUBLE).coerce(1.5f)).isEqualTo(1.5d);
    assertThat(codec(DataType.FLOAT).coerce(1.5f)).isEqualTo(1.5f);
    assertRejected(DataType.FLOAT, 1.5d);
    assertRejected(DataType.DOUBLE, 1);
    assertRejected(DataType.INT, 1.0);
    assertRejected(DataType.DECIMAL, 0.1);
    assertRejected(DataType.DECIMAL, 0.1f);
    assertRejected(DataType.VARINT, new BigDecimal("1"));
    Object nan = codec(DataType.DOUBLE).coerce(Double.longBitsToDouble(0x7ff0000000000123L));
    assertThat(Double.doubleToRawLongBits((Double) nan))
        .isEqualTo(Double.doubleToRawLongBits(Double.NaN));
  }

  @Test
  void textTypes() {
    assertThat(codec(DataType.ASCII).coerce("plain\u0000ascii")).isEqualTo("plain\u0000ascii");
    assertRejected(DataType.ASCII, "caf\u00e9");
    assertRejected(DataType.TEXT, "a\ud800");
    assertRejected(DataType.TEXT, "\udc00a");
    assertRejected(DataType.TEXT, 'c');
    assertRejected(DataType.BLOB, "00");
    assertThat(codec(DataType.TEXT).coerce("\ud83d\ude00")).isEqualTo("\ud83d\ude00");
  }

  @Test
  void textDecodesTheSameWhetherAsciiOrNot() {
    for (String v :
        List.of("", "user42", "plain\u0000ascii", "zo\u00eb", "\u65e5\u672c", "\ud83d\ude00x")) {
      TypeCodec<?> text = codec(DataType.TEXT);
      assertThat(text.deserialize(text.serialize(v))).isEqualTo(v);
      assertThat(text.decodeKey(key(DataType.TEXT, v), new int[1])).isEqualTo(v);
    }
    TypeCodec<?> ascii = codec(DataType.ASCII);
    assertThat(ascii.decodeKey(key(DataType.ASCII, "a\u007fb"), new int[1])).isEqualTo("a\u007fb");
    // one byte of 0x80 or above makes the strict decoder judge the whole value
    assertThatThrownBy(() -> ascii.deserialize(new byte[] {'a', 'b', (byte) 0xE9}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> codec(DataType.TEXT).deserialize(new byte[] {'a', (byte) 0xFF}))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void blobsAreCopiedOnTheWayInAndOut() {
    byte[] original = {1, 2, 3};
    byte[] coerced = (byte[]) codec(DataType.BLOB).coerce(original);
    original[0] = 9;
    assertThat(coerced).containsExactly(1, 2, 3);
    byte[] cell = codec(DataType.BLOB).serialize(coerced);
    byte[] decoded = (byte[]) codec(DataType.BLOB).deserialize(cell);
    decoded[1] = 9;
    assertThat(codec(DataType.BLOB).deserialize(cell)).isEqualTo(new byte[] {1, 2, 3});
  }

  @Test
  void uuidsAreNotParsedAndTimeuuidsMustBeVersion1() {
    UUID random = UUID.randomUUID();
    assertThat(codec(DataType.UUID).coerce(random)).isEqualTo(random);
    assertRejected(DataType.UUID, random.toString());
    assertRejected(DataType.TIMEUUID, random.toString());
    assertThatThrownBy(() -> codec(DataType.TIMEUUID).coerce(random))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timeuuid")
        .hasMessageContaining("version 4");
    UUID v1 = RandomValues.timeUuid(123_456_789L, 42L);
    assertThat(codec(DataType.TIMEUUID).coerce(v1)).isEqualTo(v1);
    assertThat(codec(DataType.UUID).coerce(v1)).isEqualTo(v1);
  }

  @Test
  void timestampsRejectSubMillisecondParts() {
    Instant millis = Instant.parse("2026-11-29T12:00:00.123Z");
    assertThat(codec(DataType.TIMESTAMP).coerce(millis)).isEqualTo(millis);
    assertThatThrownBy(() -> codec(DataType.TIMESTAMP).coerce(millis.plusNanos(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timestamp")
        .hasMessageContaining("sub-millisecond");
    assertThatThrownBy(() -> codec(DataType.TIMESTAMP).coerce(Instant.MAX))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timestamp");
    assertRejected(DataType.TIMESTAMP, 1_000L);
    assertRejected(DataType.DATE, Instant.EPOCH);
  }

  @Test
  void inetKeepsOnlyTheAddress() throws Exception {
    InetAddress named = InetAddress.getByAddress("example.org", new byte[] {10, 0, 0, 1});
    InetAddress coerced = (InetAddress) codec(DataType.INET).coerce(named);
    assertThat(coerced).isEqualTo(named);
    assertThat(codec(DataType.INET).format(coerced)).isEqualTo("10.0.0.1");
    byte[] v6 = new byte[16];
    v6[15] = 1;
    InetAddress scoped = Inet6Address.getByAddress(null, v6, 3);
    assertThatThrownBy(() -> codec(DataType.INET).coerce(scoped))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("inet")
        .hasMessageContaining("scope");
  }

  @Test
  void durationsHaveNoKeyAndNoOrder() {
    DurationValue d = DurationValue.of(1, 2, 3);
    TypeCodec<?> codec = codec(DataType.DURATION);
    assertThat(codec.coerce(d)).isEqualTo(d);
    assertThat(codec.deserialize(codec.serialize(d))).isEqualTo(d);
    assertThatThrownBy(() -> codec.encodeKey(d, new ByteArrayOutputStream()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("duration");
    assertThatThrownBy(() -> codec.decodeKey(new byte[3], new int[1]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> codec.compare(d, d)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void textSortsByCodePointNotUtf16() {
    String bmpMax = "\uffff";
    String emoji = "\ud83d\ude00"; // U+1F600, above U+FFFF but its first UTF-16 unit is 0xD83D
    assertThat(bmpMax.compareTo(emoji)).isPositive();
    assertThat(codec(DataType.TEXT).compare(bmpMax, emoji)).isNegative();
    assertThat(Arrays.compareUnsigned(key(DataType.TEXT, bmpMax), key(DataType.TEXT, emoji)))
        .isNegative();
    assertThat(codec(DataType.TEXT).compare("\ud7ff", emoji)).isNegative();
    assertThat(codec(DataType.TEXT).compare("a", "a\u0000")).isNegative();
  }

  @Test
  void decimalKeysIgnoreTheScaleButCellsKeepIt() {
    TypeCodec<?> codec = codec(DataType.DECIMAL);
    BigDecimal one = new BigDecimal("1.0");
    BigDecimal oneOo = new BigDecimal("1.00");
    assertThat(codec.compare(one, oneOo)).isZero();
    assertThat(key(DataType.DECIMAL, one)).isEqualTo(key(DataType.DECIMAL, oneOo));
    assertThat(codec.decodeKey(key(DataType.DECIMAL, oneOo), new int[1])).isEqualTo(BigDecimal.ONE);
    assertThat(codec.deserialize(codec.serialize(oneOo))).isEqualTo(oneOo);
    BigDecimal unstrippable = new BigDecimal(BigInteger.TEN, Integer.MIN_VALUE);
    assertThat(codec.deserialize(codec.serialize(unstrippable))).isEqualTo(unstrippable);
    assertThatThrownBy(() -> key(DataType.DECIMAL, unstrippable))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("decimal");
  }

  @Test
  void otherOrders() {
    assertThat(codec(DataType.UUID).compare(new UUID(-1, 0), new UUID(1, 0))).isPositive();
    assertThat(
            codec(DataType.TIMEUUID)
                .compare(RandomValues.timeUuid(1, -1), RandomValues.timeUuid(2, 0)))
        .isNegative();
    assertThat(codec(DataType.DOUBLE).compare(-0.0, 0.0)).isNegative();
    assertThat(codec(DataType.DOUBLE).compare(Double.NaN, Double.POSITIVE_INFINITY)).isPositive();
    assertThat(codec(DataType.BOOLEAN).compare(false, true)).isNegative();
    InetAddress v4 = RandomValues.inet(new byte[] {-1, -1, -1, -1});
    InetAddress v6 = RandomValues.inet(new byte[16]);
    assertThat(codec(DataType.INET).compare(v4, v6)).isNegative();
    assertThat(codec(DataType.BLOB).compare(new byte[] {(byte) 0x80}, new byte[] {1})).isPositive();
  }

  @Test
  void formatIsReadable() {
    assertThat(codec(DataType.BLOB).format(new byte[] {0, (byte) 0xAB, 0x10}))
        .isEqualTo("0x00ab10");
    assertThat(codec(DataType.BLOB).format(new byte[0])).isEqualTo("0x");
    assertThat(codec(DataType.TEXT).format("hi")).isEqualTo("hi");
    assertThat(codec(DataType.TIMESTAMP).format(Instant.ofEpochMilli(1_500)))
        .isEqualTo("1970-01-01T00:00:01.500Z");
    assertThat(codec(DataType.DATE).format(LocalDate.of(2026, 11, 29))).isEqualTo("2026-11-29");
    assertThat(codec(DataType.TIME).format(LocalTime.of(1, 2, 3))).isEqualTo("01:02:03");
    assertThat(codec(DataType.DECIMAL).format(new BigDecimal("1.50"))).isEqualTo("1.50");
    assertThat(codec(DataType.DURATION).format(DurationValue.of(14, 3, 5))).isEqualTo("1y2mo3d5ns");
    assertThatThrownBy(() -> codec(DataType.INT).format(1L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("int");
  }

  @Test
  void malformedBytesAreRejected() {
    assertThatThrownBy(() -> codec(DataType.INT).deserialize(new byte[3]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> codec(DataType.INT).deserialize(new byte[5]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> codec(DataType.TEXT).deserialize(new byte[] {(byte) 0xC0, 0x20}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> codec(DataType.ASCII).deserialize(new byte[] {(byte) 0x80}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> codec(DataType.TIMEUUID).deserialize(new byte[16]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> codec(DataType.VARINT).deserialize(new byte[0]))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> codec(DataType.DURATION).deserialize(new byte[] {1, 2, 0}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("same sign");
    for (DataType type : DataType.values()) {
      if (!type.canBeKey()) {
        continue;
      }
      for (Object v : RandomValues.edgeCases(type)) {
        byte[] key = key(type, codec(type).coerce(v));
        byte[] truncated = Arrays.copyOf(key, key.length - 1);
        assertThatThrownBy(() -> codec(type).decodeKey(truncated, new int[1]))
            .as("%s %s", type, codec(type).format(codec(type).coerce(v)))
            .isInstanceOf(IllegalArgumentException.class);
      }
    }
  }
}
