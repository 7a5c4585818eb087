package dev.talus.cql.parse;

import dev.talus.cql.CqlSyntaxException;

/** The text being parsed, and the syntax errors that point into it. */
final class SourceText {
  private final String text;

  SourceText(String text) {
    this.text = text;
  }

  String text() {
    return text;
  }

  /** Returns the given 1-based line, without its line break, or "" past the end. */
  String line(int line) {
    int start = 0;
    for (int l = 1; l < line; l++) {
      int nl = nextBreak(start);
      if (nl < 0) {
        return "";
      }
      start = nl + (text.startsWith("\r\n", nl) ? 2 : 1);
    }
    int end = nextBreak(start);
    return text.substring(start, end < 0 ? text.length() : end);
  }

  private int nextBreak(int from) {
    for (int i = from; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\n' || c == '\r') {
        return i;
      }
    }
    return -1;
  }

  CqlSyntaxException error(int line, int column, String token, String reason) {
    return new CqlSyntaxException(line, column, token, reason, line(line));
  }

  CqlSyntaxException error(Token at, String reason) {
    return error(at.line(), at.column(), written(at), reason);
  }

  /** The token exactly as written in the source ("" for the end of the input). */
  String written(Token t) {
    return text.substring(t.start(), t.end());
  }
}
