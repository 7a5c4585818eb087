package dev.talus.cql.exec.support;

import dev.talus.DataType;
import dev.talus.cql.ColumnType;

/**
 * What a term is assigned to, so that its value can be typed: a column, or a clause such as {@code
 * [limit]}, {@code [ttl]} or {@code [timestamp]}.
 *
 * @param keyspace the keyspace of the table, or empty
 * @param table the table, or empty
 * @param name the column or clause, as named in messages and in bind-marker metadata
 * @param type its type
 */
public record Receiver(String keyspace, String table, String name, ColumnType type) {
  /** A receiver of a native type that belongs to no table. */
  public static Receiver of(String name, DataType type) {
    return new Receiver("", "", name, ColumnType.of(type));
  }

  /** The native type, or null for a collection. */
  public DataType dataType() {
    return type instanceof ColumnType.Native n ? n.type() : null;
  }

  /** This receiver with another name and type (an element of a list, an IN value...). */
  public Receiver as(String otherName, ColumnType otherType) {
    return new Receiver(keyspace, table, otherName, otherType);
  }
}
