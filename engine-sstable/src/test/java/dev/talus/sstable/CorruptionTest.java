package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.talus.data.PartitionData;
import dev.talus.data.Slice;
import dev.talus.io.CorruptFileException;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Bit flips and truncation in every component are detected — at open, on read or by verify — and
 * never produce a wrong answer.
 */
class CorruptionTest {
  static final int FLIPS = Integer.getInteger("talus.corruption.flips", 50);

  @TempDir Path dir;

  private final StorageFs fs = new NioStorageFs();

  private List<TestData.Partition> setUp(long seed) throws Exception {
    List<TestData.Partition> parts = TestData.partitions(new Random(seed), 300, 300);
    SSTableOptions opts = SSTableOptions.builder().chunkSize(1024).rowIndexBlockSize(512).build();
    TestData.write(fs, dir, 3, parts, opts);
    return parts;
  }

  /** Returns where the damage was noticed: "open", "read", "verify". */
  private String check(List<TestData.Partition> parts, String what) throws Exception {
    SSTableReader reader;
    try {
      reader = SSTableReader.open(fs, dir, 3, ChunkCache.disabled());
    } catch (CorruptFileException e) {
      assertThat(e.file()).isNotNull();
      return "open";
    }
    try {
      boolean readFailed = false;
      for (TestData.Partition p : parts) {
        try {
          PartitionData d = reader.partition(p.key());
          assertThat(d).as(what).isNotNull();
          assertThat(d.partitionDeletion()).as(what).isEqualTo(p.deletion());
          assertThat(d.rangeTombstones(Slice.ALL)).as(what).isEqualTo(p.rangeTombstones());
          assertThat(SSTableRoundTripTest.collect(d.rows(Slice.ALL, false)))
              .as(what)
              .isEqualTo(p.rows());
        } catch (CorruptFileException e) {
          readFailed = true;
        }
      }
      try {
        reader.verify();
      } catch (CorruptFileException e) {
        return readFailed ? "read" : "verify";
      }
      fail("damage not detected: " + what);
      return null;
    } finally {
      reader.release();
    }
  }

  @ParameterizedTest
  @EnumSource(Component.class)
  void bitFlipsAreDetected(Component c) throws Exception {
    long seed = 1000 + c.ordinal();
    System.out.println("seed=" + seed + " component=" + c);
    List<TestData.Partition> parts = setUp(seed);
    Path p = new SSTableDescriptor(dir, 3).path(c);
    byte[] original = Files2.read(fs, p);
    Random r = new Random(seed);
    int[] where = new int[3];
    for (int i = 0; i < FLIPS; i++) {
      byte[] damaged = original.clone();
      int bit = r.nextInt(damaged.length * 8);
      damaged[bit >>> 3] ^= (byte) (1 << (bit & 7));
      Files2.write(fs, p, damaged);
      String at = check(parts, c + " bit " + bit + " seed " + seed);
      where[Arrays.asList("open", "read", "verify").indexOf(at)]++;
    }
    Files2.write(fs, p, original);
    System.out.println(c + ": detected at open/read/verify = " + Arrays.toString(where));
    SSTableReader ok = SSTableReader.open(fs, dir, 3, ChunkCache.disabled());
    ok.verify();
    ok.release();
  }

  @ParameterizedTest
  @EnumSource(Component.class)
  void truncationIsDetected(Component c) throws Exception {
    long seed = 2000 + c.ordinal();
    System.out.println("seed=" + seed + " component=" + c);
    List<TestData.Partition> parts = setUp(seed);
    Path p = new SSTableDescriptor(dir, 3).path(c);
    byte[] original = Files2.read(fs, p);
    Random r = new Random(seed);
    for (int i = 0; i < 20; i++) {
      int len = i == 0 ? 0 : i == 1 ? original.length - 1 : r.nextInt(original.length);
      Files2.write(fs, p, Arrays.copyOf(original, len));
      assertThatThrownBy(() -> SSTableReader.open(fs, dir, 3, ChunkCache.disabled()).release())
          .as("%s truncated to %d", c, len)
          .isInstanceOf(CorruptFileException.class);
    }
  }
}
