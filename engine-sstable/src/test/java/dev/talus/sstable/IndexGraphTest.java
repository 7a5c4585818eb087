package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.io.CorruptFileException;
import dev.talus.io.NioStorageFs;
import dev.talus.io.StorageFs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The graph file of a vector index: seeded random graphs read back exactly, inconsistent graphs are
 * refused by the constructor, and any damage is caught at open. Replay a run with {@code
 * -Dtalus.seed}.
 */
class IndexGraphTest {
  private static final long GENERATION = 11;
  private final StorageFs fs = new NioStorageFs();
  @TempDir Path dir;

  private static long seed(String test) {
    long seed = Long.getLong("talus.seed", new Random().nextLong());
    System.out.println("IndexGraphTest." + test + " seed=" + seed);
    return seed;
  }

  /** A random consistent graph of {@code n} nodes. */
  static IndexGraph random(Random r, int n, int m) {
    int m0 = 2 * m;
    int[] levels = new int[n];
    int entry = n == 0 ? -1 : r.nextInt(n);
    int top = n == 0 ? 0 : r.nextInt(3);
    for (int i = 0; i < n; i++) {
      levels[i] = i == entry ? top : r.nextInt(top + 1) == 0 ? 0 : r.nextInt(top + 1);
    }
    int[] layer0 = new int[n * (m0 + 1)];
    int[][] upper = new int[n][];
    for (int i = 0; i < n; i++) {
      upper[i] = levels[i] == 0 ? null : new int[levels[i] * (m + 1)];
      for (int l = 0; l <= levels[i]; l++) {
        int[] a = l == 0 ? layer0 : upper[i];
        int at = l == 0 ? i * (m0 + 1) : (l - 1) * (m + 1);
        int degree = 0;
        int max = l == 0 ? m0 : m;
        for (int tries = r.nextInt(max + 1); tries > 0; tries--) {
          int nb = r.nextInt(n);
          if (nb != i && levels[nb] >= l) {
            a[at + 1 + degree++] = nb;
          }
        }
        a[at] = degree;
      }
    }
    return new IndexGraph(m, m0, entry, levels, layer0, upper);
  }

  @Test
  void graphsReadBackExactly() throws IOException {
    Random r = new Random(seed("graphsReadBackExactly"));
    for (int round = 0; round < 20; round++) {
      int n = round == 0 ? 0 : 1 + r.nextInt(300);
      IndexGraph g = random(r, n, 1 + r.nextInt(8));
      Path file = dir.resolve("g" + round + ".db");
      g.write(fs, file, GENERATION);
      IndexGraph back = IndexGraph.open(fs, file, GENERATION, n);
      assertThat(back.size()).isEqualTo(n);
      assertThat(back.entry()).isEqualTo(g.entry());
      assertThat(back.topLevel()).isEqualTo(g.topLevel());
      assertThat(back.maxDegree()).isEqualTo(g.maxDegree());
      assertThat(back.maxDegree0()).isEqualTo(g.maxDegree0());
      for (int i = 0; i < n; i++) {
        assertThat(back.level(i)).isEqualTo(g.level(i));
        for (int l = 0; l <= g.level(i); l++) {
          int[] a = g.adjacency(i, l);
          int[] b = back.adjacency(i, l);
          int at = g.offset(i, l);
          for (int j = 0; j <= a[at]; j++) {
            assertThat(b[back.offset(i, l) + j]).isEqualTo(a[at + j]);
          }
        }
      }
    }
  }

  @Test
  void inconsistentGraphsAreRefused() {
    int[] levels = {0, 0};
    // node 0 links to itself
    assertThatThrownBy(
            () -> new IndexGraph(1, 2, 0, levels, new int[] {1, 0, 0, 0, 0, 0}, new int[2][]))
        .isInstanceOf(IllegalArgumentException.class);
    // neighbour out of range
    assertThatThrownBy(
            () -> new IndexGraph(1, 2, 0, levels, new int[] {1, 2, 0, 0, 0, 0}, new int[2][]))
        .isInstanceOf(IllegalArgumentException.class);
    // degree above the bound
    assertThatThrownBy(
            () -> new IndexGraph(1, 2, 0, levels, new int[] {3, 1, 1, 0, 0, 0}, new int[2][]))
        .isInstanceOf(IllegalArgumentException.class);
    // entry not of the top level
    assertThatThrownBy(
            () ->
                new IndexGraph(
                    1, 2, 0, new int[] {0, 1}, new int[6], new int[][] {null, new int[] {0, 0}}))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new IndexGraph(1, 2, 0, levels, new int[] {1, 1, 0, 1, 0, 0}, new int[2][]).size())
        .isEqualTo(2);
  }

  private Path sample(Random r) throws IOException {
    IndexGraph g = random(r, 40, 3);
    Path file = dir.resolve("sample.db");
    Files.deleteIfExists(file);
    g.write(fs, file, GENERATION);
    return file;
  }

  @Test
  void flippedBytesAreCaughtAtOpen() throws IOException {
    long seed = seed("flippedBytesAreCaughtAtOpen");
    Path file = sample(new Random(seed));
    IndexFileDamage.flippedBytes(file, seed, 40, () -> IndexGraph.open(fs, file, GENERATION, 40));
  }

  @Test
  void everyTruncationIsCaughtAtOpen() throws IOException {
    Path file = sample(new Random(seed("everyTruncationIsCaughtAtOpen")));
    IndexFileDamage.truncations(file, () -> IndexGraph.open(fs, file, GENERATION, 40));
  }

  @Test
  void aGraphOfAnotherSSTableOrVectorCountIsRefused() throws IOException {
    Path file = sample(new Random(1));
    assertThatThrownBy(() -> IndexGraph.open(fs, file, GENERATION + 1, 40))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("generation");
    assertThatThrownBy(() -> IndexGraph.open(fs, file, GENERATION, 41))
        .isInstanceOf(CorruptFileException.class)
        .hasMessageContaining("40 nodes for a vector file of 41");
  }

  @Test
  void hugeCountsAnywhereAreRefusedBeforeAnythingIsSizedByThem() throws IOException {
    Path file = sample(new Random(2));
    IndexFileDamage.hugeValuesAnywhere(file, () -> IndexGraph.open(fs, file, GENERATION, 40));
  }
}
