package dev.talus.cql.parse.ast;

import java.util.List;

/**
 * {@code UPDATE table [USING ...] SET ops WHERE relations [IF EXISTS | IF conditions]}.
 *
 * @param table the table
 * @param attributes the {@code USING} clause
 * @param operations the assignments, in the order written
 * @param where the relations naming the rows
 * @param ifExists true for {@code IF EXISTS}
 * @param conditions the {@code IF} conditions (empty when absent or {@code IF EXISTS})
 * @param position where {@code UPDATE} was written
 */
public record UpdateStatement(
    QualifiedName table,
    Attributes attributes,
    List<Operation> operations,
    List<Relation> where,
    boolean ifExists,
    List<Condition> conditions,
    SourcePosition position)
    implements ModificationStatement {
  public UpdateStatement {
    operations = List.copyOf(operations);
    where = List.copyOf(where);
    conditions = List.copyOf(conditions);
  }

  @Override
  public <R> R accept(StatementVisitor<R> visitor) {
    return visitor.visitUpdate(this);
  }
}
