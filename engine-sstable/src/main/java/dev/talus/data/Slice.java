package dev.talus.data;

import java.util.Arrays;

/**
 * The clusterings strictly between two bounds (see {@link ClusteringBytes}). A slice built from
 * bounds of clustering prefixes never contains the static row, which sorts before {@link
 * ClusteringBytes#BOTTOM}. Immutable and thread-safe.
 */
public record Slice(byte[] start, byte[] end) {
  /** Everything a partition holds: its static row and every other row (flush, compaction). */
  public static final Slice ALL = new Slice(new byte[] {0x00}, ClusteringBytes.TOP);

  /** Exactly the static row ({@link ClusteringBytes#STATIC}). */
  public static final Slice STATIC = new Slice(new byte[] {0x00}, ClusteringBytes.BOTTOM);

  /** Every row but the static row: what a read of a whole partition's rows asks for. */
  public static final Slice ROWS = new Slice(ClusteringBytes.BOTTOM, ClusteringBytes.TOP);

  public boolean contains(byte[] clustering) {
    return Arrays.compareUnsigned(start, clustering) < 0
        && Arrays.compareUnsigned(clustering, end) < 0;
  }

  public boolean isEmpty() {
    return Arrays.compareUnsigned(start, end) >= 0;
  }

  /** True if the closed range [lo, hi] (clusterings or bounds) intersects this slice. */
  public boolean intersects(byte[] lo, byte[] hi) {
    return Arrays.compareUnsigned(lo, end) < 0 && Arrays.compareUnsigned(start, hi) < 0;
  }

  public Slice intersect(Slice o) {
    byte[] s = Arrays.compareUnsigned(start, o.start) >= 0 ? start : o.start;
    byte[] e = Arrays.compareUnsigned(end, o.end) <= 0 ? end : o.end;
    return new Slice(s, e);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Slice s && Arrays.equals(s.start, start) && Arrays.equals(s.end, end);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(start) * 31 + Arrays.hashCode(end);
  }

  @Override
  public String toString() {
    return "Slice{" + Arrays.toString(start) + ", " + Arrays.toString(end) + "}";
  }
}
