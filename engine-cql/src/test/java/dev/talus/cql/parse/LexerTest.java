package dev.talus.cql.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.cql.CqlSyntaxException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The lexical grammar of CQL: literals, names, keywords, punctuation, comments, positions. */
class LexerTest {

  private static List<Token> lex(String s) {
    return Lexer.tokenize(new SourceText(s));
  }

  /** The single token of the input (the EOF excluded). */
  private static Token one(String s) {
    List<Token> tokens = lex(s);
    assertThat(tokens).as("tokens of %s", s).hasSize(2);
    assertThat(tokens.get(1).kind()).isEqualTo(TokenKind.EOF);
    return tokens.get(0);
  }

  private static List<TokenKind> kinds(String s) {
    return lex(s).stream().map(Token::kind).toList();
  }

  @Test
  void stringsUnescapeDoubledQuotes() {
    assertThat(one("'it''s'").text()).isEqualTo("it's");
    assertThat(one("''").text()).isEmpty();
    assertThat(one("''''").text()).isEqualTo("'");
    assertThat(one("'a\nb'").text()).isEqualTo("a\nb");
    assertThat(one("'ünïcødé ✓'").text()).isEqualTo("ünïcødé ✓");
    assertThat(one("'-- not a comment; /* nor this */'").text())
        .isEqualTo("-- not a comment; /* nor this */");
  }

  @Test
  void dollarStringsTakeEverythingUntilTheNextDoubleDollar() {
    Token t = one("$$it's a \"body\"; with $ and 'quotes'$$");
    assertThat(t.kind()).isEqualTo(TokenKind.STRING);
    assertThat(t.text()).isEqualTo("it's a \"body\"; with $ and 'quotes'");
    assertThat(one("$$$$").text()).isEmpty();
    assertThat(kinds("$$a$$$$b$$"))
        .containsExactly(TokenKind.STRING, TokenKind.STRING, TokenKind.EOF);
  }

  @Test
  void quotedNamesKeepCaseAndUnescapeDoubledQuotes() {
    Token t = one("\"My \"\"Table\"\"\"");
    assertThat(t.kind()).isEqualTo(TokenKind.QUOTED_NAME);
    assertThat(t.text()).isEqualTo("My \"Table\"");
    assertThat(one("\"select\"").text()).isEqualTo("select");
    assertThat(one("\"\"").text()).isEmpty();
    assertThat(one("\"\"\"\"").text()).isEqualTo("\"");
  }

  @Test
  void unquotedNamesAndKeywordsAreCaseFolded() {
    Token ident = one("MyTable_2");
    assertThat(ident.kind()).isEqualTo(TokenKind.IDENT);
    assertThat(ident.text()).isEqualTo("mytable_2");
    Token kw = one("SeLeCt");
    assertThat(kw.kind()).isEqualTo(TokenKind.KEYWORD);
    assertThat(kw.keyword()).isEqualTo(Keyword.SELECT);
    assertThat(one("select_masked").keyword()).isEqualTo(Keyword.SELECT_MASKED);
    assertThat(one("selects").kind()).isEqualTo(TokenKind.IDENT);
  }

  @ParameterizedTest
  @CsvSource({
    "0, INTEGER",
    "42, INTEGER",
    "-7, INTEGER",
    "123456789012345678901234567890, INTEGER",
    "-98765432109876543210987654321, INTEGER",
    "1.5, FLOAT",
    "-0.25, FLOAT",
    "3., FLOAT",
    "1e10, FLOAT",
    "1E10, FLOAT",
    "2.5e-3, FLOAT",
    "-6.02E+23, FLOAT",
    "NaN, FLOAT",
    "nan, FLOAT",
    "Infinity, FLOAT",
    "-Infinity, FLOAT",
    "true, BOOLEAN",
    "FALSE, BOOLEAN",
    "0xCAFE, HEXNUMBER",
    "0X00ff, HEXNUMBER",
    "0x, HEXNUMBER",
    "123e4567-e89b-12d3-a456-426614174000, UUID",
    "DEADBEEF-dead-BEEF-dead-beefdeadbeef, UUID",
  })
  void numbersAndConstants(String text, TokenKind kind) {
    assertThat(one(text).kind()).isEqualTo(kind);
  }

