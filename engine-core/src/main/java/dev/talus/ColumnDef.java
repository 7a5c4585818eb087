package dev.talus;

import java.util.Objects;

/**
 * One column of a table: its name, type, role in the primary key, and (for clustering columns) its
 * on-disk order. Immutable and thread-safe.
 *
 * @param name the column name (letters, digits, underscore; at most 48 characters)
 * @param type the column type
 * @param kind partition key, clustering, static or regular column
 * @param order the clustering order; {@link ClusteringOrder#ASC} for other kinds
 */
public record ColumnDef(String name, DataType type, Kind kind, ClusteringOrder order) {
  /** The role of a column in the table. */
  public enum Kind {
    PARTITION_KEY,
    CLUSTERING,
    REGULAR,
    /** One value per partition, shared by all its rows (Cassandra's {@code STATIC}). */
    STATIC
  }

  public ColumnDef {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(order, "order");
  }

  public boolean isPrimaryKey() {
    return kind == Kind.PARTITION_KEY || kind == Kind.CLUSTERING;
  }

  public boolean isStatic() {
    return kind == Kind.STATIC;
  }

  @Override
  public String toString() {
    return name
        + " "
        + type.cqlName()
        + (kind == Kind.REGULAR ? "" : " " + kind.name().toLowerCase(java.util.Locale.ROOT))
        + (kind == Kind.CLUSTERING ? " " + order : "");
  }
}
