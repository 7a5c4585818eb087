package dev.talus.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.DataType;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded property tests of the codecs: the key encoding preserves the natural order, decodes back,
 * and is prefix-free; the cell encoding round-trips exactly. Failures name the seed to replay.
 */
class KeyEncodingPropertyTest {
  private static final long[] SEEDS = {1L, 42L, 0xC0FFEEL, 20_261_129L};
  private static final int VALUES = 2_000;
  private static final int RANDOM_PAIRS = 5_000;

  static Stream<Arguments> keyTypesAndSeeds() {
    return Arrays.stream(DataType.values())
        .filter(DataType::canBeKey)
        .flatMap(t -> Arrays.stream(SEEDS).mapToObj(seed -> Arguments.of(t, seed)));
  }

  static Stream<Arguments> allTypesAndSeeds() {
    return Arrays.stream(DataType.values())
        .flatMap(t -> Arrays.stream(SEEDS).mapToObj(seed -> Arguments.of(t, seed)));
  }

  @ParameterizedTest(name = "{0} seed={1}")
  @MethodSource("keyTypesAndSeeds")
  void keyEncodingFollowsNaturalOrder(DataType type, long seed) {
    TypeCodec<?> codec = TypeCodec.of(type);
    List<Object> values = values(type, seed);
    List<byte[]> keys = new ArrayList<>();
    for (Object v : values) {
      keys.add(encode(codec, v));
    }
    Integer[] order = new Integer[values.size()];
    Arrays.setAll(order, i -> i);
    Arrays.sort(order, Comparator.comparing(values::get, codec.comparator()));
    for (int k = 1; k < order.length; k++) {
      checkPair(codec, values, keys, order[k - 1], order[k], seed);
    }
    Random rnd = new Random(seed);
    for (int k = 0; k < RANDOM_PAIRS; k++) {
      checkPair(codec, values, keys, rnd.nextInt(values.size()), rnd.nextInt(values.size()), seed);
    }
  }

  private static void checkPair(
      TypeCodec<?> codec, List<Object> values, List<byte[]> keys, int i, int j, long seed) {
    Object a = values.get(i);
    Object b = values.get(j);
    byte[] ka = keys.get(i);
    byte[] kb = keys.get(j);
    int expected = Integer.signum(codec.compare(a, b));
    assertThat(Integer.signum(Arrays.compareUnsigned(ka, kb)))
        .as(
            "seed %d: order of %s and %s, keys %s and %s",
            seed, show(codec, a), show(codec, b), KeyBytes.hex(ka), KeyBytes.hex(kb))
        .isEqualTo(expected);
    if (expected != 0) {
      assertThat(isProperPrefix(ka, kb) || isProperPrefix(kb, ka))
          .as(
              "seed %d: one key is a prefix of the other: %s, %s",
              seed, show(codec, a), show(codec, b))
          .isFalse();
    }
  }

  @ParameterizedTest(name = "{0} seed={1}")
  @MethodSource("keyTypesAndSeeds")
  void keyEncodingDecodesBack(DataType type, long seed) {
    TypeCodec<?> codec = TypeCodec.of(type);
    for (Object v : values(type, seed)) {
      byte[] key = encode(codec, v);
      int[] pos = {0};
      Object decoded = codec.decodeKey(key, pos);
      assertThat(pos[0]).as("seed %d: end of %s", seed, show(codec, v)).isEqualTo(key.length);
      assertSame(
          normalised(v),
          decoded,
          "seed " + seed + ": decodeKey(encodeKey(" + show(codec, v) + "))");
    }
  }

