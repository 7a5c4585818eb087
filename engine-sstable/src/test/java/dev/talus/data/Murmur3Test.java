package dev.talus.data;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.hash.Hashing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Murmur3Test {

  /** Guava's murmur3_128 (seed 0) as {h1, h2}: its bytes are h1 then h2, each little-endian. */
  private static long[] guava(byte[] data, int offset, int length) {
    byte[] h = Hashing.murmur3_128().hashBytes(data, offset, length).asBytes();
    ByteBuffer b = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
    return new long[] {b.getLong(0), b.getLong(8)};
  }

  @Test
  void emptyInputHashesToZero() {
    assertThat(Murmur3.hash128(new byte[0], 0, 0)).containsExactly(0L, 0L);
    assertThat(guava(new byte[0], 0, 0)).containsExactly(0L, 0L);
  }

  @Test
  void everyLengthUpTo100MatchesGuava() {
    byte[] data = new byte[140];
    new Random(42).nextBytes(data);
    for (int len = 0; len <= 100; len++) {
      for (int off : new int[] {0, 1, 7, 15, 39}) {
        assertThat(Murmur3.hash128(data, off, len))
            .as("len=%d off=%d", len, off)
            .containsExactly(guava(data, off, len));
      }
    }
  }

  @ParameterizedTest(name = "seed={0}")
  @ValueSource(longs = {1L, 2L, 3L, 0xC0FFEEL, 20240601L})
  void randomInputsMatchGuava(long seed) {
    Random rnd = new Random(seed);
    for (int i = 0; i < 2_000; i++) {
      int len = rnd.nextInt(101);
      int off = rnd.nextInt(20);
      byte[] data = new byte[off + len + rnd.nextInt(20)];
      rnd.nextBytes(data);
      long[] actual = Murmur3.hash128(data, off, len);
      long[] expected = guava(data, off, len);
      if (!Arrays.equals(actual, expected)) {
        // shrink: the shortest failing prefix of the input
        int min = len;
        for (int l = 0; l < len; l++) {
          if (!Arrays.equals(Murmur3.hash128(data, off, l), guava(data, off, l))) {
            min = l;
            break;
          }
        }
        byte[] minimal = Arrays.copyOfRange(data, off, off + min);
        throw new AssertionError(
            "seed="
                + seed
                + " iteration="
                + i
                + " len="
                + len
                + " off="
                + off
                + "; minimal failing input ("
                + min
                + " bytes): "
                + HexFormat.of().formatHex(minimal)
                + " expected "
                + Arrays.toString(guava(minimal, 0, min))
                + " got "
                + Arrays.toString(Murmur3.hash128(minimal, 0, min)));
      }
    }
  }

  @Test
  void partitionKeyTakesTokenAndHash2FromMurmur3() {
    byte[] key = "talus".getBytes(StandardCharsets.UTF_8);
    PartitionKey k = PartitionKey.of(key);
    long[] h = guava(key, 0, key.length);
    assertThat(k.token()).isEqualTo(h[0]);
    assertThat(k.hash2()).isEqualTo(h[1]);
  }

  @Test
  void partitionKeysOrderByTokenSignedThenByUnsignedBytes() {
    PartitionKey negative = PartitionKey.of(new byte[] {9}, -5L, 0);
    PartitionKey minToken = PartitionKey.of(new byte[] {9}, Long.MIN_VALUE, 0);
    PartitionKey maxToken = PartitionKey.of(new byte[] {0}, Long.MAX_VALUE, 0);
    PartitionKey zero = PartitionKey.of(new byte[] {(byte) 0xFF}, 0L, 0);
    // signed: MIN < -5 < 0 < MAX, whatever the bytes
    List<PartitionKey> keys = new ArrayList<>(List.of(maxToken, zero, negative, minToken));
    keys.sort(null);
    assertThat(keys).containsExactly(minToken, negative, zero, maxToken);

    // same token: unsigned bytes (0x80 > 0x7F, longer after its prefix)
    PartitionKey a = PartitionKey.of(new byte[] {0x7F}, 7L, 1);
    PartitionKey b = PartitionKey.of(new byte[] {(byte) 0x80}, 7L, 2);
    PartitionKey c = PartitionKey.of(new byte[] {(byte) 0x80, 0}, 7L, 3);
    assertThat(a.compareTo(b)).isNegative();
    assertThat(b.compareTo(a)).isPositive();
    assertThat(b.compareTo(c)).isNegative();
    assertThat(a.compareTo(PartitionKey.of(new byte[] {0x7F}, 7L, 1))).isZero();
    assertThat(a).isEqualTo(PartitionKey.of(new byte[] {0x7F}, 7L, 1)).isNotEqualTo(b);
  }

  @ParameterizedTest(name = "seed={0}")
  @ValueSource(longs = {11L, 12L, 13L})
  void partitionKeyOrderIsTokenThenBytesForRandomKeys(long seed) {
    Random rnd = new Random(seed);
    List<PartitionKey> keys = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      byte[] b = new byte[rnd.nextInt(4)];
      rnd.nextBytes(b);
      // half with real tokens, half forced onto a few colliding tokens
      keys.add(rnd.nextBoolean() ? PartitionKey.of(b) : PartitionKey.of(b, rnd.nextInt(3) - 1, 0));
    }
    for (PartitionKey x : keys) {
      for (PartitionKey y : keys) {
        int expected = Long.compare(x.token(), y.token());
        if (expected == 0) {
          expected = Arrays.compareUnsigned(x.bytes(), y.bytes());
        }
        assertThat(Integer.signum(x.compareTo(y)))
            .as("seed=%d x=%s y=%s", seed, x, y)
            .isEqualTo(Integer.signum(expected));
      }
    }
  }
}
