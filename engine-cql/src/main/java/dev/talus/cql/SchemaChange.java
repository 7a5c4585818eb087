package dev.talus.cql;

import java.util.Objects;

/**
 * What a schema statement changed, as the native protocol reports it ({@code SCHEMA_CHANGE}).
 * Immutable and thread-safe.
 *
 * @param change created, updated or dropped
 * @param target what kind of object changed
 * @param keyspace the keyspace (the object itself for {@link Target#KEYSPACE})
 * @param name the table's or type's name, or empty for a keyspace
 */
public record SchemaChange(Change change, Target target, String keyspace, String name) {
  /** How the object changed. */
  public enum Change {
    CREATED,
    UPDATED,
    DROPPED
  }

  /** What changed. */
  public enum Target {
    KEYSPACE,
    TABLE,
    /** A user-defined type. */
    TYPE
  }

  public SchemaChange {
    Objects.requireNonNull(change, "change");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(keyspace, "keyspace");
    Objects.requireNonNull(name, "name");
  }
}
