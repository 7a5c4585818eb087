package dev.talus.cql.parse.ast;

/**
 * {@code TRUNCATE [TABLE] table}.
 *
 * @param table the table
 * @param position where {@code TRUNCATE} was written
 */
public record TruncateStatement(QualifiedName table, SourcePosition position)
    implements RawStatement {
  @Override
  public <R> R accept(StatementVisitor<R> visitor) {
    return visitor.visitTruncate(this);
  }
}
