package dev.talus.server.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.DataType;
import dev.talus.TupleValue;
import dev.talus.UdtValue;
import dev.talus.UserType;
import dev.talus.cql.ColumnType;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The wire forms of the composite types: every kind encodes and decodes back to an equal value, the
 * bytes are the specification's, and damaged bytes (truncated, mutated) decode to a value or a
 * {@link Values.BadValueException}, never another exception (seeded; the seed is printed, {@code
 * -Dtalus.wire.seed=S} replays it).
 */
class CompositeValuesTest {
  private static final UserType ADDRESS =
      UserType.builder("address").field("street", DataType.TEXT).field("zip", DataType.INT).build();

  private static final Object[][] CASES = {
    {DataType.list(DataType.INT), List.of(3, 1, 3)},
    {DataType.set(DataType.TEXT), Set.of("a")},
    {DataType.map(DataType.TEXT, DataType.BIGINT), Map.of("k", 7L)},
    {
      DataType.frozen(DataType.list(DataType.frozen(DataType.set(DataType.INT)))),
      List.of(Set.of(1))
    },
    {DataType.tuple(DataType.INT, DataType.TEXT), TupleValue.of(1, null)},
    {DataType.udt(ADDRESS), UdtValue.of(ADDRESS, Map.of("zip", 5))},
    {DataType.vector(DataType.TEXT, 2), List.of("x", "yz")},
    {DataType.COUNTER, 42L},
  };

  @Test
  void everyKindRoundTrips() {
    for (Object[] c : CASES) {
      ColumnType t = ColumnType.of((DataType) c[0]);
      byte[] bytes = Values.encode(t, c[1]);
      assertThat(Values.decode(t, bytes)).as(t.cql()).isEqualTo(c[1]);
    }
    ColumnType floats = ColumnType.of(DataType.vector(DataType.FLOAT, 2));
    byte[] bytes = Values.encode(floats, new float[] {1f, -2f});
    assertThat(bytes).hasSize(8); // fixed-size elements back to back, no lengths
    assertThat((float[]) Values.decode(floats, bytes)).containsExactly(1f, -2f);
  }

  @Test
  void theBytesAreTheSpecifications() {
    // list<int> [5]: [int n = 1] then [bytes] (length 4, value 5)
    assertThat(Values.encode(ColumnType.of(DataType.list(DataType.INT)), List.of(5)))
        .containsExactly(0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 5);
    // tuple<int, int> (1, null): each component as [bytes], no count
    assertThat(
            Values.encode(
                ColumnType.of(DataType.tuple(DataType.INT, DataType.INT)), TupleValue.of(1, null)))
        .containsExactly(0, 0, 0, 4, 0, 0, 0, 1, -1, -1, -1, -1);
  }

  @Test
  void damagedBytesAreABadValueOrAValue() {
    long seed = Long.getLong("talus.wire.seed", 2026_12_01L);
    System.out.println("CompositeValuesTest seed " + seed);
    Random rnd = new Random(seed);
    for (int i = 0; i < 3_000; i++) {
      Object[] c = CASES[rnd.nextInt(CASES.length)];
      ColumnType t = ColumnType.of((DataType) c[0]);
      byte[] bytes = Values.encode(t, c[1]);
      byte[] damaged =
          rnd.nextBoolean()
              ? Arrays.copyOf(bytes, rnd.nextInt(bytes.length + 1))
              : mutate(bytes, rnd);
      try {
        Values.decode(t, damaged);
      } catch (Values.BadValueException expected) {
        // refused: what the server answers as an invalid request
      }
    }
    assertThatThrownBy(
            () ->
                Values.decode(
                    ColumnType.of(DataType.set(DataType.INT)),
                    new byte[] {0, 0, 0, 1, -1, -1, -1, -1}))
        .isInstanceOf(Values.BadValueException.class)
        .hasMessageContaining("null is not supported inside collections");
  }

  private static byte[] mutate(byte[] bytes, Random rnd) {
    byte[] out = bytes.clone();
    if (out.length > 0) {
      out[rnd.nextInt(out.length)] = (byte) rnd.nextInt(256);
    }
    return out;
  }
}
