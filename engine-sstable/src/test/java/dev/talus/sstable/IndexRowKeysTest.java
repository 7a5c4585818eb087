package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.io.CorruptFileException;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The row-key map of a storage-attached index: every row id gives back the keys it was written
 * with, partitions without rows included, and damage is caught at open. Replay a run with {@code
 * -Dtalus.seed}.
 */
class IndexRowKeysTest {
  private static final long GENERATION = 3;
  private final StorageFs fs = new NioStorageFs();
  @TempDir Path dir;

  private static long seed(String test) {
    long seed = Long.getLong("talus.seed", new Random().nextLong());
    System.out.println("IndexRowKeysTest." + test + " seed=" + seed);
    return seed;
  }

  private static byte[] bytes(Random r, int max) {
    byte[] b = new byte[r.nextInt(max + 1)];
    r.nextBytes(b);
    return b;
  }

  /** Writes a random map to {@code file}; returns the expected keys by row id. */
  private List<IndexRowKeysReader.RowKey> write(Random r, Path file, int partitions)
      throws IOException {
    List<IndexRowKeysReader.RowKey> expected = new ArrayList<>();
    try (IndexRowKeysWriter w = new IndexRowKeysWriter(fs, file, GENERATION)) {
      for (int p = 0; p < partitions; p++) {
        byte[] key = bytes(r, 20);
        w.startPartition(key);
        int rows = r.nextInt(4) == 0 ? 0 : r.nextInt(150);
        for (int i = 0; i < rows; i++) {
          byte[] clustering = bytes(r, 12);
          assertThat(w.row(clustering)).isEqualTo(expected.size());
          expected.add(new IndexRowKeysReader.RowKey(key, clustering));
        }
      }
      w.finish();
    }
    return expected;
  }

  @Test
  void everyRowIdGivesBackItsKeys() throws IOException {
    long seed = seed("everyRowIdGivesBackItsKeys");
    Random r = new Random(seed);
    for (int round = 0; round < 10; round++) {
      Path file = dir.resolve("keys-" + round + ".db");
      List<IndexRowKeysReader.RowKey> expected = write(r, file, r.nextInt(40));
      try (IndexRowKeysReader reader = IndexRowKeysReader.open(fs, file, GENERATION)) {
        assertThat(reader.rowCount()).isEqualTo(expected.size());
        for (int id = 0; id < expected.size(); id++) {
          IndexRowKeysReader.RowKey got = reader.rowKey(id);
          String where = "seed " + seed + " round " + round + " row " + id;
          assertThat(got.partitionKey()).as(where).isEqualTo(expected.get(id).partitionKey());
          assertThat(got.clustering()).as(where).isEqualTo(expected.get(id).clustering());
        }
        int rows = expected.size();
        assertThatThrownBy(() -> reader.rowKey(rows)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> reader.rowKey(-1)).isInstanceOf(IllegalArgumentException.class);
      }
    }
  }

  @Test
  void aRowBeforeAnyPartitionIsRefused() throws IOException {
    try (IndexRowKeysWriter w = new IndexRowKeysWriter(fs, dir.resolve("x.db"), GENERATION)) {
      assertThatThrownBy(() -> w.row(new byte[0])).isInstanceOf(IllegalStateException.class);
    }
  }

  private Path sample(Random r) throws IOException {
    Path file = dir.resolve("sample.db");
    Files.deleteIfExists(file);
    write(r, file, 4);
    return file;
  }

  /** The header and trailer byte by byte, and 200 seeded positions of the body. */
  @Test
  void flippedBytesAreCaughtAtOpen() throws IOException {
    long seed = seed("flippedBytesAreCaughtAtOpen");
    Path file = sample(new Random(seed));
    IndexFileDamage.flippedBytes(
        file, seed, 48, () -> IndexRowKeysReader.open(fs, file, GENERATION).close());
  }

  /** Every length short of the whole file, for a small map. */
  @Test
  void everyTruncationIsCaughtAtOpen() throws IOException {
    Random r = new Random(seed("everyTruncationIsCaughtAtOpen"));
    Path file = dir.resolve("small.db");
    try (IndexRowKeysWriter w = new IndexRowKeysWriter(fs, file, GENERATION)) {
      for (int p = 0; p < 3; p++) {
        w.startPartition(bytes(r, 8));
        for (int i = 0; i < 70; i++) {
          w.row(bytes(r, 3));
        }
      }
      w.finish();
    }
    IndexFileDamage.truncations(file, () -> IndexRowKeysReader.open(fs, file, GENERATION).close());
  }

  @Test
  void aMapOfAnotherSSTableIsRefused() throws IOException {
    Path file = sample(new Random(2));
    assertThatThrownBy(() -> IndexRowKeysReader.open(fs, file, GENERATION + 1).close())
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("generation");
  }

  /**
   * A huge count or length written over any position (a damaged count field or varint): the open
   * refuses the file as corrupt before sizing anything by it, instead of running out of memory.
   */
  @Test
  void hugeCountsAnywhereAreRefusedBeforeAnythingIsSizedByThem() throws IOException {
    Path file = dir.resolve("huge.db");
    try (IndexRowKeysWriter w = new IndexRowKeysWriter(fs, file, GENERATION)) {
      for (int p = 0; p < 3; p++) {
        w.startPartition(new byte[] {(byte) p, 1, 2});
        for (int i = 0; i < 70; i++) {
          w.row(new byte[] {(byte) i});
        }
      }
      w.finish();
    }
    IndexFileDamage.hugeValuesAnywhere(
        file, () -> IndexRowKeysReader.open(fs, file, GENERATION).close());
  }
}
