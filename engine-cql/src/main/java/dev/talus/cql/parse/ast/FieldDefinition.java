package dev.talus.cql.parse.ast;

/**
 * A field of a user-defined type: {@code name type}.
 *
 * @param name the field
 * @param type its type
 */
public record FieldDefinition(Identifier name, CqlType type) {
  /**
   * Returns where the field definition starts.
   *
   * @return the position
   */
  public SourcePosition position() {
    return name.position();
  }
}
