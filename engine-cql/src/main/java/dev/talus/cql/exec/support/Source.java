package dev.talus.cql.exec.support;

import dev.talus.cql.CqlAlreadyExistsException;
import dev.talus.cql.CqlConfigurationException;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlSyntaxException;
import dev.talus.cql.CqlUnsupportedException;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.SourcePosition;

/**
 * The text a statement was parsed from (a statement, or a whole script), so that an error found
 * while preparing or executing it can quote the line and put a caret under the offending name or
 * term. Immutable and thread-safe.
 */
public final class Source {
  private final String text;

  public Source(String text) {
    this.text = text;
  }

  /** The text of the 1-based line {@code n}, or empty. */
  public String line(int n) {
    if (n <= 0) {
      return "";
    }
    int start = 0;
    for (int i = 1; i < n; i++) {
      int nl = text.indexOf('\n', start);
      if (nl < 0) {
        return "";
      }
      start = nl + 1;
    }
    int end = text.indexOf('\n', start);
    String l = end < 0 ? text.substring(start) : text.substring(start, end);
    return l.endsWith("\r") ? l.substring(0, l.length() - 1) : l;
  }

  /** An invalid request at {@code at}, underlining {@code width} characters. */
  public CqlInvalidRequestException invalid(SourcePosition at, int width, String reason) {
    return new CqlInvalidRequestException(reason, at.line(), at.column(), line(at.line()), width);
  }

  /** An invalid request about the name {@code id}. */
  public CqlInvalidRequestException invalid(Identifier id, String reason) {
    return invalid(id.position(), id.name().length(), reason);
  }

  /** An invalid request at {@code at}. */
  public CqlInvalidRequestException invalid(SourcePosition at, String reason) {
    return invalid(at, 1, reason);
  }

  /** An invalid schema option or definition at {@code at}. */
  public CqlConfigurationException config(SourcePosition at, int width, String reason) {
    return new CqlConfigurationException(reason, at.line(), at.column(), line(at.line()), width);
  }

  /** What exists already. */
  public CqlAlreadyExistsException alreadyExists(Identifier name, String keyspace, String table) {
    SourcePosition at = name.position();
    return new CqlAlreadyExistsException(
        keyspace, table, at.line(), at.column(), line(at.line()), name.name().length());
  }

  /** A syntax error found after parsing (Cassandra checks option names that late too). */
  public CqlSyntaxException syntax(SourcePosition at, String token, String reason) {
    return new CqlSyntaxException(at.line(), at.column(), token, reason, line(at.line()));
  }

  /**
   * Something Talus does not support yet; the message reads {@code "not supported yet by Talus:
   * <feature>"} followed by {@code detail} (why, and what to do meanwhile), if any.
   */
  public CqlUnsupportedException notYet(
      SourcePosition at, int width, String feature, String detail) {
    String reason =
        "not supported yet by Talus: " + feature + (detail.isEmpty() ? "" : " (" + detail + ")");
    return new CqlUnsupportedException(
        feature, true, reason, at.line(), at.column(), line(at.line()), width);
  }

  /** Something Talus will never support; {@code reason} says why and what to do instead. */
  public CqlUnsupportedException never(
      SourcePosition at, int width, String feature, String reason) {
    return new CqlUnsupportedException(
        feature, false, reason, at.line(), at.column(), line(at.line()), width);
  }
}
