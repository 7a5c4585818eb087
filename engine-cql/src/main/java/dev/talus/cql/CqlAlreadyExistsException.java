package dev.talus.cql;

/**
 * A {@code CREATE KEYSPACE} or {@code CREATE TABLE} (without {@code IF NOT EXISTS}) of something
 * that exists (Cassandra's {@code AlreadyExists} error, code {@code 0x2400}, with its wording:
 * {@code Cannot add existing keyspace "ks"}, {@code Cannot add already existing table "t" to
 * keyspace "ks"}). Immutable and thread-safe.
 */
public class CqlAlreadyExistsException extends CqlConfigurationException {
  private static final long serialVersionUID = 1L;

  private final String keyspace;
  private final String table;

  /**
   * Creates the exception.
   *
   * @param keyspace the keyspace
   * @param table the table, or empty when the keyspace exists
   * @param line the 1-based line of the name, or 0
   * @param column its 1-based column, or 0
   * @param sourceLine the text of that line, or empty
   * @param width how many characters the caret underlines
   */
  public CqlAlreadyExistsException(
      String keyspace, String table, int line, int column, String sourceLine, int width) {
    super(
        table.isEmpty()
            ? "Cannot add existing keyspace \"" + keyspace + "\""
            : "Cannot add already existing table \""
                + table
                + "\" to keyspace \""
                + keyspace
                + "\"",
        line,
        column,
        sourceLine,
        width);
    this.keyspace = keyspace;
    this.table = table;
  }

  public String keyspace() {
    return keyspace;
  }

  /** The table, or empty when the keyspace exists. */
  public String table() {
    return table;
  }
}
