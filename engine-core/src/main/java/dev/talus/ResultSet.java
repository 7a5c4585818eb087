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

  @Override
  public String toString() {
    return "ResultSet{" + rows.size() + " rows" + (pagingState != null ? ", more" : "") + "}";
  }
}
