package dev.talus.cql.parse.ast;

import java.util.Objects;

/**
 * A name as CQL means it: an unquoted name is folded to lower case ({@code Users} is {@code
 * users}), a quoted one keeps its case and may hold any character ({@code "Users"}, {@code "a
 * ""b"""} is {@code a "b"}). {@link #name()} is the name after folding and unquoting, so {@code
 * users} and {@code "users"} are the same identifier; the printer quotes where CQL needs it.
 *
 * @param name the name after case folding and unquoting
 * @param position where it was written
 */
public record Identifier(String name, SourcePosition position) {
  public Identifier {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(position, "position");
  }

  /**
   * Returns an identifier built by code, with no source position.
   *
   * @param name the name, already folded
   * @return the identifier
   */
  public static Identifier of(String name) {
    return new Identifier(name, SourcePosition.NONE);
  }

  @Override
  public String toString() {
    return name;
  }
}