  @Test
  void nanAndInfinityTexts() {
    assertThat(one("NAN").text()).isEqualTo("NaN");
    assertThat(one("-nan").text()).isEqualTo("-NaN");
    assertThat(one("infinity").text()).isEqualTo("Infinity");
    assertThat(one("-INFINITY").text()).isEqualTo("-Infinity");
    assertThat(one("TRUE").text()).isEqualTo("true");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "1h",
        "1h30m",
        "12mo3d",
        "-1h",
        "1y2mo3w4d5h6m7s8ms9us10ns",
        "1µs",
        "5US",
        "2NS",
        "3MS",
        "1Y",
        "P1Y2M3DT4H5M6S",
        "P1Y",
        "P2M10D",
        "P3D",
        "PT4H",
        "PT5M6S",
        "PT6S",
        "P1DT2H",
        "P2W",
        "-P2W",
        "-PT1H",
        "P0001-02-03T04:05:06",
        "-P0001-02-03T04:05:06"
      })
  void durationsInEveryFormat(String text) {
    Token t = one(text);
    assertThat(t.kind()).isEqualTo(TokenKind.DURATION);
    assertThat(t.text()).isEqualTo(text);
  }

  @Test
  void isoDurationsAreUpperCaseOnlySoLowerCaseLookalikesAreNames() {
    assertThat(one("p1d").kind()).isEqualTo(TokenKind.IDENT);
    assertThat(one("P1DX").kind()).isEqualTo(TokenKind.IDENT);
    assertThat(one("P").kind()).isEqualTo(TokenKind.IDENT);
  }

  @Test
  void aRangeAfterAnIntegerIsNotAFloat() {
    assertThat(kinds("1..3"))
        .containsExactly(TokenKind.INTEGER, TokenKind.RANGE, TokenKind.INTEGER, TokenKind.EOF);
    assertThat(kinds("[..3]"))
        .containsExactly(
            TokenKind.LBRACKET,
            TokenKind.RANGE,
            TokenKind.INTEGER,
            TokenKind.RBRACKET,
            TokenKind.EOF);
    assertThat(kinds("1.5..2.5"))
        .containsExactly(TokenKind.FLOAT, TokenKind.RANGE, TokenKind.FLOAT, TokenKind.EOF);
    assertThat(kinds("3...5"))
        .containsExactly(TokenKind.FLOAT, TokenKind.RANGE, TokenKind.INTEGER, TokenKind.EOF);
  }

  @Test
  void aMinusFollowedByADigitIsASignedNumberOtherwiseAnOperator() {
    assertThat(kinds("a-1")).containsExactly(TokenKind.IDENT, TokenKind.INTEGER, TokenKind.EOF);
    assertThat(lex("a-1").get(1).text()).isEqualTo("-1");
    assertThat(kinds("a - b"))
        .containsExactly(TokenKind.IDENT, TokenKind.MINUS, TokenKind.IDENT, TokenKind.EOF);
    assertThat(kinds("- 1")).containsExactly(TokenKind.MINUS, TokenKind.INTEGER, TokenKind.EOF);
    assertThat(kinds("c -= 1"))
        .containsExactly(TokenKind.IDENT, TokenKind.MINUS_EQ, TokenKind.INTEGER, TokenKind.EOF);
  }

  @Test
  void operatorsAndPunctuation() {
    assertThat(kinds("( ) [ ] { } , ; : . .. = != < <= > >= + - * / % ? += -="))
        .containsExactly(
            TokenKind.LPAREN,
            TokenKind.RPAREN,
            TokenKind.LBRACKET,
            TokenKind.RBRACKET,
            TokenKind.LBRACE,
            TokenKind.RBRACE,
            TokenKind.COMMA,
            TokenKind.SEMICOLON,
            TokenKind.COLON,
            TokenKind.DOT,
            TokenKind.RANGE,
            TokenKind.EQ,
            TokenKind.NEQ,
            TokenKind.LT,
            TokenKind.LTE,
            TokenKind.GT,
            TokenKind.GTE,
            TokenKind.PLUS,
            TokenKind.MINUS,
            TokenKind.STAR,
            TokenKind.SLASH,
            TokenKind.PERCENT,
            TokenKind.QMARK,
            TokenKind.PLUS_EQ,
            TokenKind.MINUS_EQ,
            TokenKind.EOF);
    // nested generics close with single '>' tokens
    assertThat(kinds("map<int,list<int>>"))
        .containsExactly(
            TokenKind.KEYWORD,
            TokenKind.LT,
            TokenKind.KEYWORD,
            TokenKind.COMMA,
            TokenKind.KEYWORD,
            TokenKind.LT,
            TokenKind.KEYWORD,
            TokenKind.GT,
            TokenKind.GT,
            TokenKind.EOF);
  }

  @Test
  void commentsOfAllThreeKindsAreSkippedEverywhere() {
    assertThat(kinds("a -- to the end\nb // also\nc /* block\n spanning */ d/**/e--eof"))
        .containsExactly(
            TokenKind.IDENT,
            TokenKind.IDENT,
            TokenKind.IDENT,
            TokenKind.IDENT,
            TokenKind.IDENT,
            TokenKind.EOF);
    assertThat(kinds("/* a */")).containsExactly(TokenKind.EOF);
    assertThat(kinds("-- only a comment")).containsExactly(TokenKind.EOF);
    assertThat(kinds("/* /* not nested */ x")).containsExactly(TokenKind.IDENT, TokenKind.EOF);
  }

  @Test
  void positionsCountLinesAndColumnsFromOneAcrossLineBreaksOfEveryKind() {
    List<Token> t = lex("a\n  bb\r\n\tc\rd /* x\ny */ e 'multi\nline' f");
    assertThat(t.get(0)).extracting(Token::line, Token::column).containsExactly(1, 1);
    assertThat(t.get(1)).extracting(Token::line, Token::column).containsExactly(2, 3);
    assertThat(t.get(2)).extracting(Token::line, Token::column).containsExactly(3, 2);
    assertThat(t.get(3)).extracting(Token::line, Token::column).containsExactly(4, 1);
    assertThat(t.get(4)).extracting(Token::line, Token::column).containsExactly(5, 6);
    assertThat(t.get(5)).extracting(Token::line, Token::column).containsExactly(5, 8);
    assertThat(t.get(6)).extracting(Token::line, Token::column).containsExactly(6, 7);
  }

  @Test
  void unterminatedStringsNamesAndCommentsPointAtWhereTheyStart() {
    CqlSyntaxException e = lexError("SELECT * FROM t\nWHERE a = 'oops");
    assertThat(e.line()).isEqualTo(2);
    assertThat(e.column()).isEqualTo(11);
    assertThat(e.reason()).startsWith("unterminated string");
    assertThat(lexError("x \"abc").reason()).startsWith("unterminated quoted identifier");
    assertThat(lexError("x /* never closed").reason()).startsWith("unterminated comment");
    assertThat(lexError("$$ body").reason()).startsWith("unterminated string: '$$'");
  }

  @Test
  void charactersWithNoPlaceInCqlAreErrors() {
    CqlSyntaxException e = lexError("SELECT a # b");
    assertThat(e.column()).isEqualTo(10);
    assertThat(e.token()).isEqualTo("#");
    assertThat(e.reason()).contains("unexpected character '#'");
    assertThat(lexError("SELECT `a`").reason()).contains("double quotes");
    assertThat(lexError("a ! b").reason()).contains("not equal is written !=");
    assertThat(lexError("a $ b").reason()).contains("two dollar signs");
    assertThat(lexError("naïve").reason()).contains("'ï'");
    assertThat(lexError("a\u0000").reason()).contains("U+0000");
  }

  private static CqlSyntaxException lexError(String s) {
    try {
      lex(s);
    } catch (CqlSyntaxException e) {
      return e;
    }
    throw new AssertionError("no error for " + s);
  }

  @Test
  void theSourceLineAndACaretAreShownUnderTheMessage() {
    assertThatThrownBy(() -> lex("a\n\tb # c"))
        .hasMessage(
            "line 2:4: unexpected character '#'; it has no place in CQL outside strings"
                + "\n  \tb # c\n  \t  ^");
  }
}
