package dev.talus.memtable;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A chunk's first-row prefix orders clusterings exactly as the full unsigned comparison does: over
 * random byte strings of 0–12 bytes from a small alphabet (so prefixes are often equal, strings
 * often prefixes of each other), {@link RowChunk#compareFirst} has the sign of {@link
 * Arrays#compareUnsigned}, and the binary searches over chunks agree with a linear scan.
 */
class RowChunkPrefixTest {
  private static final byte[] ALPHABET = {0x00, 0x01, 0x7F, (byte) 0x80, (byte) 0xFF};

  private static byte[] random(Random rnd) {
    byte[] b = new byte[rnd.nextInt(13)];
    for (int i = 0; i < b.length; i++) {
      b[i] = ALPHABET[rnd.nextInt(ALPHABET.length)];
    }
    return b;
  }

  @Test
  void compareFirstHasTheSignOfTheFullComparison() {
    long seed = 20261205L;
    System.out.println("RowChunkPrefixTest seed " + seed);
    Random rnd = new Random(seed);
    for (int i = 0; i < 200_000; i++) {
      byte[] first = random(rnd);
      byte[] other = rnd.nextInt(4) == 0 ? first.clone() : random(rnd);
      RowChunk c = RowChunk.of(first, new byte[] {1, 2, 3});
      int expected = Integer.signum(Arrays.compareUnsigned(first, other));
      int got = Integer.signum(c.compareFirst(other, RowChunk.prefix(other, 0, other.length)));
      assertThat(got)
          .as("%s against %s", Arrays.toString(first), Arrays.toString(other))
          .isEqualTo(expected);
    }
  }

  @Test
  void floorAndLowerAgreeWithALinearScan() {
    Random rnd = new Random(7);
    for (int round = 0; round < 2_000; round++) {
      int n = 1 + rnd.nextInt(12);
      byte[][] firsts = new byte[n][];
      for (int i = 0; i < n; i++) {
        firsts[i] = random(rnd);
      }
      Arrays.sort(firsts, Arrays::compareUnsigned);
      RowChunk[] d = new RowChunk[n];
      for (int i = 0; i < n; i++) {
        d[i] = RowChunk.of(firsts[i], new byte[] {0});
      }
      byte[] key = random(rnd);
      int floor = 0;
      int lower = 0;
      for (int i = 1; i < n; i++) {
        if (Arrays.compareUnsigned(firsts[i], key) <= 0) {
          floor = i;
        }
        if (Arrays.compareUnsigned(firsts[i], key) < 0) {
          lower = i;
        }
      }
      assertThat(RowChunks.floor(d, key)).as("floor, round %d", round).isEqualTo(floor);
      assertThat(RowChunks.lower(d, key)).as("lower, round %d", round).isEqualTo(lower);
    }
  }
}
