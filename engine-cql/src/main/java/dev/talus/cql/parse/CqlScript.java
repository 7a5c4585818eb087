package dev.talus.cql.parse;

import dev.talus.cql.CqlSyntaxException;
import java.util.ArrayList;
import java.util.List;

/**
 * A file of CQL statements, such as a {@code schema.cql}: statements separated by {@code ;}, with
 * comments anywhere. A {@code ;} inside a string, a quoted name or a comment separates nothing, and
 * the statements inside {@code BEGIN BATCH ... APPLY BATCH} belong to the batch. Line numbers, in
 * results and in errors, count from the top of the file. Static methods, thread-safe.
 */
public final class CqlScript {
  private CqlScript() {}

  /**
   * Parses every statement of the script, stopping at the first error.
   *
   * @param script the text of the file
   * @return the statements in order, each with the line it starts on
   * @throws CqlSyntaxException at the first error, with its line and column in the file
   */
  public static List<ParsedStatement> parse(String script) {
    return CqlParser.parseAll(script);
  }

  /**
   * One statement's text as cut from a script, not parsed.
   *
   * @param text the statement from its first token to its last, without the {@code ;}
   * @param line the 1-based line where it starts
   * @param column the 1-based column where it starts
   */
  public record Piece(String text, int line, int column) {}

  /**
   * Cuts the script into statements without parsing them (a shell reading statements one by one, or
   * running each on its own, wants that). Only the tokens are read: a mistake inside a statement
   * shows when that statement is parsed.
   *
   * @param script the text of the file
   * @return the statements' texts, in order; empty statements ({@code ;;}) are skipped
   * @throws CqlSyntaxException if the text cannot be cut into tokens (an unterminated string or
   *     comment, a character with no place in CQL)
   */
  public static List<Piece> split(String script) {
    SourceText source = new SourceText(script);
    List<Token> tokens = Lexer.tokenize(source);
    List<Piece> pieces = new ArrayList<>();
    int i = 0;
    while (tokens.get(i).kind() != TokenKind.EOF) {
      Token first = tokens.get(i);
      if (first.kind() == TokenKind.SEMICOLON) {
        i++;
        continue;
      }
      boolean batch = first.is(Keyword.BEGIN);
      int last = i;
      while (true) {
        Token t = tokens.get(last + 1);
        if (t.kind() == TokenKind.EOF) {
          break;
        }
        if (t.kind() == TokenKind.SEMICOLON && !batch) {
          break;
        }
        if (batch && t.is(Keyword.BATCH) && tokens.get(last).is(Keyword.APPLY)) {
          batch = false;
        }
        last++;
      }
      pieces.add(
          new Piece(
              script.substring(first.start(), tokens.get(last).end()),
              first.line(),
              first.column()));
      i = last + 1;
    }
    return pieces;
  }
}
