package dev.talus.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.io.NioStorageFs;
import dev.talus.sstable.IndexGraph;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The proximity graph alone: its construction is deterministic (the same vectors give the same
 * file, byte for byte), its structure obeys the degree bounds, and its beam search finds the exact
 * top 10 with recall@10 of at least 0.95 for each similarity function on seeded random vectors.
 * Replay with {@code -Dtalus.seed}.
 */
class VectorGraphTest {
  @TempDir Path dir;

  private static long seed(String test) {
    long seed = Long.getLong("talus.seed", new Random().nextLong());
    System.out.println("VectorGraphTest." + test + " seed=" + seed);
    return seed;
  }

  private static VectorGraphScores scores(Random r, int n, int d, VectorSimilarity f) {
    float[] flat = new float[n * d];
    float[] norms = new float[n];
    for (int i = 0; i < n; i++) {
      double norm = 0;
      for (int j = 0; j < d; j++) {
        flat[i * d + j] = (float) r.nextGaussian();
        norm += flat[i * d + j] * flat[i * d + j];
      }
      if (f == VectorSimilarity.DOT_PRODUCT) {
        for (int j = 0; j < d; j++) {
          flat[i * d + j] /= (float) Math.sqrt(norm);
        }
      }
      norms[i] = VectorSimilarity.squareNorm(flat, i * d, d);
    }
    return new VectorGraphScores(flat, d, norms, f);
  }

  @Test
  void theSameVectorsGiveTheSameGraphByteForByte() throws IOException {
    long seed = seed("theSameVectorsGiveTheSameGraphByteForByte");
    VectorGraphScores s = scores(new Random(seed), 3_000, 16, VectorSimilarity.COSINE);
    NioStorageFs fs = new NioStorageFs();
    Path a = dir.resolve("a.db");
    Path b = dir.resolve("b.db");
    VectorGraphBuilder.build(s).write(fs, a, 1);
    VectorGraphBuilder.build(s).write(fs, b, 1);
    assertThat(Files.readAllBytes(a)).isEqualTo(Files.readAllBytes(b));
    IndexGraph g = IndexGraph.open(fs, a, 1, 3_000);
    assertThat(g.maxDegree()).isEqualTo(VectorGraphBuilder.M);
    assertThat(g.maxDegree0()).isEqualTo(2 * VectorGraphBuilder.M);
    assertThat(g.topLevel()).isPositive(); // 3,000 nodes at M 16: some above layer 0
    for (int i = 0; i < g.size(); i++) {
      assertThat(g.adjacency(i, 0)[g.offset(i, 0)]).as("node %d has neighbours", i).isPositive();
    }
  }

  @Test
  void beamSearchRecallAt10IsAtLeast095ForEachFunction() {
    long seed = seed("beamSearchRecallAt10IsAtLeast095ForEachFunction");
    Random r = new Random(seed);
    for (VectorSimilarity f : VectorSimilarity.values()) {
      VectorGraphScores s = scores(r, 5_000, 16, f);
      IndexGraph g = VectorGraphBuilder.build(s);
      double hit = 0;
      int queries = 50;
      for (int q = 0; q < queries; q++) {
        float[] query = scores(r, 1, 16, f).vector(0);
        int[] got = VectorGraphSearch.search(g, s, query, VectorSearch.MIN_BEAM / 4);
        assertThat(got).hasSize(VectorSearch.MIN_BEAM / 4);
        Set<Integer> exact = exactTop10(s, query);
        for (int i = 0; i < 10; i++) {
          hit += exact.contains(got[i]) ? 0.1 : 0;
        }
      }
      System.out.printf("VectorGraphTest %s recall@10 %.3f%n", f, hit / queries);
      assertThat(hit / queries).as("seed %d, %s", seed, f).isGreaterThanOrEqualTo(0.95);
    }
  }

  private static Set<Integer> exactTop10(VectorGraphScores s, float[] q) {
    float qn = s.queryNorm(q);
    VectorGraphHeap h = new VectorGraphHeap(false, 11);
    for (int i = 0; i < s.size(); i++) {
      h.push(s.score(q, qn, i), i);
      if (h.size() > 10) {
        h.pop();
      }
    }
    int[] top = new int[10];
    h.drainBestFirst(top, null);
    Set<Integer> out = new HashSet<>();
    for (int x : top) {
      out.add(x);
    }
    return out;
  }
}
