package dev.talus.read;

import dev.talus.ResultRow;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * Result rows as text, for tests that compare two reads value for value: every column's value
 * (blobs by content), and the write time and TTL of the columns {@code timed} names.
 */
final class ResultText {
  private ResultText() {}

  static String describe(List<ResultRow> rows, Predicate<String> timed) {
    StringBuilder b = new StringBuilder();
    for (ResultRow r : rows) {
      b.append('[');
      for (String col : r.columns()) {
        Object v = r.get(col);
        b.append(col).append('=').append(v instanceof byte[] a ? Arrays.toString(a) : v);
        if (timed.test(col)) {
          b.append(" wt=").append(r.writeTime(col)).append(" ttl=").append(r.ttl(col));
        }
        b.append(' ');
      }
      b.append(']');
    }
    return b.toString();
  }
}
