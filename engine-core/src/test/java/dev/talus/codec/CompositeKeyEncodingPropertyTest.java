package dev.talus.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.DataType;
import dev.talus.TupleValue;
import dev.talus.UdtValue;
import dev.talus.UserType;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seeded property tests of the byte-comparable encodings of frozen collections, tuples and frozen
 * user types, the composite values that can be key columns: for random (nested) types and values,
 * the unsigned order of the encodings equals the natural order computed here independently
 * (component by component with each native type's order, a shorter collection before its
 * extensions, a null tuple component or field before any value); encodings are prefix-free and
 * decode back; the cell encoding round-trips. Failures name the seed and the type.
 */
class CompositeKeyEncodingPropertyTest {
  private static final DataType[] LEAVES = {
    DataType.INT, DataType.BIGINT, DataType.TEXT, DataType.BLOB, DataType.BOOLEAN,
    DataType.DOUBLE, DataType.DECIMAL, DataType.TIMEUUID, DataType.UUID, DataType.TINYINT
  };

  private static DataType randomType(Random rnd, int depth) {
    int k = depth >= 2 ? 0 : depth == 0 ? 1 + rnd.nextInt(5) : rnd.nextInt(6);
    return switch (k) {
      case 0 -> LEAVES[rnd.nextInt(LEAVES.length)];
      case 1 -> DataType.frozen(DataType.list(randomType(rnd, depth + 1)));
      case 2 -> DataType.frozen(DataType.set(randomType(rnd, depth + 1)));
      case 3 ->
          DataType.frozen(DataType.map(randomType(rnd, depth + 1), randomType(rnd, depth + 1)));
      case 4 -> {
        DataType[] cs = new DataType[1 + rnd.nextInt(3)];
        for (int i = 0; i < cs.length; i++) {
          cs[i] = randomType(rnd, depth + 1);
        }
        yield DataType.tuple(cs);
      }
      default -> {
        UserType.Builder b = UserType.builder("u" + depth + "_" + rnd.nextInt(1000));
        for (int i = 1 + rnd.nextInt(3); i > 0; i--) {
          b.field("f" + i, randomType(rnd, depth + 1));
        }
        yield DataType.frozen(DataType.udt(b.build()));
      }
    };
  }

  /** A random user value of {@code t}, small enough to collide often. */
  private static Object randomValue(DataType t, Random rnd) {
    switch (t.kind()) {
      case LIST, SET -> {
        List<Object> l = new ArrayList<>();
        for (int i = rnd.nextInt(4); i > 0; i--) {
          l.add(randomValue(t.elementType(), rnd));
        }
        return l;
      }
      case MAP -> {
        Map<Object, Object> m = new LinkedHashMap<>();
        for (int i = rnd.nextInt(4); i > 0; i--) {
          m.put(randomValue(t.elementType(), rnd), randomValue(t.valueType(), rnd));
        }
        return m;
      }
      case TUPLE -> {
        List<Object> l = new ArrayList<>();
        for (DataType c : t.componentTypes()) {
          l.add(rnd.nextInt(4) == 0 ? null : randomValue(c, rnd));
        }
        return TupleValue.of(l);
      }
      case UDT -> {
        List<Object> l = new ArrayList<>();
        for (DataType c : t.componentTypes()) {
          l.add(rnd.nextInt(4) == 0 ? null : randomValue(c, rnd));
        }
        return UdtValue.ofFields(t.userType(), l);
      }
      default -> {
        // a few values per leaf type, so equal components (and ties further on) are common
        List<Object> edge = RandomValues.edgeCases(t);
        return rnd.nextInt(3) == 0 ? RandomValues.next(t, rnd) : edge.get(rnd.nextInt(edge.size()));
      }
    }
  }

