package dev.talus.cql;

import dev.talus.TalusException;

/**
 * A CQL statement that is not valid CQL: an unexpected token, an unterminated string or comment, a
 * character that has no place in CQL, nesting deeper than the parser allows, or one of the few
 * rules the language itself checks while parsing (a property defined twice, {@code SET c = d + 1}
 * where {@code d} is not {@code c}). Nothing was executed.
 *
 * <p>The exception carries where the problem is, in the text that was parsed (for a script, the
 * whole file): a 1-based {@link #line()} and {@link #column()}, and the text of the offending
 * token. {@link #getMessage()} reads like
 *
 * <pre>
 * line 1:17: unexpected reserved keyword FROM; expected a selector or '*'
 *   SELECT DISTINCT FROM users
 *                   ^^^^
 * </pre>
 *
 * <p>and {@link #reason()} is the first line without its location. Instances are immutable and
 * thread-safe.
 */
public class CqlSyntaxException extends TalusException {
  private static final long serialVersionUID = 1L;

  private final int line;
  private final int column;
  private final String token;
  private final String reason;

  /**
   * Creates the exception.
   *
   * @param line the 1-based line of the problem
   * @param column the 1-based column of the problem (counted in characters; a tab is one)
   * @param token the offending token as written, or the empty string at the end of the input
   * @param reason what is wrong and, where it helps, what to write instead; no location
   * @param sourceLine the source line that holds the problem, shown under the message with a caret
   *     under the token; may be empty
   */
  public CqlSyntaxException(int line, int column, String token, String reason, String sourceLine) {
    super(format(line, column, token, reason, sourceLine));
    this.line = line;
    this.column = column;
    this.token = token;
    this.reason = reason;
  }

  /**
   * Returns the 1-based line of the problem.
   *
   * @return the line
   */
  public int line() {
    return line;
  }

  /**
   * Returns the 1-based column of the problem.
   *
   * @return the column
   */
  public int column() {
    return column;
  }

  /**
   * Returns the offending token as written in the source, or the empty string when the input ended
   * too early.
   *
   * @return the token text
   */
  public String token() {
    return token;
  }

  /**
   * Returns what is wrong, without the location and the source excerpt.
   *
   * @return the reason
   */
  public String reason() {
    return reason;
  }

  private static String format(
      int line, int column, String token, String reason, String sourceLine) {
    StringBuilder sb = new StringBuilder();
    sb.append("line ").append(line).append(':').append(column).append(": ").append(reason);
    if (sourceLine != null && !sourceLine.isEmpty()) {
      sb.append("\n  ").append(sourceLine).append("\n  ");
      int limit = Math.min(column - 1, sourceLine.length());
      for (int i = 0; i < limit; i++) {
        sb.append(sourceLine.charAt(i) == '\t' ? '\t' : ' ');
      }
      int width = Math.max(1, Math.min(token.length(), sourceLine.length() - limit));
      sb.append("^".repeat(width));
    }
    return sb.toString();
  }
}
