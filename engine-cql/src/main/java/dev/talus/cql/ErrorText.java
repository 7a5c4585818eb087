package dev.talus.cql;

/** Formats an error located in a statement: the location, the reason, the line and a caret. */
final class ErrorText {
  private ErrorText() {}

  static String format(int line, int column, int width, String reason, String sourceLine) {
    if (line <= 0) {
      return reason;
    }
    StringBuilder sb = new StringBuilder();
    sb.append("line ").append(line).append(':').append(column).append(": ").append(reason);
    if (sourceLine != null && !sourceLine.isEmpty()) {
      sb.append("\n  ").append(sourceLine).append("\n  ");
      int limit = Math.min(Math.max(column - 1, 0), sourceLine.length());
      for (int i = 0; i < limit; i++) {
        sb.append(sourceLine.charAt(i) == '\t' ? '\t' : ' ');
      }
      int w = Math.max(1, Math.min(width, sourceLine.length() - limit));
      sb.append("^".repeat(w));
    }
    return sb.toString();
  }
}
