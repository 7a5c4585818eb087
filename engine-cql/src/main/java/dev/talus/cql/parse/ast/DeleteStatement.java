package dev.talus.cql.parse.ast;

import java.util.List;

/**
 * {@code DELETE [targets] FROM table [USING TIMESTAMP t] WHERE relations [IF EXISTS | IF
 * conditions]}. Without targets the statement deletes rows, ranges or partitions.
 *
 * @param targets the columns, elements or fields to delete (empty for whole rows)
 * @param table the table
 * @param attributes the {@code USING} clause (only a timestamp)
 * @param where the relations naming the rows
 * @param ifExists true for {@code IF EXISTS}
 * @param conditions the {@code IF} conditions
 * @param position where {@code DELETE} was written
 */
public record DeleteStatement(
    List<ColumnRef> targets,
    QualifiedName table,
    Attributes attributes,
    List<Relation> where,
    boolean ifExists,
    List<Condition> conditions,
    SourcePosition position)
    implements ModificationStatement {
  public DeleteStatement {
    targets = List.copyOf(targets);
    where = List.copyOf(where);
    conditions = List.copyOf(conditions);
  }

  @Override
  public <R> R accept(StatementVisitor<R> visitor) {
    return visitor.visitDelete(this);
  }
}
