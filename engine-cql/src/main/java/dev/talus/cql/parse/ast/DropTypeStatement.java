package dev.talus.cql.parse.ast;

/**
 * {@code DROP TYPE [IF EXISTS] name}.
 *
 * @param type the type's name
 * @param ifExists true for {@code IF EXISTS}
 * @param position where {@code DROP} was written
 */
public record DropTypeStatement(QualifiedName type, boolean ifExists, SourcePosition position)
    implements RawStatement {
  @Override
  public <R> R accept(StatementVisitor<R> visitor) {
    return visitor.visitDropType(this);
  }
}
