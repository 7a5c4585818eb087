package dev.talus.cql.parse.ast;

/**
 * One element of {@code ORDER BY}: {@code column [ASC|DESC]}, or {@code column ANN OF vector}
 * (approximate nearest neighbours, Cassandra 5.0).
 *
 * @param column the column
 * @param annOf the vector to compare with for {@code ANN OF}, or null for an ordinary ordering
 * @param descending true for {@code DESC} ({@code ASC} is the default)
 */
public record Ordering(Identifier column, Term annOf, boolean descending) {
  /**
   * Returns where the ordering starts.
   *
   * @return the position
   */
  public SourcePosition position() {
    return column.position();
  }
}
