package dev.talus.cql.parse.ast;

/**
 * A column of {@code CREATE TABLE} or {@code ALTER TABLE ... ADD}: {@code name type [STATIC]
 * [MASKED WITH ...]}. A {@code PRIMARY KEY} written after the column is recorded on the statement
 * as a {@link PrimaryKey} marked inline.
 *
 * @param name the column
 * @param type its type
 * @param isStatic true for {@code STATIC}
 * @param mask the masking clause, or null
 */
public record ColumnDefinition(Identifier name, CqlType type, boolean isStatic, ColumnMask mask) {
  /**
   * Returns where the definition starts.
   *
   * @return the position
   */
  public SourcePosition position() {
    return name.position();
  }
}
