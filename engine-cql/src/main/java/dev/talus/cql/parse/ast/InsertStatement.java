package dev.talus.cql.parse.ast;

import java.util.List;

/**
 * {@code INSERT INTO table (c1, c2) VALUES (v1, v2) [IF NOT EXISTS] [USING ...]}. The numbers of
 * columns and values may differ here; preparing refuses that.
 *
 * @param table the table
 * @param columns the columns
 * @param values the values
 * @param ifNotExists true for {@code IF NOT EXISTS}
 * @param attributes the {@code USING} clause
 * @param position where {@code INSERT} was written
 */
public record InsertStatement(
    QualifiedName table,
    List<Identifier> columns,
    List<Term> values,
    boolean ifNotExists,
    Attributes attributes,
    SourcePosition position)
    implements ModificationStatement {
  public InsertStatement {
    columns = List.copyOf(columns);
    values = List.copyOf(values);
  }

  @Override
  public <R> R accept(StatementVisitor<R> visitor) {
    return visitor.visitInsert(this);
  }
}
