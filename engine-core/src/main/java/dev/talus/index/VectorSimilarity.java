package dev.talus.index;

import dev.talus.IndexDef;
import dev.talus.InvalidQueryException;
import java.util.Locale;

/**
 * The similarity functions of a vector index (its {@code similarity_function} option), scored as
 * Cassandra 5.0 scores them (after Lucene's and JVector's {@code VectorSimilarityFunction}): higher
 * is closer, and every score lies in [0, 1] for unit vectors. {@link #COSINE} is the default.
 * Stateless.
 */
public enum VectorSimilarity {
  /** {@code (1 + cos(a, b)) / 2}; a zero vector has no cosine and is never indexed or queried. */
  COSINE,
  /** {@code (1 + a·b) / 2}; meant for unit vectors, as in Cassandra. */
  DOT_PRODUCT,
  /** {@code 1 / (1 + |a - b|²)}. */
  EUCLIDEAN;

  /** The index option naming the function. */
  public static final String OPTION = "similarity_function";

  /** The function of {@code def}: its {@code similarity_function} option, else cosine. */
  public static VectorSimilarity of(IndexDef def) {
    String option = def.options().get(OPTION);
    return option == null ? COSINE : parse(def.name(), option);
  }

  /** The function named {@code option} (any case), refused with Cassandra's message otherwise. */
  static VectorSimilarity parse(String index, String option) {
    String upper = option.toUpperCase(Locale.ROOT);
    for (VectorSimilarity f : values()) {
      if (f.name().equals(upper)) {
        return f;
      }
    }
    throw new InvalidQueryException(
        "Similarity function "
            + upper
            + " was not recognized for index "
            + index
            + ". Valid values are: COSINE, DOT_PRODUCT, EUCLIDEAN");
  }

  /** The option's value for this function, as CQL writes it ({@code cosine}, ...). */
  public String optionValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The score of {@code a} against the vector at {@code offset} of {@code flat}. */
  public float score(float[] a, float[] flat, int offset) {
    return switch (this) {
      case EUCLIDEAN -> 1f / (1f + squareDistance(a, flat, offset));
      case DOT_PRODUCT -> (1f + dot(a, flat, offset)) / 2f;
      case COSINE ->
          cosineScore(
              dot(a, flat, offset), squareNorm(a, 0, a.length), squareNorm(flat, offset, a.length));
    };
  }

  /**
   * The cosine score of {@code a} against the vector at {@code offset} of {@code flat}, given the
   * two vectors' squared norms (so that a scan computes each stored vector's norm once).
   */
  static float cosineScore(float dot, float squareNormA, float squareNormB) {
    double cos = dot / Math.sqrt((double) squareNormA * squareNormB);
    return (float) ((1 + cos) / 2);
  }

  /** The dot product of {@code a} and the vector at {@code offset} of {@code b}. */
  static float dot(float[] a, float[] b, int offset) {
    // four sums: independent chains the JIT can pipeline (it does not reorder one float sum)
    float s0 = 0;
    float s1 = 0;
    float s2 = 0;
    float s3 = 0;
    int n = a.length;
    int i = 0;
    for (; i + 3 < n; i += 4) {
      s0 += a[i] * b[offset + i];
      s1 += a[i + 1] * b[offset + i + 1];
      s2 += a[i + 2] * b[offset + i + 2];
      s3 += a[i + 3] * b[offset + i + 3];
    }
    for (; i < n; i++) {
      s0 += a[i] * b[offset + i];
    }
    return (s0 + s1) + (s2 + s3);
  }

  /** The squared norm of the {@code n} elements at {@code offset} of {@code v}. */
  static float squareNorm(float[] v, int offset, int n) {
    float s = 0;
    for (int i = 0; i < n; i++) {
      float x = v[offset + i];
      s += x * x;
    }
    return s;
  }

  /** The squared distance between {@code a} and the vector at {@code offset} of {@code b}. */
  static float squareDistance(float[] a, float[] b, int offset) {
    float s0 = 0;
    float s1 = 0;
    int n = a.length;
    int i = 0;
    for (; i + 1 < n; i += 2) {
      float d0 = a[i] - b[offset + i];
      float d1 = a[i + 1] - b[offset + i + 1];
      s0 += d0 * d0;
      s1 += d1 * d1;
    }
    for (; i < n; i++) {
      float d = a[i] - b[offset + i];
      s0 += d * d;
    }
    return s0 + s1;
  }

  /** The score of {@code a} against {@code b}, of the same length. */
  public float score(float[] a, float[] b) {
    return score(a, b, 0);
  }

  /** False for a vector this function cannot score: a zero vector under cosine. */
  public boolean accepts(float[] v) {
    if (this != COSINE) {
      return true;
    }
    for (float x : v) {
      if (x != 0f) {
        return true;
      }
    }
    return false;
  }
}
