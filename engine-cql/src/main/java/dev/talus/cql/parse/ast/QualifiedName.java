package dev.talus.cql.parse.ast;

import java.util.Objects;

/**
 * A name that may be qualified by a keyspace: {@code ks.users} or {@code users} (tables, types,
 * indexes, functions).
 *
 * @param keyspace the keyspace, or null when the name is not qualified (the session's keyspace
 *     applies)
 * @param name the object's name
 */
public record QualifiedName(Identifier keyspace, Identifier name) {
  public QualifiedName {
    Objects.requireNonNull(name, "name");
  }

  /**
   * Returns where the name starts (at its keyspace when qualified).
   *
   * @return the position
   */
  public SourcePosition position() {
    return keyspace != null ? keyspace.position() : name.position();
  }

  /**
   * Tells whether a keyspace was given.
   *
   * @return true for {@code ks.name}
   */
  public boolean isQualified() {
    return keyspace != null;
  }

  @Override
  public String toString() {
    return keyspace == null ? name.name() : keyspace.name() + "." + name.name();
  }
}
