package dev.talus.index;

/**
 * The scores a vector graph is built and searched with: those of the vector file's exact scan
 * ({@link VectorSearch}), against a query or between two of the file's vectors. Cosine uses each
 * vector's squared norm, computed once. Immutable; thread-safe.
 */
final class VectorGraphScores {
  private final float[] flat;
  private final int d;
  private final float[] norms;
  private final VectorSimilarity f;

  /**
   * Scores over {@code flat}, vector {@code i} at {@code [i * d, (i + 1) * d)}; {@code norms} holds
   * each vector's squared norm (read only under cosine).
   */
  VectorGraphScores(float[] flat, int d, float[] norms, VectorSimilarity f) {
    this.flat = flat;
    this.d = d;
    this.norms = norms;
    this.f = f;
  }

  /** The number of vectors. */
  int size() {
    return flat.length / d;
  }

  /** A prepared query: its squared norm, for cosine. */
  float queryNorm(float[] q) {
    return VectorSimilarity.squareNorm(q, 0, d);
  }

  /** The score of query {@code q} (squared norm {@code qn}) against vector {@code node}. */
  float score(float[] q, float qn, int node) {
    int at = node * d;
    return f == VectorSimilarity.COSINE
        ? VectorSimilarity.cosineScore(VectorSimilarity.dot(q, flat, at), qn, norms[node])
        : f.score(q, flat, at);
  }

  /** The score of vector {@code a} against vector {@code b}. */
  float score(int a, int b) {
    int x = a * d;
    int y = b * d;
    return switch (f) {
      case COSINE -> VectorSimilarity.cosineScore(dot(x, y), norms[a], norms[b]);
      case DOT_PRODUCT -> (1f + dot(x, y)) / 2f;
      case EUCLIDEAN -> 1f / (1f + squareDistance(x, y));
    };
  }

  /** A copy of vector {@code node}. */
  float[] vector(int node) {
    float[] v = new float[d];
    System.arraycopy(flat, node * d, v, 0, d);
    return v;
  }

  private float dot(int x, int y) {
    float s0 = 0;
    float s1 = 0;
    float s2 = 0;
    float s3 = 0;
    int i = 0;
    for (; i + 3 < d; i += 4) {
      s0 += flat[x + i] * flat[y + i];
      s1 += flat[x + i + 1] * flat[y + i + 1];
      s2 += flat[x + i + 2] * flat[y + i + 2];
      s3 += flat[x + i + 3] * flat[y + i + 3];
    }
    for (; i < d; i++) {
      s0 += flat[x + i] * flat[y + i];
    }
    return (s0 + s1) + (s2 + s3);
  }

  private float squareDistance(int x, int y) {
    float s0 = 0;
    float s1 = 0;
    int i = 0;
    for (; i + 1 < d; i += 2) {
      float d0 = flat[x + i] - flat[y + i];
      float d1 = flat[x + i + 1] - flat[y + i + 1];
      s0 += d0 * d0;
      s1 += d1 * d1;
    }
    for (; i < d; i++) {
      float e = flat[x + i] - flat[y + i];
      s0 += e * e;
    }
    return s0 + s1;
  }
}
