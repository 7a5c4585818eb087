package dev.talus.cql.parse;

import dev.talus.cql.CqlSyntaxException;
import dev.talus.cql.parse.ast.ArithmeticOperator;
import dev.talus.cql.parse.ast.CqlType;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.InValues;
import dev.talus.cql.parse.ast.LiteralKind;
import dev.talus.cql.parse.ast.QualifiedName;
import dev.talus.cql.parse.ast.SourcePosition;
import dev.talus.cql.parse.ast.Term;
import java.util.ArrayList;
import java.util.List;

/**
 * Terms (Cassandra's {@code term}, {@code value}, {@code constant}, collection, tuple and UDT
 * literals, {@code function}, type hints, {@code CAST}, arithmetic) and bind markers.
 *
 * <p>A number written with its sign ({@code -3}) is one literal, as in Cassandra's lexer; where an
 * operator is expected ({@code a -3}, {@code c = c -3}) it is read as a minus and the number, which
 * is what the writer meant (Cassandra reads {@code c = c -3} as {@code c = c + -3}, the same).
 */
abstract class TermParser extends TypeParser {
  static final String A_TERM =
      "a term (a constant, NULL, a bind marker, a collection, a tuple or a function call)";

  TermParser(SourceText source, List<Token> tokens) {
    super(source, tokens);
  }

  final Term term() {
    return additive(multiplicative(unary()));
  }

  /**
   * The term that starts with a signed number whose minus sign is an operator ({@code c = c -3}):
   * the term {@code 3}, and what follows it.
   */
  final Term termAfterSign(Token signed) {
    return additive(multiplicative(unsigned(signed)));
  }

  private Term additive(Term left) {
    while (true) {
      Token t = peek();
      ArithmeticOperator op;
      Term first = null;
      if (t.is(TokenKind.PLUS) && !startsColumnReference(1)) {
        op = ArithmeticOperator.ADD;
        advance();
      } else if (t.is(TokenKind.MINUS) && !startsColumnReference(1)) {
        op = ArithmeticOperator.SUBTRACT;
        advance();
      } else if (t.isSignedNumber()) {
        op = ArithmeticOperator.SUBTRACT;
        advance();
        first = unsigned(t);
      } else {
        return left;
      }
      Term right = multiplicative(first != null ? first : unary());
      left = new Term.Arithmetic(op, left, right, left.position());
    }
  }

  /** {@code left (* | / | %) right}, left-associative, from an already parsed left operand. */
  private Term multiplicative(Term left) {
    while (true) {
      ArithmeticOperator op =
          switch (peek().kind()) {
            case STAR -> ArithmeticOperator.MULTIPLY;
            case SLASH -> ArithmeticOperator.DIVIDE;
            case PERCENT -> ArithmeticOperator.MODULO;
            default -> null;
          };
      if (op == null) {
        return left;
      }
      advance();
      left = new Term.Arithmetic(op, left, unary(), left.position());
    }
  }

  private Term unary() {
    if (at(TokenKind.MINUS)) {
      Token minus = advance();
      return new Term.Negation(simpleTerm(), position(minus));
    }
    return simpleTerm();
  }

  /**
   * Whether the tokens from {@code ahead} on name a column rather than start a term: a name not
   * followed by {@code (} (a call) or {@code .name(} (a qualified call). Used where {@code +} or
   * {@code -} may end a term ({@code SET l = [1] + l}).
   */
  final boolean startsColumnReference(int ahead) {
    Token t = peek(ahead);
    if (!isName(t, NameUse.GENERAL)) {
      return false;
    }
    Token next = peek(ahead + 1);
    if (next.is(TokenKind.LPAREN)) {
      return false;
    }
    return !(next.is(TokenKind.DOT) && peek(ahead + 3).is(TokenKind.LPAREN));
  }

  /** The literal of a signed-number token without its sign. */
  final Term.Literal unsigned(Token t) {
    String text = t.text().substring(1);
    LiteralKind kind =
        switch (t.kind()) {
          case INTEGER -> LiteralKind.INTEGER;
          case DURATION -> LiteralKind.DURATION;
          default -> LiteralKind.FLOAT;
        };
    return new Term.Literal(kind, text, SourcePosition.of(t.line(), t.column() + 1));
  }

  /** Cassandra's {@code simpleTerm}: a value, a call, a type hint or a cast. */
  final Term simpleTerm() {
    enter();
    try {
      return simpleTermAtCursor();
    } finally {
      leave();
    }
  }

