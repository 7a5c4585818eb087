package dev.talus.cql;

import java.util.Objects;

/**
 * One column of a result, or one bind marker of a prepared statement: where it comes from, its name
 * and its type. For a bind marker, the name is the marker's ({@code :name}) or, for {@code ?}, the
 * column it is bound to ({@code [limit]}, {@code [ttl]}, {@code [timestamp]} for those clauses, as
 * in Cassandra). Immutable and thread-safe.
 *
 * @param keyspace the keyspace of the table, or empty for a value that comes from no table
 * @param table the table, or empty
 * @param name the column's name (its alias, if the query gave one)
 * @param type its type
 */
public record CqlColumn(String keyspace, String table, String name, ColumnType type) {
  public CqlColumn {
    Objects.requireNonNull(keyspace, "keyspace");
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
  }

  @Override
  public String toString() {
    return name + " " + type.cql();
  }
}
