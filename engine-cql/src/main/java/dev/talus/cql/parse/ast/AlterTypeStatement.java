package dev.talus.cql.parse.ast;

import java.util.List;

/**
 * {@code ALTER TYPE [IF EXISTS] name action}.
 *
 * @param type the type's name
 * @param ifExists true for {@code IF EXISTS}
 * @param action what to change
 * @param position where {@code ALTER} was written
 */
public record AlterTypeStatement(
    QualifiedName type, boolean ifExists, Action action, SourcePosition position)
    implements RawStatement {

  @Override
  public <R> R accept(StatementVisitor<R> visitor) {
    return visitor.visitAlterType(this);
  }

  /** The change an {@code ALTER TYPE} makes. */
  public sealed interface Action permits AddField, RenameFields, AlterFieldType {}

  /**
   * {@code ADD [IF NOT EXISTS] field type}.
   *
   * @param ifNotExists true for {@code IF NOT EXISTS}
   * @param field the new field
   */
  public record AddField(boolean ifNotExists, FieldDefinition field) implements Action {}

  /**
   * {@code RENAME [IF EXISTS] a TO b AND c TO d}.
   *
   * @param ifExists true for {@code IF EXISTS}
   * @param renames the renames
   */
  public record RenameFields(boolean ifExists, List<Rename> renames) implements Action {
    public RenameFields {
      renames = List.copyOf(renames);
    }
  }

  /**
   * {@code ALTER field TYPE t}: parsed, but refused (removed in Cassandra 3.0.11).
   *
   * @param field the field
   * @param type the requested type
   */
  public record AlterFieldType(Identifier field, CqlType type) implements Action {}
}
