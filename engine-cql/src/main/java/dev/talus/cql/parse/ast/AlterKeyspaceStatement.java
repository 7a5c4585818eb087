package dev.talus.cql.parse.ast;

/**
 * {@code ALTER KEYSPACE [IF EXISTS] ks WITH options}.
 *
 * @param keyspace the keyspace
 * @param ifExists true for {@code IF EXISTS}
 * @param properties the options
 * @param position where {@code ALTER} was written
 */
public record AlterKeyspaceStatement(
    Identifier keyspace, boolean ifExists, Properties properties, SourcePosition position)
    implements RawStatement {
  @Override
  public <R> R accept(StatementVisitor<R> visitor) {
    return visitor.visitAlterKeyspace(this);
  }
}
