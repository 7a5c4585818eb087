package dev.talus.cql.parse;

import dev.talus.cql.CqlSyntaxException;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.QualifiedName;
import dev.talus.cql.parse.ast.SourcePosition;
import dev.talus.cql.parse.ast.Term;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The cursor over the tokens and what every part of the grammar shares: looking ahead, expecting,
 * names (which keywords may be names where), syntax errors, the nesting bound and backtracking.
 *
 * <p>The parser is split by grammar family into a chain of subclasses, each file one family: {@link
 * TypeParser} → {@link TermParser} → {@link SelectorParser} → {@link WhereParser} → {@link
 * DmlParser} → {@link DdlParser} → {@link UnsupportedParser} → {@link CqlParser}. A parser object
 * parses one statement (or one script) and is then discarded; it is not thread-safe.
 */
abstract class ParserBase {
  /**
   * How deeply terms, selectors, types and relations may nest. Real statements nest a handful of
   * levels; the bound keeps hostile input (100,000 opening brackets) from overflowing the stack: it
   * is a syntax error instead.
   */
  static final int MAX_NESTING = 100;

  final SourceText source;
  final List<Token> tokens;
  int pos;
  private int nesting;

  /** Bind markers seen so far in the current statement, in order. */
  final List<Term.BindMarker> markers = new ArrayList<>();

  /** Tokens consumed, counting those consumed again after backtracking (see the fuzz test). */
  long consumed;

  ParserBase(SourceText source, List<Token> tokens) {
    this.source = source;
    this.tokens = tokens;
  }

  // ---- the cursor ----

  final Token peek() {
    return tokens.get(pos);
  }

  final Token peek(int ahead) {
    int i = pos + ahead;
    return tokens.get(Math.min(i, tokens.size() - 1));
  }

  final Token advance() {
    Token t = tokens.get(pos);
    if (t.kind() != TokenKind.EOF) {
      pos++;
      consumed++;
    }
    return t;
  }

  final boolean at(TokenKind kind) {
    return peek().kind() == kind;
  }

  final boolean at(Keyword keyword) {
    return peek().keyword() == keyword;
  }

  final boolean atAhead(int ahead, Keyword keyword) {
    return peek(ahead).keyword() == keyword;
  }

  final boolean atAhead(int ahead, TokenKind kind) {
    return peek(ahead).kind() == kind;
  }

  final boolean accept(TokenKind kind) {
    if (at(kind)) {
      advance();
      return true;
    }
    return false;
  }

  final boolean accept(Keyword keyword) {
    if (at(keyword)) {
      advance();
      return true;
    }
    return false;
  }

  final Token expect(TokenKind kind) {
    if (!at(kind)) {
      throw unexpected(kind.description());
    }
    return advance();
  }

  final Token expect(Keyword keyword) {
    if (!at(keyword)) {
      throw unexpected(keyword.name().replace('_', ' '));
    }
    return advance();
  }

  /** {@code IF NOT EXISTS}, when next. */
  final boolean ifNotExists() {
    if (at(Keyword.IF)) {
      advance();
      expect(Keyword.NOT);
      expect(Keyword.EXISTS);
      return true;
    }
    return false;
  }

  /** {@code IF EXISTS}, when next. */
  final boolean ifExists() {
    if (at(Keyword.IF)) {
      advance();
      expect(Keyword.EXISTS);
      return true;
    }
    return false;
  }

  static SourcePosition position(Token t) {
    return SourcePosition.of(t.line(), t.column());
  }

  final SourcePosition here() {
    return position(peek());
  }

  // ---- nesting and backtracking ----

  /** Enters one level of nesting; every recursive rule calls it before it recurses. */
  final void enter() {
    if (++nesting > MAX_NESTING) {
      nesting = 0; // the error unwinds everything
      throw source.error(
          peek(),
          "the statement nests more than "
              + MAX_NESTING
              + " levels deep (brackets, parentheses, types or operators); simplify it");
    }
  }

  final void leave() {
    nesting--;
  }

  /** Where to come back to when a speculative parse fails. */
  record Mark(int pos, int markers, int nesting) {}

  final Mark mark() {
    return new Mark(pos, markers.size(), nesting);
  }

  final void reset(Mark m) {
    pos = m.pos();
    nesting = m.nesting();
    while (markers.size() > m.markers()) {
      markers.remove(markers.size() - 1);
    }
  }

  // ---- names ----

  /** Which keywords may serve as a name at a given place of the grammar. */
  enum NameUse {
    /** Columns, tables, keyspaces, indexes, fields, aliases, properties, marker names. */
    GENERAL,
    /** User type names: no native type names, no TTL/COUNT/WRITETIME/CAST/JSON/DISTINCT. */
    TYPE,
    /** Function names: basic unreserved keywords, native type names, TOKEN and COUNT. */
    FUNCTION
  }

