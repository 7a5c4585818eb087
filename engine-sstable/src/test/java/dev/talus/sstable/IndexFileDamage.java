package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.io.CorruptFileException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * The damage the storage-attached index files are tested against: each kind rewrites the file and
 * asserts that opening it is refused as corrupt. Stateless.
 */
final class IndexFileDamage {
  /** Opens (and closes) the file under test. */
  interface Opener {
    void open() throws IOException;
  }

  private IndexFileDamage() {}

  private static void refused(Opener open, String what, Object... args) {
    assertThatThrownBy(open::open).as(what, args).isInstanceOf(CorruptFileException.class);
  }

  /**
   * The first and last {@code edge} bytes one by one, and 200 positions drawn from {@code seed}.
   */
  static void flippedBytes(Path file, long seed, int edge, Opener open) throws IOException {
    Random r = new Random(seed);
    byte[] good = Files.readAllBytes(file);
    Set<Integer> positions = new TreeSet<>();
    for (int i = 0; i < Math.min(good.length, edge); i++) {
      positions.add(i);
      positions.add(good.length - 1 - i);
    }
    for (int i = 0; i < 200; i++) {
      positions.add(r.nextInt(good.length));
    }
    for (int i : positions) {
      byte[] bad = good.clone();
      bad[i] ^= (byte) (1 + r.nextInt(255));
      Files.write(file, bad);
      refused(open, "seed %d: byte %d flipped", seed, i);
    }
  }

  /** Every length short of the whole file. */
  static void truncations(Path file, Opener open) throws IOException {
    byte[] good = Files.readAllBytes(file);
    for (int len = 0; len < good.length; len++) {
      Files.write(file, Arrays.copyOf(good, len));
      refused(open, "truncated to %d of %d bytes", len, good.length);
    }
  }

  /**
   * A huge count or length written over every position (a damaged count field or varint): the open
   * refuses the file as corrupt before sizing anything by it, instead of running out of memory.
   */
  static void hugeValuesAnywhere(Path file, Opener open) throws IOException {
    byte[] good = Files.readAllBytes(file);
    byte[][] patterns = {
      {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff},
      {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07}
    };
    for (byte[] pattern : patterns) {
      for (int i = 0; i < good.length; i++) {
        byte[] bad = good.clone();
        System.arraycopy(pattern, 0, bad, i, Math.min(pattern.length, bad.length - i));
        if (Arrays.equals(bad, good)) {
          continue;
        }
        Files.write(file, bad);
        refused(open, "pattern %s at byte %d", HexFormat.of().formatHex(pattern), i);
      }
    }
  }
}
