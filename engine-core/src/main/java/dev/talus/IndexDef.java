package dev.talus;

import java.util.Locale;
import java.util.Objects;

/**
 * A secondary index of one table: its name (unique within the keyspace, as in Cassandra), the
 * column it indexes and its kind. Created with {@link Table#createIndex}, stored in the schema file
 * and kept across reopens. Immutable and thread-safe.
 *
 * <p>Talus has one kind, {@link Kind#SAI} (a storage-attached index, Cassandra 5's {@code
 * StorageAttachedIndex}). It can index a regular column of a scalar type; key, static, collection,
 * tuple, user-type, vector, duration and counter columns are refused as not yet supported by Talus.
 *
 * @param name the index name (letters, digits, underscore; at most 48 characters; compared case
 *     sensitively)
 * @param column the indexed column
 * @param kind the index kind
 */
public record IndexDef(String name, String column, Kind kind) {
  /** How an index is built and stored. */
  public enum Kind {
    /** A storage-attached index: components written with each SSTable. */
    SAI;

    /** The name CQL's {@code USING} clause and {@code DESCRIBE} give this kind. */
    public String cqlName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public IndexDef {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(kind, "kind");
    if (!TableSchema.isValidName(name)) {
      throw new InvalidQueryException(
          "Index name '"
              + name
              + "' is invalid: use letters, digits and underscores, at most 48 characters");
    }
  }

  /** A storage-attached index named {@code name} on {@code column}. */
  public static IndexDef sai(String name, String column) {
    return new IndexDef(name, column, Kind.SAI);
  }
}
