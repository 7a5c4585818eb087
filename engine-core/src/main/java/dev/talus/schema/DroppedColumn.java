package dev.talus.schema;

import dev.talus.ColumnDef;
import dev.talus.DataType;
import java.util.Objects;

/**
 * A regular or static column dropped from a table (after Cassandra's {@code
 * schema/DroppedColumn.java}, which records the drop time per column name). Talus stores cells
 * under column ids, not names, so the record keeps the column's id out of use for good: reads and
 * compactions ignore every cell stored under it, and a column added later — even under the same
 * name — gets a new id, so the old data can never come back. The name, type and drop time are kept
 * for inspection. Immutable.
 *
 * @param name the name the column had
 * @param type its type
 * @param kind {@link ColumnDef.Kind#REGULAR} or {@link ColumnDef.Kind#STATIC}
 * @param id the column id its cells were stored under
 * @param droppedAtMicros when it was dropped, in microseconds since the epoch (the write clock)
 */
public record DroppedColumn(
    String name, DataType type, ColumnDef.Kind kind, int id, long droppedAtMicros) {
  public DroppedColumn {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(kind, "kind");
    if (kind != ColumnDef.Kind.REGULAR && kind != ColumnDef.Kind.STATIC) {
      throw new IllegalArgumentException("only regular and static columns are dropped: " + kind);
    }
    if (id < 0) {
      throw new IllegalArgumentException("negative column id " + id);
    }
  }
}
