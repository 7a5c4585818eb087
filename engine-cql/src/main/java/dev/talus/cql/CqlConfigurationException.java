package dev.talus.cql;

import dev.talus.InvalidSchemaException;

/**
 * A schema statement with an invalid option or definition: a replication factor that is not a
 * number, an unknown compaction class, a compaction option out of range (Cassandra's {@code
 * ConfigurationException}, code {@code 0x2300}). Nothing was changed. It is an {@link
 * InvalidSchemaException}, the error the builder API raises for the same mistakes; {@link #line()}
 * and {@link #column()} point at the option when there is one (else 0). Immutable and thread-safe.
 */
public class CqlConfigurationException extends InvalidSchemaException {
  private static final long serialVersionUID = 1L;

  private final int line;
  private final int column;
  private final String reason;

  /**
   * Creates the exception.
   *
   * @param reason what is wrong, without the location
   * @param line the 1-based line of the offending option, or 0
   * @param column its 1-based column, or 0
   * @param sourceLine the text of that line, or empty
   * @param width how many characters the caret underlines
   */
  public CqlConfigurationException(
      String reason, int line, int column, String sourceLine, int width) {
    super(ErrorText.format(line, column, width, reason, sourceLine));
    this.line = line;
    this.column = column;
    this.reason = reason;
  }

  public int line() {
    return line;
  }

  public int column() {
    return column;
  }

  /** What is wrong, without the location and the source excerpt. */
  public String reason() {
    return reason;
  }
}
