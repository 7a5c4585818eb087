package dev.talus.cql.parse.ast;

/**
 * {@code DROP INDEX [IF EXISTS] [ks.]name}.
 *
 * @param index the index
 * @param ifExists true for {@code IF EXISTS}
 * @param position where {@code DROP} was written
 */
public record DropIndexStatement(QualifiedName index, boolean ifExists, SourcePosition position)
    implements RawStatement {
  @Override
  public <R> R accept(StatementVisitor<R> visitor) {
    return visitor.visitDropIndex(this);
  }
}
