package dev.talus.cql.parse.ast;

import java.util.List;

/**
 * {@code ALTER TABLE [IF EXISTS] t action}.
 *
 * @param table the table
 * @param ifExists true for {@code IF EXISTS}
 * @param action what to change
 * @param position where {@code ALTER} was written
 */
public record AlterTableStatement(
    QualifiedName table, boolean ifExists, Action action, SourcePosition position)
    implements RawStatement {

  @Override
  public <R> R accept(StatementVisitor<R> visitor) {
    return visitor.visitAlterTable(this);
  }

  /** The change an {@code ALTER TABLE} makes. */
  public sealed interface Action
      permits AddColumns,
          DropColumns,
          RenameColumns,
          SetOptions,
          AlterColumnType,
          SetColumnMask,
          DropCompactStorage {}

  /**
   * {@code ADD [IF NOT EXISTS] c type [STATIC]} or {@code ADD (c1 t1, c2 t2 STATIC)}.
   *
   * @param ifNotExists true for {@code IF NOT EXISTS}
   * @param columns the new columns
   */
  public record AddColumns(boolean ifNotExists, List<ColumnDefinition> columns) implements Action {
    public AddColumns {
      columns = List.copyOf(columns);
    }
  }

  /**
   * {@code DROP [IF EXISTS] c} or {@code DROP (c1, c2)}, optionally {@code USING TIMESTAMP t}.
   *
   * @param ifExists true for {@code IF EXISTS}
   * @param columns the columns
   * @param timestamp the drop time in microseconds as an integer literal, or null for now
   */
  public record DropColumns(boolean ifExists, List<Identifier> columns, Term.Literal timestamp)
      implements Action {
    public DropColumns {
      columns = List.copyOf(columns);
    }
  }

  /**
   * {@code RENAME [IF EXISTS] a TO b AND c TO d} (Cassandra renames only primary key columns).
   *
   * @param ifExists true for {@code IF EXISTS}
   * @param renames the renames
   */
  public record RenameColumns(boolean ifExists, List<Rename> renames) implements Action {
    public RenameColumns {
      renames = List.copyOf(renames);
    }
  }

  /**
   * {@code WITH options}.
   *
   * @param properties the options to change
   */
  public record SetOptions(Properties properties) implements Action {}

  /**
   * {@code ALTER c TYPE t}: parsed, but refused (Cassandra removed it in 3.0.11: a column's type
   * never changes).
   *
   * @param column the column
   * @param type the requested type
   */
  public record AlterColumnType(Identifier column, CqlType type) implements Action {}

  /**
   * {@code ALTER [IF EXISTS] c MASKED WITH ...} or {@code ALTER [IF EXISTS] c DROP MASKED}.
   *
   * @param ifColumnExists true for {@code IF EXISTS}
   * @param column the column
   * @param mask the new mask, or null for {@code DROP MASKED}
   */
  public record SetColumnMask(boolean ifColumnExists, Identifier column, ColumnMask mask)
      implements Action {}

  /** {@code DROP COMPACT STORAGE}. */
  public record DropCompactStorage() implements Action {}
}