  private Term simpleTermAtCursor() {
    Token t = peek();
    SourcePosition p = position(t);
    switch (t.kind()) {
      case STRING:
      case INTEGER:
      case FLOAT:
      case BOOLEAN:
      case DURATION:
      case UUID:
      case HEXNUMBER:
        return literal();
      case QMARK:
      case COLON:
        return marker();
      case LBRACKET:
        return listLiteral();
      case LBRACE:
        return braceLiteral();
      case LPAREN:
        Term hinted = typeHint();
        return hinted != null ? hinted : tupleLiteral();
      default:
        break;
    }
    if (t.is(Keyword.NULL)) {
      advance();
      return new Term.Null(p);
    }
    if (t.is(Keyword.CAST) && atAhead(1, TokenKind.LPAREN)) {
      advance();
      advance();
      Term inner = simpleTerm();
      expect(Keyword.AS);
      CqlType.Native type = nativeType();
      expect(TokenKind.RPAREN);
      return new Term.Cast(inner, type, p);
    }
    QualifiedName fn = functionNameAhead();
    if (fn != null) {
      List<Term> args = new ArrayList<>();
      expect(TokenKind.LPAREN);
      if (!at(TokenKind.RPAREN)) {
        args.add(term());
        while (accept(TokenKind.COMMA)) {
          args.add(term());
        }
      }
      expect(TokenKind.RPAREN);
      return new Term.FunctionCall(fn, args, p);
    }
    throw unexpected(A_TERM);
  }

  /**
   * When the cursor is at {@code name(} or {@code ks.name(}, consumes the name and returns it;
   * otherwise consumes nothing and returns null.
   */
  final QualifiedName functionNameAhead() {
    Token t = peek();
    if (isName(t, NameUse.GENERAL)
        && atAhead(1, TokenKind.DOT)
        && isName(peek(2), NameUse.FUNCTION)
        && atAhead(3, TokenKind.LPAREN)) {
      Identifier ks = name("a keyspace name");
      advance();
      return new QualifiedName(ks, name(NameUse.FUNCTION, "a function name", false));
    }
    if (isName(t, NameUse.FUNCTION) && atAhead(1, TokenKind.LPAREN)) {
      return new QualifiedName(null, name(NameUse.FUNCTION, "a function name", false));
    }
    return null;
  }

  /** {@code (type) term}, or null (cursor unmoved) when the parenthesis opens a tuple. */
  private Term typeHint() {
    if (!canStartType(peek(1), peek(2))) {
      return null;
    }
    Mark m = mark();
    Token open = advance();
    CqlType type;
    try {
      type = type();
    } catch (CqlSyntaxException e) {
      reset(m); // not a type: the parenthesis opens a tuple
      return null;
    }
    if (at(TokenKind.RPAREN) && canStartSimpleTerm(peek(1), peek(2))) {
      advance();
      return new Term.TypeHint(type, simpleTerm(), position(open));
    }
    reset(m);
    return null;
  }

  static boolean canStartSimpleTerm(Token t, Token next) {
    return switch (t.kind()) {
      case STRING,
          INTEGER,
          FLOAT,
          BOOLEAN,
          DURATION,
          UUID,
          HEXNUMBER,
          QMARK,
          COLON,
          LBRACKET,
          LBRACE,
          LPAREN ->
          true;
      default ->
          t.is(Keyword.NULL)
              || next.is(TokenKind.LPAREN) && (isName(t, NameUse.FUNCTION) || t.is(Keyword.CAST))
              || next.is(TokenKind.DOT) && isName(t, NameUse.GENERAL);
    };
  }

  /** A constant. */
  final Term.Literal literal() {
    Token t = advance();
    SourcePosition p = position(t);
    return switch (t.kind()) {
      case STRING -> new Term.Literal(LiteralKind.STRING, t.text(), p);
      case INTEGER -> new Term.Literal(LiteralKind.INTEGER, t.text(), p);
      case FLOAT ->
          new Term.Literal(LiteralKind.FLOAT, t.text().equals("-NaN") ? "NaN" : t.text(), p);
      case BOOLEAN -> new Term.Literal(LiteralKind.BOOLEAN, t.text(), p);
      case DURATION -> new Term.Literal(LiteralKind.DURATION, t.text(), p);
      case UUID -> new Term.Literal(LiteralKind.UUID, t.text(), p);
      case HEXNUMBER -> new Term.Literal(LiteralKind.HEX, t.text(), p);
      default -> throw unexpectedAt(t, "a constant");
    };
  }

