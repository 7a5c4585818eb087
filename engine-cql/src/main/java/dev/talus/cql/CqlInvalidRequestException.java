package dev.talus.cql;

import dev.talus.InvalidQueryException;

/**
 * A valid CQL statement that cannot run: an unknown keyspace, table or column, a value of the wrong
 * type, a query that breaks a rule (Cassandra's {@code Invalid} error, code {@code 0x2200}).
 * Nothing was written. The message names the problem with Cassandra's wording where it is clear,
 * and with the rule and the fix where Talus's teaches more; when the problem is a name or a term of
 * the statement, {@link #line()} and {@link #column()} point at it (both 0 when the problem is the
 * statement as a whole) and the message shows the line with a caret.
 *
 * <p>It is an {@link InvalidQueryException}, the error the builder API raises for the same
 * mistakes. Immutable and thread-safe.
 */
public class CqlInvalidRequestException extends InvalidQueryException {
  private static final long serialVersionUID = 1L;

  private final int line;
  private final int column;
  private final String reason;

  /**
   * Creates the exception.
   *
   * @param reason what is wrong, without the location
   * @param line the 1-based line of the offending name or term, or 0
   * @param column its 1-based column, or 0
   * @param sourceLine the text of that line (shown with a caret), or empty
   * @param width how many characters the caret underlines
   */
  public CqlInvalidRequestException(
      String reason, int line, int column, String sourceLine, int width) {
    super(ErrorText.format(line, column, width, reason, sourceLine));
    this.line = line;
    this.column = column;
    this.reason = reason;
  }

  /** A problem with no place in the statement. */
  public CqlInvalidRequestException(String reason) {
    this(reason, 0, 0, "", 0);
  }

  /** The 1-based line of the offending name or term, or 0. */
  public int line() {
    return line;
  }

  /** The 1-based column of the offending name or term, or 0. */
  public int column() {
    return column;
  }

  /** What is wrong, without the location and the source excerpt. */
  public String reason() {
    return reason;
  }
}
