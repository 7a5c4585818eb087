package dev.talus.cql.parse.ast;

/** The statements that write and may appear in a batch: INSERT, INSERT JSON, UPDATE, DELETE. */
public sealed interface ModificationStatement extends RawStatement
    permits InsertStatement, InsertJsonStatement, UpdateStatement, DeleteStatement {

  /**
   * Returns the table written to.
   *
   * @return the table
   */
  QualifiedName table();

  /**
   * Returns the {@code USING} clause.
   *
   * @return the attributes, {@link Attributes#NONE} when absent
   */
  Attributes attributes();
}
