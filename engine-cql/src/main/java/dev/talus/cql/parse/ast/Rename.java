package dev.talus.cql.parse.ast;

/**
 * One {@code from TO to} of a {@code RENAME} clause.
 *
 * @param from the current name
 * @param to the new name
 */
public record Rename(Identifier from, Identifier to) {
  /**
   * Returns where the rename starts.
   *
   * @return the position
   */
  public SourcePosition position() {
    return from.position();
  }
}
