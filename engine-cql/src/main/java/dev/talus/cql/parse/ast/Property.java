package dev.talus.cql.parse.ast;

/**
 * One {@code name = value} option.
 *
 * @param name the option's name (folded to lower case unless quoted)
 * @param value the value
 */
public record Property(Identifier name, PropertyValue value) {
  /**
   * Returns where the option starts.
   *
   * @return the position
   */
  public SourcePosition position() {
    return name.position();
  }
}
