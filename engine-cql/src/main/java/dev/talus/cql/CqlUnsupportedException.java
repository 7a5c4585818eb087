package dev.talus.cql;

/**
 * A valid CQL statement, or part of one, that Talus does not run: either not yet ({@link
 * #planned()}: the engine's API does not have the feature yet — collections, conditional writes,
 * ALTER/DROP TABLE, aggregates, scans, indexes — and the message says {@code "not supported yet by
 * Talus: ..."}), or never (roles, permissions, materialized views, user code: {@code "... is not
 * supported by Talus: ..."}, with what to do instead). Reported as Cassandra's {@code Invalid}
 * error. Nothing was executed. Immutable and thread-safe.
 */
public class CqlUnsupportedException extends CqlInvalidRequestException {
  private static final long serialVersionUID = 1L;

  private final String feature;
  private final boolean planned;

  /**
   * Creates the exception.
   *
   * @param feature what is missing, e.g. {@code "collection types (list<text>)"}
   * @param planned true if Talus means to support it
   * @param reason the whole reason, as {@link #reason()} returns it
   * @param line the 1-based line of the offending part, or 0
   * @param column its 1-based column, or 0
   * @param sourceLine the text of that line, or empty
   * @param width how many characters the caret underlines
   */
  public CqlUnsupportedException(
      String feature,
      boolean planned,
      String reason,
      int line,
      int column,
      String sourceLine,
      int width) {
    super(reason, line, column, sourceLine, width);
    this.feature = feature;
    this.planned = planned;
  }

  /** What is missing. */
  public String feature() {
    return feature;
  }

  /** True if Talus does not support it yet but means to; false if it never will. */
  public boolean planned() {
    return planned;
  }
}