  @ParameterizedTest(name = "{0} seed={1}")
  @MethodSource("keyTypesAndSeeds")
  void concatenatedKeysSplitBack(DataType type, long seed) {
    TypeCodec<?> codec = TypeCodec.of(type);
    List<Object> values = values(type, seed);
    Random rnd = new Random(seed ^ 0x5DEECE66DL);
    for (int k = 0; k < VALUES; k++) {
      Object a = values.get(rnd.nextInt(values.size()));
      Object b = values.get(rnd.nextInt(values.size()));
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      out.write(0x42); // decoding must honour a non-zero start position
      codec.encodeKey(a, out);
      codec.encodeKey(b, out);
      byte[] both = out.toByteArray();
      int[] pos = {1};
      String what = "seed " + seed + ": " + show(codec, a) + " then " + show(codec, b);
      assertSame(normalised(a), codec.decodeKey(both, pos), what);
      assertSame(normalised(b), codec.decodeKey(both, pos), what);
      assertThat(pos[0]).as(what).isEqualTo(both.length);
    }
  }

  @ParameterizedTest(name = "{0} seed={1}")
  @MethodSource("allTypesAndSeeds")
  void cellEncodingRoundTripsExactly(DataType type, long seed) {
    TypeCodec<?> codec = TypeCodec.of(type);
    for (Object v : values(type, seed)) {
      byte[] cell = codec.serialize(v);
      assertSame(
          v,
          codec.deserialize(cell),
          "seed " + seed + ": deserialize(serialize(" + show(codec, v) + "))");
      // a value handed over encodes the same; serialize never returns an array the value holds
      Object owned = codec.coerce(v);
      assertThat(codec.serializeOwned(owned))
          .as("seed " + seed + ": serializeOwned(" + show(codec, v) + ")")
          .isEqualTo(cell);
      if (v instanceof byte[] b) {
        assertThat(codec.serialize(b)).isNotSameAs(b);
        assertThat(codec.serializeOwned(owned)).isSameAs(owned);
      }
    }
  }

  /** Edge cases, random values, and some values again (also as equal decimals of other scales). */
  static List<Object> values(DataType type, long seed) {
    TypeCodec<?> codec = TypeCodec.of(type);
    Random rnd = new Random(seed * 31 + type.kind().ordinal());
    List<Object> values = new ArrayList<>();
    for (Object v : RandomValues.edgeCases(type)) {
      values.add(codec.coerce(v));
    }
    while (values.size() < VALUES) {
      values.add(codec.coerce(RandomValues.next(type, rnd)));
    }
    for (int k = 0; k < VALUES / 20; k++) {
      Object again = values.get(rnd.nextInt(values.size()));
      if (again instanceof BigDecimal d && d.scale() < Integer.MAX_VALUE - 5) {
        again = d.setScale(d.scale() + 1 + rnd.nextInt(5));
      } else if (again instanceof byte[] b) {
        again = b.clone();
      }
      values.add(again);
    }
    return values;
  }

  private static byte[] encode(TypeCodec<?> codec, Object v) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    codec.encodeKey(v, out);
    return out.toByteArray();
  }

  private static Object normalised(Object v) {
    return v instanceof BigDecimal d ? d.stripTrailingZeros() : v;
  }

  private static boolean isProperPrefix(byte[] p, byte[] of) {
    return p.length < of.length && Arrays.equals(p, 0, p.length, of, 0, p.length);
  }

  /** Exact equality: arrays by content, decimals including their scale. */
  static void assertSame(Object expected, Object actual, String what) {
    boolean same =
        expected instanceof byte[] e && actual instanceof byte[] a
            ? Arrays.equals(e, a)
            : Objects.equals(expected, actual);
    assertThat(same)
        .as(
            "%s: expected %s (%s) but got %s (%s)",
            what, expected, cls(expected), actual, cls(actual))
        .isTrue();
  }

  private static String cls(Object o) {
    return o == null ? "null" : o.getClass().getSimpleName();
  }

  /** The formatted value, shortened, with control and non-ASCII characters escaped. */
  private static String show(TypeCodec<?> codec, Object v) {
    String s = codec.format(v);
    if (s.length() > 80) {
      s = s.substring(0, 80) + "...";
    }
    StringBuilder sb = new StringBuilder();
    for (char c : s.toCharArray()) {
      if (c < 0x20 || c > 0x7E) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
