package dev.talus.index;

import dev.talus.sstable.IndexGraph;
import java.util.Random;

/**
 * Builds the proximity graph of one vector file: a hierarchical navigable small world graph (Malkov
 * and Yashunin, 2016: insertion is their algorithm 1, neighbour selection the heuristic of
 * algorithm 4, without extending or keeping pruned candidates, for a new node's own neighbours;
 * Lucene's {@code HnswGraphBuilder} and hnswlib follow the same paper). Vectors are inserted in
 * file order; each draws its level from a generator seeded by a constant, and nothing else is
 * random, so one vector file always gives the same graph, byte for byte. Single-threaded; not
 * thread-safe.
 */
final class VectorGraphBuilder {
  /**
   * Neighbours per node in the upper layers (twice as many in layer 0), as in Lucene and JVector.
   */
  static final int M = 16;

  /** The beam width of insertion searches. */
  static final int EF_CONSTRUCTION = 100;

  /** The seed of the level generator. */
  static final long SEED = 0x7a1c_5eed_0001L;

  private final VectorGraphScores s;
  private final int n;
  private final int m;
  private final int m0;
  private final int ef;
  private final int[] levels;
  private final int[] layer0;
  private final int[][] upper;
  private final float[] scores0;
  private final float[][] scoresUp;
  private final int[] stamps;
  private int stamp;
  private int entry = -1;
  private int top;
  private final VectorGraphHeap candidates;
  private final VectorGraphHeap results;
  private int[] found;
  private float[] foundScores;

  private final VectorGraphSearch.Links links =
      new VectorGraphSearch.Links() {
        @Override
        public int[] array(int node, int layer) {
          return layer == 0 ? layer0 : upper[node];
        }

        @Override
        public int offset(int node, int layer) {
          return layer == 0 ? node * (m0 + 1) : (layer - 1) * (m + 1);
        }
      };

  private final VectorGraphSearch.Visited visited = this::visit;

  private VectorGraphBuilder(VectorGraphScores s, int m, int ef) {
    this.s = s;
    this.n = s.size();
    this.m = m;
    this.m0 = 2 * m;
    this.ef = ef;
    this.levels = new int[n];
    this.layer0 = new int[Math.multiplyExact(n, m0 + 1)];
    this.upper = new int[n][];
    this.scores0 = new float[layer0.length];
    this.scoresUp = new float[n][];
    this.stamps = new int[n];
    this.candidates = new VectorGraphHeap(true, 2 * ef);
    this.results = new VectorGraphHeap(false, ef + 1);
    this.found = new int[ef + 1];
    this.foundScores = new float[ef + 1];
    Random rnd = new Random(SEED);
    double ml = 1 / Math.log(m);
    for (int i = 0; i < n; i++) {
      int level = (int) (-Math.log(1 - rnd.nextDouble()) * ml);
      levels[i] = Math.min(level, IndexGraph.MAX_LEVEL);
      upper[i] = levels[i] == 0 ? null : new int[levels[i] * (m + 1)];
      scoresUp[i] = levels[i] == 0 ? null : new float[levels[i] * (m + 1)];
    }
  }

  private boolean visit(int node) {
    if (stamps[node] == stamp) {
      return false;
    }
    stamps[node] = stamp;
    return true;
  }

  /** The graph of the vectors {@code s} scores, with {@code m} and beam width {@code ef}. */
  static IndexGraph build(VectorGraphScores s, int m, int ef) {
    VectorGraphBuilder b = new VectorGraphBuilder(s, m, ef);
    for (int i = 0; i < b.n; i++) {
      b.insert(i);
    }
    return new IndexGraph(b.m, b.m0, b.entry, b.levels, b.layer0, b.upper);
  }

  /** The graph with the default parameters. */
  static IndexGraph build(VectorGraphScores s) {
    return build(s, M, EF_CONSTRUCTION);
  }

  private void insert(int i) {
    int level = levels[i];
    if (entry < 0) {
      entry = i;
      top = level;
      return;
    }
    float[] q = s.vector(i);
    float qn = s.queryNorm(q);
    int ep = entry;
    float epScore = s.score(q, qn, ep);
    for (int l = top; l > level; l--) {
      long best = VectorGraphSearch.greedy(links, s, q, qn, ep, epScore, l);
      ep = (int) (best >>> 32);
      epScore = Float.intBitsToFloat((int) best);
    }
    found[0] = ep;
    foundScores[0] = epScore;
    int entries = 1;
    for (int l = Math.min(level, top); l >= 0; l--) {
      stamp++;
      candidates.clear();
      results.clear();
      for (int e = 0; e < entries; e++) {
        visited.visit(found[e]);
        candidates.push(foundScores[e], found[e]);
        results.push(foundScores[e], found[e]);
      }
      VectorGraphSearch.layer(links, s, q, qn, ef, l, visited, candidates, results);
      entries = results.drainBestFirst(found, foundScores);
      int[] a = links.array(i, l);
      int at = links.offset(i, l);
      float[] sc = l == 0 ? scores0 : scoresUp[i];
      a[at] = select(i, found, foundScores, entries, l == 0 ? m0 : m, a, sc, at);
      for (int j = 1; j <= a[at]; j++) {
        link(a[at + j], i, sc[at + j], l);
      }
    }
    if (level > top) {
      entry = i;
      top = level;
    }
  }

  /**
   * The heuristic selection: walks the candidates of {@code base} (best first) and keeps one only
   * if it is closer to {@code base} than to every candidate kept before it, up to {@code max};
   * writes the kept ones after {@code out[at]} and returns their number.
   */
  private int select(
      int base,
      int[] cands,
      float[] scores,
      int count,
      int max,
      int[] out,
      float[] outScores,
      int at) {
    int kept = 0;
    for (int j = 0; j < count && kept < max; j++) {
      int c = cands[j];
      if (c == base) {
        continue;
      }
      boolean diverse = true;
      for (int r = 1; r <= kept; r++) {
        if (s.score(c, out[at + r]) > scores[j]) {
          diverse = false;
          break;
        }
      }
      if (diverse) {
        out[at + ++kept] = c;
        outScores[at + kept] = scores[j];
      }
    }
    return kept;
  }

  /**
   * Adds {@code node} (scoring {@code score} against {@code e}) to {@code e}'s neighbours in {@code
   * layer}; when they are full, it replaces the worst of them if it is better. (The diversity
   * heuristic here too, as the paper has it, costs up to {@code m0²} scores per link and tripled
   * the build time without a measurable gain in recall on Gaussian vectors; docs/architecture.md.)
   */
  private void link(int e, int node, float score, int layer) {
    int[] a = links.array(e, layer);
    float[] sc = layer == 0 ? scores0 : scoresUp[e];
    int at = links.offset(e, layer);
    int degree = a[at];
    int max = layer == 0 ? m0 : m;
    if (degree < max) {
      a[at + degree + 1] = node;
      sc[at + degree + 1] = score;
      a[at] = degree + 1;
      return;
    }
    int worst = at + 1;
    for (int j = at + 2; j <= at + degree; j++) {
      if (VectorGraphHeap.better(sc[worst], a[worst], sc[j], a[j])) {
        worst = j;
      }
    }
    if (VectorGraphHeap.better(score, node, sc[worst], a[worst])) {
      a[worst] = node;
      sc[worst] = score;
    }
  }
}
