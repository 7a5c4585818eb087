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
    int n = a.length;
    switch (this) {
      case EUCLIDEAN:
        {
          float sum = 0;
          for (int i = 0; i < n; i++) {
            float d = a[i] - flat[offset + i];
            sum += d * d;
          }
          return 1f / (1f + sum);
        }
      case DOT_PRODUCT:
        {
          float dot = 0;
          for (int i = 0; i < n; i++) {
            dot += a[i] * flat[offset + i];
          }
          return (1f + dot) / 2f;
        }
      default:
        {
          float dot = 0;
          float na = 0;
          float nb = 0;
          for (int i = 0; i < n; i++) {
            float x = a[i];
            float y = flat[offset + i];
            dot += x * y;
            na += x * x;
            nb += y * y;
          }
          double cos = dot / Math.sqrt((double) na * nb);
          return (float) ((1 + cos) / 2);
        }
    }
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
