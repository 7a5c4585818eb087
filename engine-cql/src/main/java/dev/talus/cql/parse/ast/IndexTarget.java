package dev.talus.cql.parse.ast;

import java.util.Locale;

/**
 * What {@code CREATE INDEX} indexes: a column, or the {@code keys(m)}, {@code values(c)}, {@code
 * entries(m)} or {@code full(frozen_c)} of a collection.
 *
 * @param kind which part of the column
 * @param column the column
 */
public record IndexTarget(Kind kind, Identifier column) {
  /**
   * Returns where the target starts.
   *
   * @return the position
   */
  public SourcePosition position() {
    return column.position();
  }

  /** Which part of the column an index covers. */
  public enum Kind {
    /** The column itself (for a non-frozen collection, Cassandra reads it as its values). */
    SIMPLE,
    KEYS,
    VALUES,
    ENTRIES,
    FULL;

    /**
     * Returns the function name as written, e.g. {@code keys}; empty for {@link #SIMPLE}.
     *
     * @return the name
     */
    public String cql() {
      return this == SIMPLE ? "" : name().toLowerCase(Locale.ROOT);
    }
  }
}
