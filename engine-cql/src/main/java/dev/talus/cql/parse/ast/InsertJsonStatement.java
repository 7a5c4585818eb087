package dev.talus.cql.parse.ast;

/**
 * {@code INSERT INTO table JSON '{...}' [DEFAULT NULL | DEFAULT UNSET] [IF NOT EXISTS] [USING
 * ...]}.
 *
 * @param table the table
 * @param json a string literal or a bind marker holding the JSON object
 * @param defaultUnset true for {@code DEFAULT UNSET} (omitted columns keep their value); false for
 *     the default {@code DEFAULT NULL} (omitted columns are set to null)
 * @param ifNotExists true for {@code IF NOT EXISTS}
 * @param attributes the {@code USING} clause
 * @param position where {@code INSERT} was written
 */
public record InsertJsonStatement(
    QualifiedName table,
    Term json,
    boolean defaultUnset,
    boolean ifNotExists,
    Attributes attributes,
    SourcePosition position)
    implements ModificationStatement {
  @Override
  public <R> R accept(StatementVisitor<R> visitor) {
    return visitor.visitInsertJson(this);
  }
}
