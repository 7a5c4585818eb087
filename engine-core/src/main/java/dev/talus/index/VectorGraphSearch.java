package dev.talus.index;

import dev.talus.sstable.IndexGraph;

/**
 * Beam search of a layered proximity graph, the search of a hierarchical navigable small world
 * graph (Malkov and Yashunin, "Efficient and robust approximate nearest neighbor search using
 * Hierarchical Navigable Small World graphs", 2016, algorithms 2 and 5): a greedy walk from the
 * entry node down the upper layers, then a beam of width {@code ef} over layer 0. The building of
 * the graph ({@link VectorGraphBuilder}) uses the same layer search. Stateless.
 */
final class VectorGraphSearch {
  private VectorGraphSearch() {}

  /** Where a node's neighbours in a layer are: its run of the adjacency arrays. */
  interface Links {
    /** The array holding {@code node}'s run of {@code layer}: its degree, then its neighbours. */
    int[] array(int node, int layer);

    /** Where that run starts. */
    int offset(int node, int layer);
  }

  /** The links of an opened graph. */
  static Links of(IndexGraph g) {
    return new Links() {
      @Override
      public int[] array(int node, int layer) {
        return g.adjacency(node, layer);
      }

      @Override
      public int offset(int node, int layer) {
        return g.offset(node, layer);
      }
    };
  }

  /** The nodes a search has visited. */
  interface Visited {
    /** Marks {@code node}; false if it was marked already. */
    boolean visit(int node);
  }

  /** A visited set of one search over {@code n} nodes, as a bit set. */
  static Visited bits(int n) {
    long[] words = new long[(n + 63) >>> 6];
    return node -> {
      long bit = 1L << node;
      int w = node >>> 6;
      if ((words[w] & bit) != 0) {
        return false;
      }
      words[w] |= bit;
      return true;
    };
  }

  /**
   * The {@code ef} best nodes of graph {@code g} for query {@code q}, best first (fewer if the
   * graph has fewer).
   */
  static int[] search(IndexGraph g, VectorGraphScores s, float[] q, int ef) {
    if (g.size() == 0) {
      return new int[0];
    }
    float qn = s.queryNorm(q);
    Links links = of(g);
    int ep = g.entry();
    float epScore = s.score(q, qn, ep);
    for (int l = g.topLevel(); l > 0; l--) {
      long best = greedy(links, s, q, qn, ep, epScore, l);
      ep = (int) (best >>> 32);
      epScore = Float.intBitsToFloat((int) best);
    }
    VectorGraphHeap candidates = new VectorGraphHeap(true, ef * 2);
    VectorGraphHeap results = new VectorGraphHeap(false, ef + 1);
    Visited visited = bits(g.size());
    visited.visit(ep);
    candidates.push(epScore, ep);
    results.push(epScore, ep);
    layer(links, s, q, qn, ef, 0, visited, candidates, results);
    int[] out = new int[results.size()];
    results.drainBestFirst(out, null);
    return out;
  }

  /**
   * The greedy walk of one upper layer from {@code ep}: moves to the best neighbour while one is
   * better. Returns the node reached in the high 32 bits and its score's bits in the low ones.
   */
  static long greedy(
      Links links, VectorGraphScores s, float[] q, float qn, int ep, float epScore, int layer) {
    boolean moved = true;
    while (moved) {
      moved = false;
      int[] a = links.array(ep, layer);
      int at = links.offset(ep, layer);
      int degree = a[at];
      int from = ep;
      for (int j = 1; j <= degree; j++) {
        int nb = a[at + j];
        float sc = s.score(q, qn, nb);
        if (VectorGraphHeap.better(sc, nb, epScore, ep)) {
          ep = nb;
          epScore = sc;
        }
      }
      moved = ep != from;
    }
    return ((long) ep << 32) | (Float.floatToRawIntBits(epScore) & 0xffffffffL);
  }

  /**
   * The beam search of one layer: {@code candidates} (best first) and {@code results} (worst first,
   * at most {@code ef}) hold the entry points, already visited; on return {@code results} holds the
   * {@code ef} best nodes reached.
   */
  static void layer(
      Links links,
      VectorGraphScores s,
      float[] q,
      float qn,
      int ef,
      int layer,
      Visited visited,
      VectorGraphHeap candidates,
      VectorGraphHeap results) {
    while (!candidates.isEmpty()) {
      float cs = candidates.topScore();
      int c = candidates.topNode();
      if (results.size() >= ef
          && !VectorGraphHeap.better(cs, c, results.topScore(), results.topNode())) {
        break; // the best candidate left is worse than every result kept
      }
      candidates.pop();
      int[] a = links.array(c, layer);
      int at = links.offset(c, layer);
      int degree = a[at];
      for (int j = 1; j <= degree; j++) {
        int nb = a[at + j];
        if (!visited.visit(nb)) {
          continue;
        }
        float sc = s.score(q, qn, nb);
        if (results.size() < ef
            || VectorGraphHeap.better(sc, nb, results.topScore(), results.topNode())) {
          candidates.push(sc, nb);
          results.push(sc, nb);
          if (results.size() > ef) {
            results.pop();
          }
        }
      }
    }
  }
}
