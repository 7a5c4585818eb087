package dev.talus.cql.parse.ast;

/**
 * {@code DROP TABLE [IF EXISTS] t}.
 *
 * @param table the table
 * @param ifExists true for {@code IF EXISTS}
 * @param position where {@code DROP} was written
 */
public record DropTableStatement(QualifiedName table, boolean ifExists, SourcePosition position)
    implements RawStatement {
  @Override
  public <R> R accept(StatementVisitor<R> visitor) {
    return visitor.visitDropTable(this);
  }
}
