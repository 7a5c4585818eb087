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
 * The vector file of a vector index: seeded random files read back exactly (row ids, vectors, row
 * count, dimension), and any damage is caught at open. Replay a run with {@code -Dtalus.seed}.
 */
class IndexVectorsTest {
  private static final long GENERATION = 9;
  private final StorageFs fs = new NioStorageFs();
  @TempDir Path dir;

  private static long seed(String test) {
    long seed = Long.getLong("talus.seed", new Random().nextLong());
    System.out.println("IndexVectorsTest." + test + " seed=" + seed);
    return seed;
  }

  @Test
  void vectorsReadBackExactly() throws IOException {
    Random r = new Random(seed("vectorsReadBackExactly"));
    for (int round = 0; round < 20; round++) {
      int dim = 1 + r.nextInt(40);
      int rows = r.nextInt(500);
      IndexVectorsWriter w = new IndexVectorsWriter(dim);
      List<Integer> ids = new ArrayList<>();
      List<float[]> vs = new ArrayList<>();
      for (int row = 0; row < rows; row++) {
        if (r.nextInt(3) > 0) {
          float[] v = new float[dim];
          for (int j = 0; j < dim; j++) {
            v[j] = (float) r.nextGaussian();
          }
          w.add(row, v);
          ids.add(row);
          vs.add(v);
        }
      }
      Path file = dir.resolve("v" + round + ".db");
      w.write(fs, file, GENERATION, rows);
      IndexVectorsReader rd = IndexVectorsReader.open(fs, file, GENERATION);
      assertThat(rd.rowCount()).isEqualTo(rows);
      assertThat(rd.dimension()).isEqualTo(dim);
      assertThat(rd.size()).isEqualTo(ids.size());
      for (int i = 0; i < ids.size(); i++) {
        assertThat(rd.rowId(i)).isEqualTo(ids.get(i));
        assertThat(rd.vector(i)).isEqualTo(vs.get(i));
        assertThat(rd.firstAtOrAfter(ids.get(i))).isEqualTo(i);
      }
      assertThat(rd.firstAtOrAfter(rows)).isEqualTo(ids.size());
    }
  }

  @Test
  void vectorsOutOfOrderOrOfAnotherDimensionAreRefusedByTheWriter() {
    IndexVectorsWriter w = new IndexVectorsWriter(2);
    w.add(3, new float[] {1, 2});
    assertThatThrownBy(() -> w.add(3, new float[] {1, 2}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> w.add(4, new float[] {1}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> w.write(fs, dir.resolve("x.db"), GENERATION, 3))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private Path sample(Random r) throws IOException {
    IndexVectorsWriter w = new IndexVectorsWriter(3);
    for (int row = 0; row < 60; row += 1 + r.nextInt(2)) {
      w.add(row, new float[] {r.nextFloat(), r.nextFloat(), r.nextFloat()});
    }
    Path file = dir.resolve("sample.db");
    Files.deleteIfExists(file);
    w.write(fs, file, GENERATION, 60);
    return file;
  }

  @Test
  void flippedBytesAreCaughtAtOpen() throws IOException {
    long seed = seed("flippedBytesAreCaughtAtOpen");
    Path file = sample(new Random(seed));
    IndexFileDamage.flippedBytes(
        file, seed, 40, () -> IndexVectorsReader.open(fs, file, GENERATION));
  }

  @Test
  void everyTruncationIsCaughtAtOpen() throws IOException {
    Path file = sample(new Random(seed("everyTruncationIsCaughtAtOpen")));
    IndexFileDamage.truncations(file, () -> IndexVectorsReader.open(fs, file, GENERATION));
  }

  @Test
  void aFileOfAnotherSSTableIsRefused() throws IOException {
    Path file = sample(new Random(1));
    assertThatThrownBy(() -> IndexVectorsReader.open(fs, file, GENERATION + 1))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("generation");
  }

  @Test
  void hugeCountsAnywhereAreRefusedBeforeAnythingIsSizedByThem() throws IOException {
    Path file = sample(new Random(2));
    IndexFileDamage.hugeValuesAnywhere(file, () -> IndexVectorsReader.open(fs, file, GENERATION));
  }
}
