package dev.talus.cql.parse.ast;

import java.util.List;

/**
 * {@code CREATE TYPE [IF NOT EXISTS] name (field type, ...)}.
 *
 * @param type the type's name
 * @param ifNotExists true for {@code IF NOT EXISTS}
 * @param fields the fields, in order
 * @param position where {@code CREATE} was written
 */
public record CreateTypeStatement(
    QualifiedName type, boolean ifNotExists, List<FieldDefinition> fields, SourcePosition position)
    implements RawStatement {
  public CreateTypeStatement {
    fields = List.copyOf(fields);
  }

  @Override
  public <R> R accept(StatementVisitor<R> visitor) {
    return visitor.visitCreateType(this);
  }
}
