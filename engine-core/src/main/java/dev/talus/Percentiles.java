package dev.talus;

/**
 * A distribution summarised the way {@code nodetool tablehistograms} prints it. Values are in the
 * unit the field that holds it says (microseconds, bytes, counts). Percentiles of a log-bucketed
 * histogram are within about 20% of the exact value. Immutable.
 *
 * @param count how many values were recorded
 */
public record Percentiles(long count, long p50, long p75, long p95, long p98, long p99, long max) {
  public static final Percentiles EMPTY = new Percentiles(0, 0, 0, 0, 0, 0, 0);

  @Override
  public String toString() {
    return "p50=" + p50 + " p75=" + p75 + " p95=" + p95 + " p98=" + p98 + " p99=" + p99 + " max="
        + max + " (n=" + count + ")";
  }
}
