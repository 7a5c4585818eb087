package dev.talus.cql.parse.ast;

/**
 * A parsed CQL statement: its raw form, exactly what was written, names unresolved and values
 * untyped. The executor prepares it into an executable statement (Cassandra's {@code
 * CQLStatement.Raw} → {@code prepare()} habit) by implementing {@link StatementVisitor}: the
 * visitor has one method per statement kind, so a new kind cannot be forgotten.
 *
 * <p>Syntax trees are immutable, and equal when they say the same thing ({@link SourcePosition}
 * takes no part in equality).
 */
public sealed interface RawStatement
    permits ModificationStatement,
        SelectStatement,
        BatchStatement,
        UseStatement,
        TruncateStatement,
        CreateKeyspaceStatement,
        AlterKeyspaceStatement,
        DropKeyspaceStatement,
        CreateTableStatement,
        AlterTableStatement,
        DropTableStatement,
        CreateTypeStatement,
        AlterTypeStatement,
        DropTypeStatement,
        CreateIndexStatement,
        DropIndexStatement,
        DescribeStatement,
        UnsupportedStatement {

  /**
   * Returns where the statement starts (its first keyword).
   *
   * @return the position
   */
  SourcePosition position();

  /**
   * Calls the visitor's method for this statement's kind.
   *
   * @param visitor the visitor
   * @param <R> what the visitor returns
   * @return what the visitor returned
   */
  <R> R accept(StatementVisitor<R> visitor);
}
