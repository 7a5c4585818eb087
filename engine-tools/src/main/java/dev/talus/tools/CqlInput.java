package dev.talus.tools;

import java.util.ArrayList;
import java.util.List;

/**
 * Gathers the lines a user types into whole CQL statements: a statement ends at a semicolon that is
 * not inside a string ({@code '...'} with {@code ''} for a quote, {@code $$...$$}), a quoted name
 * ({@code "..."}) or a comment ({@code --} or {@code //} to the end of the line, {@code /* ...
 * *}{@code /}). Scanner state carries across lines, so a string or comment may span several. Not
 * thread-safe.
 */
final class CqlInput {
  private enum State {
    CODE,
    QUOTED,
    DOUBLE_QUOTED,
    DOLLAR,
    BLOCK_COMMENT
  }

  private final StringBuilder pending = new StringBuilder();
  private State state = State.CODE;

  /** Adds one line; returns the statements it completed, each with its semicolon, trimmed. */
  List<String> add(String line) {
    List<String> done = new ArrayList<>();
    int n = line.length();
    for (int i = 0; i < n; i++) {
      char c = line.charAt(i);
      char next = i + 1 < n ? line.charAt(i + 1) : '\0';
      switch (state) {
        case CODE -> {
          if (c == '-' && next == '-' || c == '/' && next == '/') {
            i = n; // the rest of the line is a comment: keep it out of the statement
            continue;
          }
          if (c == '/' && next == '*') {
            state = State.BLOCK_COMMENT;
            i++;
            continue;
          }
          pending.append(c);
          if (c == '\'') {
            state = State.QUOTED;
          } else if (c == '"') {
            state = State.DOUBLE_QUOTED;
          } else if (c == '$' && next == '$') {
            pending.append(next);
            i++;
            state = State.DOLLAR;
          } else if (c == ';' && !insideBatch()) {
            String statement = pending.toString().trim();
            pending.setLength(0);
            if (!statement.equals(";")) {
              done.add(statement);
            }
          }
        }
        case QUOTED -> {
          pending.append(c);
          if (c == '\'') {
            if (next == '\'') {
              pending.append(next);
              i++;
            } else {
              state = State.CODE;
            }
          }
        }
        case DOUBLE_QUOTED -> {
          pending.append(c);
          if (c == '"') {
            if (next == '"') {
              pending.append(next);
              i++;
            } else {
              state = State.CODE;
            }
          }
        }
        case DOLLAR -> {
          pending.append(c);
          if (c == '$' && next == '$') {
            pending.append(next);
            i++;
            state = State.CODE;
          }
        }
        case BLOCK_COMMENT -> {
          if (c == '*' && next == '/') {
            state = State.CODE;
            i++;
          }
        }
      }
    }
    if (pending.length() > 0) {
      pending.append('\n');
    }
    return done;
  }

  /**
   * True while the pending text (its last character a {@code ;}) is a {@code BEGIN BATCH} that has
   * not reached its {@code APPLY BATCH}: the statements of a batch end with semicolons too.
   */
  private boolean insideBatch() {
    String text = pending.substring(0, pending.length() - 1).trim();
    return BEGIN.matcher(text).lookingAt() && !APPLY_BATCH.matcher(text).find();
  }

  private static final java.util.regex.Pattern BEGIN =
      java.util.regex.Pattern.compile("(?i)BEGIN\\b");
  private static final java.util.regex.Pattern APPLY_BATCH =
      java.util.regex.Pattern.compile("(?i)\\bAPPLY\\s+BATCH$");

  /** True if nothing but white space waits for a semicolon. */
  boolean isEmpty() {
    return pending.toString().isBlank() && state == State.CODE;
  }

  /** What was typed since the last complete statement, trimmed (for the error at end of input). */
  String pending() {
    return pending.toString().trim();
  }

  /** Forgets a partial statement (after an error, or Ctrl-C in a terminal). */
  void reset() {
    pending.setLength(0);
    state = State.CODE;
  }
}
