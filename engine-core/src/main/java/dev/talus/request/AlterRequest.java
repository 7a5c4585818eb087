package dev.talus.request;

import dev.talus.DataType;
import dev.talus.TableSchema;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * An ALTER TABLE as the user described it, before validation: changes applied in order, then stored
 * together in one schema rewrite. Internal.
 */
public record AlterRequest(List<Op> ops) {
  public AlterRequest {
    ops = List.copyOf(ops);
  }

  /** One change. */
  public sealed interface Op permits AddColumn, DropColumn, RenameColumn, Options {}

  /** Adds a regular or static column. */
  public record AddColumn(String name, DataType type, boolean isStatic) implements Op {}

  /** Drops a regular or static column. */
  public record DropColumn(String name) implements Op {}

  /** Renames a partition key or clustering column. */
  public record RenameColumn(String from, String to) implements Op {}

  /** Changes table options: applied to a builder of the altered schema (options only). */
  public record Options(UnaryOperator<TableSchema.Builder> change) implements Op {}
}
