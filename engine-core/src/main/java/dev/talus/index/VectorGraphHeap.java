package dev.talus.index;

/**
 * A binary heap of scored nodes for graph searches, ordered by score, ties by node id (a lower id
 * ranks as better, as in the exact scan). A best-first heap has its best node at the top, a
 * worst-first one its worst. Not thread-safe.
 */
final class VectorGraphHeap {
  private final boolean bestFirst;
  private float[] scores;
  private int[] nodes;
  private int size;

  VectorGraphHeap(boolean bestFirst, int capacity) {
    this.bestFirst = bestFirst;
    this.scores = new float[Math.max(4, capacity)];
    this.nodes = new int[scores.length];
  }

  /** True if ({@code s1}, {@code n1}) ranks better than ({@code s2}, {@code n2}). */
  static boolean better(float s1, int n1, float s2, int n2) {
    return s1 > s2 || (s1 == s2 && n1 < n2);
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  void clear() {
    size = 0;
  }

  float topScore() {
    return scores[0];
  }

  int topNode() {
    return nodes[0];
  }

  /** The score of the {@code i}-th entry, in heap order (for iteration only). */
  float scoreAt(int i) {
    return scores[i];
  }

  /** The node of the {@code i}-th entry, in heap order (for iteration only). */
  int nodeAt(int i) {
    return nodes[i];
  }

  private boolean above(int i, int j) {
    boolean b = better(scores[i], nodes[i], scores[j], nodes[j]);
    return bestFirst == b;
  }

  void push(float score, int node) {
    if (size == scores.length) {
      scores = java.util.Arrays.copyOf(scores, size * 2);
      nodes = java.util.Arrays.copyOf(nodes, size * 2);
    }
    int i = size++;
    scores[i] = score;
    nodes[i] = node;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (!above(i, parent)) {
        break;
      }
      swap(i, parent);
      i = parent;
    }
  }

  /** Removes the top entry; returns its node. */
  int pop() {
    int top = nodes[0];
    size--;
    if (size > 0) {
      scores[0] = scores[size];
      nodes[0] = nodes[size];
      int i = 0;
      while (true) {
        int l = 2 * i + 1;
        if (l >= size) {
          break;
        }
        int c = l + 1 < size && above(l + 1, l) ? l + 1 : l;
        if (!above(c, i)) {
          break;
        }
        swap(i, c);
        i = c;
      }
    }
    return top;
  }

  private void swap(int i, int j) {
    float s = scores[i];
    scores[i] = scores[j];
    scores[j] = s;
    int n = nodes[i];
    nodes[i] = nodes[j];
    nodes[j] = n;
  }

  /**
   * Empties the heap into {@code outNodes}/{@code outScores} (either may be null), best first;
   * returns the number of entries.
   */
  int drainBestFirst(int[] outNodes, float[] outScores) {
    int n = size;
    for (int r = n - 1; r >= 0 && bestFirst == false; r--) {
      float s = scores[0];
      int node = pop();
      if (outNodes != null) {
        outNodes[r] = node;
      }
      if (outScores != null) {
        outScores[r] = s;
      }
    }
    for (int r = 0; r < n && bestFirst; r++) {
      float s = scores[0];
      int node = pop();
      if (outNodes != null) {
        outNodes[r] = node;
      }
      if (outScores != null) {
        outScores[r] = s;
      }
    }
    return n;
  }
}
