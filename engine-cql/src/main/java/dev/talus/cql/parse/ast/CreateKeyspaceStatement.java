package dev.talus.cql.parse.ast;

/**
 * {@code CREATE KEYSPACE [IF NOT EXISTS] ks WITH replication = {...} [AND durable_writes = b]}
 * ({@code SCHEMA} is accepted for {@code KEYSPACE}).
 *
 * @param keyspace the keyspace
 * @param ifNotExists true for {@code IF NOT EXISTS}
 * @param properties the options (required by the grammar, at least one)
 * @param position where {@code CREATE} was written
 */
public record CreateKeyspaceStatement(
    Identifier keyspace, boolean ifNotExists, Properties properties, SourcePosition position)
    implements RawStatement {
  @Override
  public <R> R accept(StatementVisitor<R> visitor) {
    return visitor.visitCreateKeyspace(this);
  }
}
