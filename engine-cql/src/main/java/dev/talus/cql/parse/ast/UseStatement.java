package dev.talus.cql.parse.ast;

/**
 * {@code USE keyspace}.
 *
 * @param keyspace the keyspace
 * @param position where {@code USE} was written
 */
public record UseStatement(Identifier keyspace, SourcePosition position) implements RawStatement {
  @Override
  public <R> R accept(StatementVisitor<R> visitor) {
    return visitor.visitUse(this);
  }
}