  final boolean atName(NameUse use) {
    return isName(peek(), use);
  }

  static boolean isName(Token t, NameUse use) {
    return switch (t.kind()) {
      case IDENT, QUOTED_NAME -> true;
      case KEYWORD ->
          switch (use) {
            case GENERAL -> t.keyword().usableAsName();
            case TYPE -> t.keyword().usableAsTypeName();
            case FUNCTION -> t.keyword().usableAsFunctionName();
          };
      default -> false;
    };
  }

  /** A name: {@code ident}, {@code noncol_ident}, {@code fident}, {@code ksName}, ... */
  final Identifier name(String what) {
    return name(NameUse.GENERAL, what, false);
  }

  /**
   * A column reference in a DML statement ({@code cident}): like a name, but {@code ""} (the empty
   * name of legacy tables) is allowed.
   */
  final Identifier columnRef(String what) {
    return name(NameUse.GENERAL, what, true);
  }

  final Identifier name(NameUse use, String what, boolean emptyAllowed) {
    Token t = peek();
    if (!isName(t, use)) {
      throw unexpectedName(what);
    }
    if (t.kind() == TokenKind.QUOTED_NAME && t.text().isEmpty() && !emptyAllowed) {
      throw source.error(t, "an empty quoted name \"\" cannot name " + what);
    }
    if (use == NameUse.TYPE
        && t.kind() == TokenKind.IDENT
        && RESERVED_TYPE_NAMES.contains(t.text())) {
      throw source.error(
          t,
          "'"
              + t.text()
              + "' is reserved for a future native type and cannot name a user type; choose"
              + " another name or quote it");
    }
    advance();
    return new Identifier(t.text(), position(t));
  }

  /** Names Cassandra keeps for future native types ({@code Parser.g}'s reservedTypeNames). */
  private static final Set<String> RESERVED_TYPE_NAMES =
      Set.of("byte", "complex", "enum", "date", "interval", "macaddr", "bitstring");

  /** {@code [keyspace.]name} for tables, indexes and views. */
  final QualifiedName qualifiedName(String what) {
    refuseBindMarker(what);
    Identifier first = name(what);
    if (at(TokenKind.DOT)) {
      advance();
      refuseBindMarker(what);
      return new QualifiedName(first, name(what));
    }
    return new QualifiedName(null, first);
  }

  final void refuseBindMarker(String what) {
    if (at(TokenKind.QMARK) || at(TokenKind.COLON) && isName(peek(1), NameUse.GENERAL)) {
      throw source.error(
          peek(), "bind markers cannot stand for " + what + "; write the name in the statement");
    }
  }

  // ---- errors ----

  /** A syntax error at the current token: what was found, what was expected, and a hint. */
  final CqlSyntaxException unexpected(String expected) {
    return unexpectedAt(peek(), expected);
  }

  final CqlSyntaxException unexpectedAt(Token t, String expected) {
    return source.error(t, "unexpected " + describe(t) + "; expected " + expected + hint(t));
  }

  /** A syntax error where a name was expected: a reserved keyword gets the advice to quote it. */
  final CqlSyntaxException unexpectedName(String expected) {
    Token t = peek();
    String advice = "";
    if (t.kind() == TokenKind.KEYWORD) {
      advice =
          " ("
              + t.keyword().name()
              + (t.keyword().isReserved() ? " is reserved" : " cannot be used here")
              + ": to use it as a name, quote it: \""
              + t.text()
              + "\")";
    } else if (t.kind() == TokenKind.FLOAT && Character.isLetter(t.text().charAt(0))
        || t.kind() == TokenKind.BOOLEAN) {
      String word = source.written(t).toLowerCase(Locale.ROOT);
      advice = " (" + word + " is a constant: to use it as a name, quote it: \"" + word + "\")";
    }
    return source.error(t, "unexpected " + describe(t) + "; expected " + expected + advice);
  }

  final String describe(Token t) {
    String written = source.written(t);
    if (written.length() > 40) {
      written = written.substring(0, 37) + "...";
    }
    return switch (t.kind()) {
      case EOF -> "end of input";
      case KEYWORD ->
          t.keyword().isReserved()
              ? "reserved keyword " + t.keyword().name()
              : "keyword " + t.keyword().name();
      default -> "'" + written + "'";
    };
  }

  private String hint(Token t) {
    if (t.kind() == TokenKind.QUOTED_NAME) {
      return " (\""
          + t.text()
          + "\" is a quoted name; string values take single quotes: '"
          + t.text().replace("'", "''")
          + "')";
    }
    if (t.kind() == TokenKind.GT && pos > 0 && tokens.get(pos - 1).kind() == TokenKind.LT) {
      return " (not equal is written !=)";
    }
    return "";
  }

  static String upper(String s) {
    return s.toUpperCase(Locale.ROOT);
  }
}
