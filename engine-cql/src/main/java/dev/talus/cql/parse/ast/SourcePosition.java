package dev.talus.cql.parse.ast;

/**
 * Where a node starts in the parsed text: a 1-based line and column (columns count characters, a
 * tab is one). Semantic errors found later (an unknown column, a wrong type) point here.
 *
 * <p>A position is metadata, not content: <b>every position equals every other</b>, so two syntax
 * trees that differ only in where they were written are equal (a statement and its canonical
 * reprint compare equal, and a cache keyed by statements ignores layout). Compare {@link #line()}
 * and {@link #column()} to compare places. Immutable.
 */
public final class SourcePosition {
  /** The position of nodes that were not parsed from text (built by code). */
  public static final SourcePosition NONE = new SourcePosition(0, 0);

  private final int line;
  private final int column;

  private SourcePosition(int line, int column) {
    this.line = line;
    this.column = column;
  }

  /**
   * Returns the position at the given line and column.
   *
   * @param line the 1-based line
   * @param column the 1-based column
   * @return the position
   */
  public static SourcePosition of(int line, int column) {
    return new SourcePosition(line, column);
  }

  /**
   * Returns the 1-based line, or 0 for {@link #NONE}.
   *
   * @return the line
   */
  public int line() {
    return line;
  }

  /**
   * Returns the 1-based column, or 0 for {@link #NONE}.
   *
   * @return the column
   */
  public int column() {
    return column;
  }

  /** Always true for another position: positions do not take part in the equality of nodes. */
  @Override
  public boolean equals(Object o) {
    return o instanceof SourcePosition;
  }

  @Override
  public int hashCode() {
    return 0;
  }

  @Override
  public String toString() {
    return line + ":" + column;
  }
}