  static boolean isConstant(Token t) {
    return switch (t.kind()) {
      case STRING, INTEGER, FLOAT, BOOLEAN, DURATION, UUID, HEXNUMBER -> true;
      default -> false;
    };
  }

  /** {@code ?} or {@code :name}. */
  final Term.BindMarker marker() {
    Token t = peek();
    if (accept(TokenKind.QMARK)) {
      return newMarker(null, position(t));
    }
    expect(TokenKind.COLON);
    return newMarker(name("the name of a bind marker"), position(t));
  }

  final Term.BindMarker newMarker(Identifier name, SourcePosition p) {
    Term.BindMarker m = new Term.BindMarker(markers.size(), name, p);
    markers.add(m);
    return m;
  }

  final boolean atMarker() {
    return at(TokenKind.QMARK) || at(TokenKind.COLON);
  }

  /** An integer literal or a bind marker ({@code LIMIT}, {@code USING TTL}). */
  final Term intValue(String what) {
    if (at(TokenKind.INTEGER)) {
      return literal();
    }
    if (atMarker()) {
      return marker();
    }
    throw unexpected(what + ", an integer or a bind marker");
  }

  private Term listLiteral() {
    SourcePosition p = position(expect(TokenKind.LBRACKET));
    List<Term> elements = new ArrayList<>();
    if (!at(TokenKind.RBRACKET)) {
      elements.add(term());
      while (accept(TokenKind.COMMA)) {
        elements.add(term());
      }
    }
    expectClosing(TokenKind.RBRACKET, "a list");
    return new Term.ListLiteral(elements, p);
  }

  /** {@code {}} (a set), a set, a map, or a UDT value ({@code {field: v}}). */
  private Term braceLiteral() {
    SourcePosition p = position(expect(TokenKind.LBRACE));
    if (accept(TokenKind.RBRACE)) {
      return new Term.SetLiteral(List.of(), p);
    }
    if (atName(NameUse.GENERAL) && atAhead(1, TokenKind.COLON)) {
      List<Term.FieldValue> fields = new ArrayList<>();
      do {
        Identifier field = name("a field name");
        expect(TokenKind.COLON);
        fields.add(new Term.FieldValue(field, term()));
      } while (accept(TokenKind.COMMA));
      expectClosing(TokenKind.RBRACE, "a user type value");
      return new Term.UdtLiteral(fields, p);
    }
    Term first = term();
    if (accept(TokenKind.COLON)) {
      List<Term.MapEntry> entries = new ArrayList<>();
      entries.add(new Term.MapEntry(first, term()));
      while (accept(TokenKind.COMMA)) {
        Term key = term();
        expect(TokenKind.COLON);
        entries.add(new Term.MapEntry(key, term()));
      }
      expectClosing(TokenKind.RBRACE, "a map");
      return new Term.MapLiteral(entries, p);
    }
    List<Term> elements = new ArrayList<>();
    elements.add(first);
    while (accept(TokenKind.COMMA)) {
      elements.add(term());
    }
    expectClosing(TokenKind.RBRACE, "a set");
    return new Term.SetLiteral(elements, p);
  }

  final Term.TupleLiteral tupleLiteral() {
    SourcePosition p = position(expect(TokenKind.LPAREN));
    List<Term> elements = new ArrayList<>();
    elements.add(term());
    while (accept(TokenKind.COMMA)) {
      elements.add(term());
    }
    expectClosing(TokenKind.RPAREN, "a tuple");
    return new Term.TupleLiteral(elements, p);
  }

  final void expectClosing(TokenKind closing, String what) {
    if (!at(closing)) {
      throw unexpected("',' or " + closing.description() + " to close " + what);
    }
    advance();
  }

  /** The right side of a single-column {@code IN}: {@code (t1, t2)}, {@code ()} or a marker. */
  final InValues inValues() {
    if (atMarker()) {
      return new InValues.Marker(marker());
    }
    if (!at(TokenKind.LPAREN)) {
      throw unexpected("'(' or a bind marker after IN");
    }
    advance();
    List<Term> terms = new ArrayList<>();
    if (!at(TokenKind.RPAREN)) {
      terms.add(term());
      while (accept(TokenKind.COMMA)) {
        terms.add(term());
      }
    }
    expectClosing(TokenKind.RPAREN, "the IN list");
    return new InValues.Listed(terms);
  }
}
