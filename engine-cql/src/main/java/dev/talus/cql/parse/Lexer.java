package dev.talus.cql.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Turns CQL text into tokens, following Cassandra's {@code Lexer.g}: case-insensitive keywords;
 * identifiers {@code [A-Za-z][A-Za-z0-9_]*}; quoted names with {@code ""} escapes; strings in
 * single quotes with {@code ''} escapes or between {@code $$}; integers and floats with an optional
 * leading minus; {@code NaN}, {@code Infinity}; {@code 0x} blobs; UUIDs; durations in unit and ISO
 * 8601 forms; comments {@code --}, {@code //} and {@code /* *}{@code /}. The whole input is turned
 * into tokens before parsing starts, so errors in the text are found first.
 */
final class Lexer {
  private static final Pattern ISO_DESIGNATORS =
      Pattern.compile(
          "P(?:(?:\\d+Y(?:\\d+M)?(?:\\d+D)?|\\d+M(?:\\d+D)?|\\d+D)"
              + "(?:T(?:\\d+H(?:\\d+M)?(?:\\d+S)?|\\d+M(?:\\d+S)?|\\d+S))?"
              + "|T(?:\\d+H(?:\\d+M)?(?:\\d+S)?|\\d+M(?:\\d+S)?|\\d+S)|\\d+W)");
  private static final Pattern ISO_ALTERNATIVE =
      Pattern.compile("P\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}");

  private final SourceText source;
  private final String src;
  private final List<Token> tokens = new ArrayList<>();
  private int pos;
  private int line = 1;
  private int lineStart;

  private Lexer(SourceText source) {
    this.source = source;
    this.src = source.text();
  }

  /** Returns the tokens of the text, ending with one {@link TokenKind#EOF}. */
  static List<Token> tokenize(SourceText source) {
    Lexer lexer = new Lexer(source);
    lexer.run();
    return lexer.tokens;
  }

  private void run() {
    while (true) {
      skipBlanks();
      if (pos >= src.length()) {
        tokens.add(new Token(TokenKind.EOF, null, "", pos, pos, line, col(pos)));
        return;
      }
      scan();
    }
  }

  private int col(int offset) {
    return offset - lineStart + 1;
  }

  private char at(int i) {
    return i < src.length() ? src.charAt(i) : '\0';
  }

  /** Steps over one character, counting line breaks ({@code \n}, {@code \r\n}, {@code \r}). */
  private void step() {
    char c = src.charAt(pos++);
    if (c == '\n' || c == '\r' && at(pos) != '\n') {
      line++;
      lineStart = pos;
    }
  }

  private void skipBlanks() {
    while (pos < src.length()) {
      char c = src.charAt(pos);
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        step();
      } else if (c == '-' && at(pos + 1) == '-' || c == '/' && at(pos + 1) == '/') {
        while (pos < src.length() && src.charAt(pos) != '\n' && src.charAt(pos) != '\r') {
          pos++;
        }
      } else if (c == '/' && at(pos + 1) == '*') {
        int startLine = line;
        int startCol = col(pos);
        step();
        step();
        while (!(at(pos) == '*' && at(pos + 1) == '/')) {
          if (pos >= src.length()) {
            throw source.error(
                startLine, startCol, "/*", "unterminated comment: '/*' is never closed by '*/'");
          }
          step();
        }
        pos += 2;
      } else {
        return;
      }
    }
  }

  private void scan() {
    int start = pos;
    int startLine = line;
    int startCol = col(pos);
    char c = src.charAt(pos);
    if (c == '\'') {
      quoted(start, startLine, startCol, '\'', TokenKind.STRING);
    } else if (c == '"') {
      quoted(start, startLine, startCol, '"', TokenKind.QUOTED_NAME);
    } else if (c == '$' && at(pos + 1) == '$') {
      dollarString(start, startLine, startCol);
    } else if (isDigit(c)) {
      if (!uuid(start) && !hex(start)) {
        number(start);
      }
    } else if (c == '-' && isDigit(at(pos + 1))) {
      pos++;
      number(start);
    } else if (c == '-' && signedWord(start)) {
      return;
    } else if (isLetter(c)) {
      if (!uuid(start)) {
        word(start);
      }
    } else {
      punctuation(start, c);
    }
  }

  private void add(TokenKind kind, Keyword keyword, String text, int start) {
    tokens.add(new Token(kind, keyword, text, start, pos, line, col(start)));
  }

  private void quoted(int start, int startLine, int startCol, char quote, TokenKind kind) {
    StringBuilder sb = new StringBuilder();
    step();
    while (true) {
      if (pos >= src.length()) {
        String what =
            kind == TokenKind.STRING
                ? "unterminated string: the quote ' is never closed (write '' for a quote inside)"
                : "unterminated quoted identifier: the \" is never closed (write \"\" for a quote"
                    + " inside)";
        throw source.error(startLine, startCol, String.valueOf(quote), what);
      }
      char ch = src.charAt(pos);
      if (ch == quote) {
        if (at(pos + 1) == quote) {
          sb.append(quote);
          pos += 2;
          continue;
        }
        pos++;
        break;
      }
      sb.append(ch);
      step();
    }
    tokens.add(new Token(kind, null, sb.toString(), start, pos, startLine, startCol));
  }

  private void dollarString(int start, int startLine, int startCol) {
    int close = src.indexOf("$$", pos + 2);
    if (close < 0) {
      throw source.error(
          startLine, startCol, "$$", "unterminated string: '$$' is never closed by '$$'");
    }
    String content = src.substring(pos + 2, close);
    while (pos < close + 2) {
      step();
    }
    tokens.add(new Token(TokenKind.STRING, null, content, start, pos, startLine, startCol));
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean isLetter(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
  }

  private static boolean isHex(char c) {
    return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
  }

  private static boolean isWordChar(char c) {
    return isLetter(c) || isDigit(c) || c == '_';
  }

  /** 8-4-4-4-12 hex digits; tried before numbers and words, as the longer match. */
  private boolean uuid(int start) {
    int[] groups = {8, 4, 4, 4, 12};
    int i = start;
    for (int g = 0; g < groups.length; g++) {
      for (int k = 0; k < groups[g]; k++, i++) {
        if (!isHex(at(i))) {
          return false;
        }
      }
      if (g < groups.length - 1) {
        if (at(i) != '-') {
          return false;
        }
        i++;
      }
    }
    if (isWordChar(at(i))) {
      return false;
    }
    pos = i;
    add(TokenKind.UUID, null, src.substring(start, pos), start);
    return true;
  }

  private boolean hex(int start) {
    if (src.charAt(start) != '0' || (at(start + 1) != 'x' && at(start + 1) != 'X')) {
      return false;
    }
    pos = start + 2;
    while (isHex(at(pos))) {
      pos++;
    }
    add(TokenKind.HEXNUMBER, null, src.substring(start, pos), start);
    return true;
  }

  /** Digits (after an optional '-' already consumed): an integer, a float or a duration. */
  private void number(int start) {
    skipDigits();
    int unit = durationUnit(pos);
    if (unit > 0) {
      pos += unit;
      while (isDigit(at(pos))) {
        int p = pos;
        while (isDigit(at(p))) {
          p++;
        }
        int u = durationUnit(p);
        if (u == 0) {
          break;
        }
        pos = p + u;
      }
      add(TokenKind.DURATION, null, src.substring(start, pos), start);
      return;
    }
    boolean isFloat = false;
    // "1..3" is a range between integers; "3...5" is the float "3." then a range (Lexer.g)
    if (at(pos) == '.' && (at(pos + 1) != '.' || at(pos + 2) == '.')) {
      isFloat = true;
      pos++;
      skipDigits();
    }
    char e = at(pos);
    if (e == 'e' || e == 'E') {
      int p = pos + 1;
      if (at(p) == '+' || at(p) == '-') {
        p++;
      }
      if (isDigit(at(p))) {
        isFloat = true;
        pos = p;
        skipDigits();
      }
    }
    add(isFloat ? TokenKind.FLOAT : TokenKind.INTEGER, null, src.substring(start, pos), start);
  }

  private void skipDigits() {
    while (isDigit(at(pos))) {
      pos++;
    }
  }

  /** The length of the duration unit at i (y mo w d h m s ms us µs ns), or 0. */
  private int durationUnit(int i) {
    char a = Character.toLowerCase(at(i));
    char b = Character.toLowerCase(at(i + 1));
    if (a == 'm' && (b == 'o' || b == 's') || (a == 'u' || a == 'µ' || a == 'n') && b == 's') {
      return 2;
    }
    return a == 'y' || a == 'w' || a == 'd' || a == 'h' || a == 'm' || a == 's' ? 1 : 0;
  }

  private int wordEnd(int from) {
    int end = from;
    while (isWordChar(at(end))) {
      end++;
    }
    return end;
  }

  /** '-' then NaN, Infinity or an ISO duration; returns false when the '-' is an operator. */
  private boolean signedWord(int start) {
    int end = wordEnd(start + 1);
    String lower = src.substring(start + 1, end).toLowerCase(Locale.ROOT);
    if (lower.equals("nan") || lower.equals("infinity")) {
      pos = end;
      add(TokenKind.FLOAT, null, lower.equals("nan") ? "-NaN" : "-Infinity", start);
      return true;
    }
    int iso = at(start + 1) == 'P' ? isoDurationEnd(start + 1, end) : -1;
    if (iso > 0) {
      pos = iso;
      add(TokenKind.DURATION, null, src.substring(start, pos), start);
      return true;
    }
    return false;
  }

  /**
   * The end of an ISO 8601 duration starting with the 'P' at i (whose word ends at wordEnd), or -1.
   * The letters are upper case only, as in Cassandra's lexer, so {@code p1d} is a name.
   */
  private int isoDurationEnd(int i, int wordEnd) {
    int altEnd = i + 20;
    if (altEnd <= src.length()
        && ISO_ALTERNATIVE.matcher(src.substring(i, altEnd)).matches()
        && !isWordChar(at(altEnd))) {
      return altEnd;
    }
    return ISO_DESIGNATORS.matcher(src.substring(i, wordEnd)).matches() ? wordEnd : -1;
  }

  private void word(int start) {
    int end = wordEnd(start);
    int iso = src.charAt(start) == 'P' ? isoDurationEnd(start, end) : -1;
    if (iso > 0) {
      pos = iso;
      add(TokenKind.DURATION, null, src.substring(start, pos), start);
      return;
    }
    pos = end;
    String lower = src.substring(start, end).toLowerCase(Locale.ROOT);
    switch (lower) {
      case "true", "false" -> add(TokenKind.BOOLEAN, null, lower, start);
      case "nan" -> add(TokenKind.FLOAT, null, "NaN", start);
      case "infinity" -> add(TokenKind.FLOAT, null, "Infinity", start);
      default -> {
        Keyword k = Keyword.lookup(lower);
        add(k == null ? TokenKind.IDENT : TokenKind.KEYWORD, k, lower, start);
      }
    }
  }

  private void punctuation(int start, char c) {
    char n = at(pos + 1);
    TokenKind kind;
    int len = 1;
    switch (c) {
      case '(' -> kind = TokenKind.LPAREN;
      case ')' -> kind = TokenKind.RPAREN;
      case '[' -> kind = TokenKind.LBRACKET;
      case ']' -> kind = TokenKind.RBRACKET;
      case '{' -> kind = TokenKind.LBRACE;
      case '}' -> kind = TokenKind.RBRACE;
      case ',' -> kind = TokenKind.COMMA;
      case ';' -> kind = TokenKind.SEMICOLON;
      case ':' -> kind = TokenKind.COLON;
      case '?' -> kind = TokenKind.QMARK;
      case '*' -> kind = TokenKind.STAR;
      case '/' -> kind = TokenKind.SLASH;
      case '%' -> kind = TokenKind.PERCENT;
      case '=' -> kind = TokenKind.EQ;
      case '.' -> {
        kind = n == '.' ? TokenKind.RANGE : TokenKind.DOT;
        len = n == '.' ? 2 : 1;
      }
      case '<' -> {
        kind = n == '=' ? TokenKind.LTE : TokenKind.LT;
        len = n == '=' ? 2 : 1;
      }
      case '>' -> {
        kind = n == '=' ? TokenKind.GTE : TokenKind.GT;
        len = n == '=' ? 2 : 1;
      }
      case '+' -> {
        kind = n == '=' ? TokenKind.PLUS_EQ : TokenKind.PLUS;
        len = n == '=' ? 2 : 1;
      }
      case '-' -> {
        kind = n == '=' ? TokenKind.MINUS_EQ : TokenKind.MINUS;
        len = n == '=' ? 2 : 1;
      }
      case '!' -> {
        if (n != '=') {
          throw source.error(line, col(start), "!", "unexpected '!': not equal is written !=");
        }
        kind = TokenKind.NEQ;
        len = 2;
      }
      default -> throw unexpectedCharacter(start, c);
    }
    pos += len;
    add(kind, null, src.substring(start, pos), start);
  }

  private RuntimeException unexpectedCharacter(int start, char c) {
    String shown =
        c < 0x20 || c == 0x7f || Character.isSurrogate(c)
            ? String.format("U+%04X", (int) c)
            : String.valueOf(c);
    String hint =
        c == '`'
            ? " (quote names with double quotes: \"Name\")"
            : c == '$' ? " (a $$-quoted string starts with two dollar signs)" : "";
    return source.error(
        line,
        col(start),
        String.valueOf(c),
        "unexpected character '" + shown + "'; it has no place in CQL outside strings" + hint);
  }
}
