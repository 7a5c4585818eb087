package dev.talus.cql.parse.ast;

import java.util.List;

/**
 * {@code BEGIN [UNLOGGED | COUNTER] BATCH [USING ...] statements APPLY BATCH}.
 *
 * @param type logged, unlogged or counter
 * @param attributes the {@code USING} clause for every statement
 * @param statements the statements, in order (may be empty)
 * @param position where {@code BEGIN} was written
 */
public record BatchStatement(
    Type type,
    Attributes attributes,
    List<ModificationStatement> statements,
    SourcePosition position)
    implements RawStatement {
  public BatchStatement {
    statements = List.copyOf(statements);
  }

  /** The kind of batch. */
  public enum Type {
    LOGGED,
    UNLOGGED,
    COUNTER
  }

  @Override
  public <R> R accept(StatementVisitor<R> visitor) {
    return visitor.visitBatch(this);
  }
}
