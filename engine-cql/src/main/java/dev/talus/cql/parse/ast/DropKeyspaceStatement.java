package dev.talus.cql.parse.ast;

/**
 * {@code DROP KEYSPACE [IF EXISTS] ks}.
 *
 * @param keyspace the keyspace
 * @param ifExists true for {@code IF EXISTS}
 * @param position where {@code DROP} was written
 */
public record DropKeyspaceStatement(Identifier keyspace, boolean ifExists, SourcePosition position)
    implements RawStatement {
  @Override
  public <R> R accept(StatementVisitor<R> visitor) {
    return visitor.visitDropKeyspace(this);
  }
}
