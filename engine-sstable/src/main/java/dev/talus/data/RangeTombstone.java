package dev.talus.data;

import java.util.Arrays;

/**
 * A deletion of every row whose clustering lies strictly between two bounds (see {@link
 * ClusteringBytes}). Immutable and thread-safe.
 */
public record RangeTombstone(byte[] start, byte[] end, DeletionTime deletion) {
  public boolean covers(byte[] clustering) {
    return Arrays.compareUnsigned(start, clustering) < 0
        && Arrays.compareUnsigned(clustering, end) < 0;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RangeTombstone r
        && Arrays.equals(r.start, start)
        && Arrays.equals(r.end, end)
        && r.deletion.equals(deletion);
  }

  @Override
  public int hashCode() {
    return (Arrays.hashCode(start) * 31 + Arrays.hashCode(end)) * 31 + deletion.hashCode();
  }

  @Override
  public String toString() {
    return "RangeTombstone{"
        + Arrays.toString(start)
        + ".."
        + Arrays.toString(end)
        + ", "
        + deletion
        + "}";
  }
}