  /** The natural order of canonical values of {@code t}, computed without the key encoding. */
  private static Comparator<Object> order(DataType t) {
    switch (t.kind()) {
      case LIST, SET -> {
        Comparator<Object> e = order(t.elementType());
        return (a, b) ->
            lexicographic(List.copyOf((Collection<?>) a), List.copyOf((Collection<?>) b), i -> e);
      }
      case MAP -> {
        Comparator<Object> k = order(t.elementType());
        Comparator<Object> v = order(t.valueType());
        return (a, b) ->
            lexicographic(flat((Map<?, ?>) a), flat((Map<?, ?>) b), i -> i % 2 == 0 ? k : v);
      }
      case TUPLE, UDT -> {
        List<Comparator<Object>> cs =
            t.componentTypes().stream().map(c -> nullsFirst(order(c))).toList();
        return (a, b) -> lexicographic(parts(a), parts(b), cs::get);
      }
      default -> {
        return TypeCodec.nested(t).comparator();
      }
    }
  }

  private static Comparator<Object> nullsFirst(Comparator<Object> c) {
    return (a, b) -> a == null ? (b == null ? 0 : -1) : b == null ? 1 : c.compare(a, b);
  }

  private static List<Object> parts(Object v) {
    if (v instanceof TupleValue t) {
      return t.values();
    }
    UdtValue u = (UdtValue) v;
    return new ArrayList<>(u.toMap().values());
  }

  private static List<Object> flat(Map<?, ?> m) {
    List<Object> out = new ArrayList<>();
    m.forEach(
        (k, v) -> {
          out.add(k);
          out.add(v);
        });
    return out;
  }

  private static int lexicographic(
      List<Object> a, List<Object> b, java.util.function.IntFunction<Comparator<Object>> cmp) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = cmp.apply(i).compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.size(), b.size());
  }

  private static byte[] encode(TypeCodec<?> codec, Object v) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    codec.encodeKey(v, out);
    return out.toByteArray();
  }

  private static boolean isProperPrefix(byte[] p, byte[] of) {
    return p.length < of.length && Arrays.equals(p, 0, p.length, of, 0, p.length);
  }

  @ParameterizedTest(name = "seed={0}")
  @ValueSource(longs = {1, 2, 3, 42, 0xC0FFEE, 20_261_201})
  void compositeKeysFollowTheNaturalOrderAndDecodeBack(long seed) {
    Random rnd = new Random(seed);
    for (int typeRound = 0; typeRound < 25; typeRound++) {
      DataType type = randomType(rnd, 0);
      assertThat(type.canBeKey()).as("%s", type.cqlName()).isTrue();
      TypeCodec<?> codec = TypeCodec.of(type);
      Comparator<Object> natural = order(type);
      List<Object> values = new ArrayList<>();
      List<byte[]> keys = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        Object v = codec.coerce(randomValue(type, rnd));
        values.add(v);
        keys.add(encode(codec, v));
      }
      String what = "seed " + seed + " type " + type.cqlName();
      for (int i = 0; i < values.size(); i++) {
        for (int j = 0; j < values.size(); j += 1 + rnd.nextInt(5)) {
          int expected = Integer.signum(natural.compare(values.get(i), values.get(j)));
          byte[] ka = keys.get(i);
          byte[] kb = keys.get(j);
          assertThat(Integer.signum(Arrays.compareUnsigned(ka, kb)))
              .as("%s: %s vs %s", what, codec.format(values.get(i)), codec.format(values.get(j)))
              .isEqualTo(expected);
          assertThat(Integer.signum(codec.compare(values.get(i), values.get(j))))
              .isEqualTo(expected);
          if (expected != 0) {
            assertThat(isProperPrefix(ka, kb) || isProperPrefix(kb, ka)).as(what).isFalse();
          }
        }
        int[] pos = {0};
        Object back = codec.decodeKey(keys.get(i), pos);
        assertThat(pos[0]).as(what).isEqualTo(keys.get(i).length);
        assertThat(natural.compare(back, values.get(i))).as(what).isZero();
        assertThat(encode(codec, back)).as(what).isEqualTo(keys.get(i));
        Object cell = codec.deserialize(codec.serialize(values.get(i)));
        assertThat(codec.serialize(cell)).as(what).isEqualTo(codec.serialize(values.get(i)));
        assertThat(Objects.deepEquals(normalise(cell), normalise(values.get(i))))
            .as("%s: cell round trip of %s", what, codec.format(values.get(i)))
            .isTrue();
      }
    }
  }

  /** Values compare by equals except blobs inside, which are ByteBuffers (equal by content). */
  private static Object normalise(Object v) {
    return v instanceof ByteBuffer b ? b.duplicate() : v;
  }
}
