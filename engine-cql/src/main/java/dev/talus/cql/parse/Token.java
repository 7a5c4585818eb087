package dev.talus.cql.parse;

/**
 * One token.
 *
 * @param kind the kind
 * @param keyword the keyword for {@link TokenKind#KEYWORD}, else null
 * @param text the token's value: the content of strings and quoted names, the word in lower case
 *     for identifiers and keywords, the number or literal otherwise as written
 * @param start the offset of the first character in the source
 * @param end the offset after the last character
 * @param line the 1-based line of the first character
 * @param column the 1-based column of the first character
 */
record Token(
    TokenKind kind, Keyword keyword, String text, int start, int end, int line, int column) {

  boolean is(TokenKind k) {
    return kind == k;
  }

  boolean is(Keyword k) {
    return keyword == k;
  }

  /** A literal number, duration or NaN/Infinity written with a leading minus sign. */
  boolean isSignedNumber() {
    return switch (kind) {
      case INTEGER, FLOAT, DURATION -> text.startsWith("-");
      default -> false;
    };
  }
}
