package dev.talus;

import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * The rows of one read (or one page of it) and, if more rows may follow, the state to fetch the
 * next page. Immutable and thread-safe.
 */
public final class ResultSet implements Iterable<ResultRow> {
  private final List<ResultRow> rows;
  private final PagingState pagingState;

  /** The first row of each group a grouped read hands to {@code read} (one page of groups). */
  static ResultSet firstOfEachGroup(
      java.util.function.Function<GroupedRow, Optional<PagingState>> read) {
    List<ResultRow> first = new java.util.ArrayList<>();
    Optional<PagingState> next =
        read.apply(
            (row, firstOfGroup) -> {
              if (firstOfGroup) {
                first.add(row);
              }
            });
    return new ResultSet(first, next.orElse(null));
  }

  ResultSet(List<ResultRow> rows, PagingState pagingState) {
    this.rows = List.copyOf(rows);
    this.pagingState = pagingState;
  }

  public List<ResultRow> rows() {
    return rows;
  }

  public int size() {
    return rows.size();
  }

  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** The first row, if any. */
  public Optional<ResultRow> first() {
    return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
  }

  /** The state for the next page, or empty when this was the last page. */
  public Optional<PagingState> pagingState() {
    return Optional.ofNullable(pagingState);
  }

  @Override
  public Iterator<ResultRow> iterator() {
    return rows.iterator();
  }

  /** How many rows {@link #toString()} shows. */
  static final int ROWS_SHOWN = 10;

  /**
   * The row count and the first {@value #ROWS_SHOWN} rows with their values, e.g. {@code
   * ResultSet{2 rows: [id=1, name=a], [id=2, name=b]}}; for logs and test failures.
   */
  @Override
  public String toString() {
    StringBuilder b = new StringBuilder("ResultSet{").append(rows.size()).append(" rows");
    for (int i = 0; i < Math.min(rows.size(), ROWS_SHOWN); i++) {
      b.append(i == 0 ? ": " : ", ").append('[');
      ResultRow r = rows.get(i);
      List<String> cols = r.columns();
      for (int c = 0; c < cols.size(); c++) {
        b.append(c == 0 ? "" : ", ").append(cols.get(c)).append('=');
        Object v = r.get(cols.get(c));
        b.append(v instanceof byte[] bytes ? hex(bytes) : String.valueOf(v));
      }
      b.append(']');
    }
    if (rows.size() > ROWS_SHOWN) {
      b.append(", … ").append(rows.size() - ROWS_SHOWN).append(" more");
    }
    return b.append(pagingState != null ? "; more pages" : "").append('}').toString();
  }

  private static String hex(byte[] bytes) {
    StringBuilder h = new StringBuilder("0x");
    for (int i = 0; i < Math.min(bytes.length, 32); i++) {
      h.append(String.format("%02x", bytes[i] & 0xFF));
    }
    return bytes.length > 32
        ? h.append("…(").append(bytes.length).append(" bytes)").toString()
        : h.toString();
  }
}
