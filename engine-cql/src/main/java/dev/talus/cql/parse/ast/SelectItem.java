package dev.talus.cql.parse.ast;

/**
 * One selector of a {@code SELECT} clause with its optional alias ({@code max(v) AS top}).
 *
 * @param selector the selector
 * @param alias the alias, or null
 */
public record SelectItem(Selector selector, Identifier alias) {
  /**
   * Returns where the item starts.
   *
   * @return the position
   */
  public SourcePosition position() {
    return selector.position();
  }
}
