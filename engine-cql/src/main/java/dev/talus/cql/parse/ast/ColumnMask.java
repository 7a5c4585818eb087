package dev.talus.cql.parse.ast;

import java.util.List;

/**
 * A dynamic data masking clause (Cassandra 5.0): {@code MASKED WITH DEFAULT} or {@code MASKED WITH
 * mask_inner(1, null)}. Talus does not mask columns; preparing refuses it.
 *
 * @param function the masking function, or null for {@code DEFAULT}
 * @param arguments the arguments after the masked value
 * @param position where {@code MASKED} was written
 */
public record ColumnMask(QualifiedName function, List<Term> arguments, SourcePosition position) {
  public ColumnMask {
    arguments = List.copyOf(arguments);
  }

  /**
   * Tells whether this is {@code MASKED WITH DEFAULT}.
   *
   * @return true for the default mask
   */
  public boolean isDefault() {
    return function == null;
  }
}
