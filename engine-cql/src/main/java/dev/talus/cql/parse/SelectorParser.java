package dev.talus.cql.parse;

import dev.talus.cql.CqlSyntaxException;
import dev.talus.cql.parse.ast.ArithmeticOperator;
import dev.talus.cql.parse.ast.CqlType;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.QualifiedName;
import dev.talus.cql.parse.ast.SelectItem;
import dev.talus.cql.parse.ast.Selector;
import dev.talus.cql.parse.ast.SourcePosition;
import dev.talus.cql.parse.ast.Term;
import java.util.ArrayList;
import java.util.List;

/**
 * The selectors of {@code SELECT} and {@code GROUP BY} (Cassandra's {@code selector} down to {@code
 * simpleUnaliasedSelector}): columns, constants, calls, {@code count(*)}, {@code writetime}/{@code
 * maxwritetime}/{@code ttl}, {@code CAST}, field/element/slice selection, arithmetic, type hints,
 * and tuple/list/set/map selectors.
 */
abstract class SelectorParser extends TermParser {
  static final String A_SELECTOR = "a selector";

  SelectorParser(SourceText source, List<Token> tokens) {
    super(source, tokens);
  }

  /** {@code *} (an empty list) or {@code selector [AS alias] (, ...)*}. */
  final List<SelectItem> selectItems() {
    if (accept(TokenKind.STAR)) {
      return List.of();
    }
    List<SelectItem> items = new ArrayList<>();
    do {
      Selector s = selector();
      Identifier alias = null;
      if (accept(Keyword.AS)) {
        alias = name("an alias");
      }
      items.add(new SelectItem(s, alias));
    } while (accept(TokenKind.COMMA));
    return items;
  }

  /** Cassandra's {@code unaliasedSelector}: additive arithmetic over groups. */
  final Selector selector() {
    Selector left = multiplicative(group());
    while (true) {
      Token t = peek();
      ArithmeticOperator op;
      Selector first = null;
      if (accept(TokenKind.PLUS)) {
        op = ArithmeticOperator.ADD;
      } else if (accept(TokenKind.MINUS)) {
        op = ArithmeticOperator.SUBTRACT;
      } else if (t.isSignedNumber()) {
        op = ArithmeticOperator.SUBTRACT;
        advance();
        first = modifiers(new Selector.Value(unsigned(t)));
      } else {
        return left;
      }
      left = new Selector.Arithmetic(op, left, multiplicative(first != null ? first : group()));
    }
  }

  private Selector multiplicative(Selector left) {
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
      left = new Selector.Arithmetic(op, left, group());
    }
  }

  /** Cassandra's {@code selectionGroup}: {@code -group}, or a primary with its modifiers. */
  private Selector group() {
    enter();
    try {
      if (at(TokenKind.MINUS)) {
        Token minus = advance();
        return new Selector.Negation(group(), position(minus));
      }
      return modifiers(primary());
    } finally {
      leave();
    }
  }

  /** {@code .field}, {@code [key]}, {@code [from..to]}, {@code [from..]}, {@code [..to]}. */
  private Selector modifiers(Selector receiver) {
    while (true) {
      if (at(TokenKind.DOT)) {
        advance();
        receiver = new Selector.Field(receiver, name("a field name"));
      } else if (at(TokenKind.LBRACKET)) {
        advance();
        if (accept(TokenKind.RANGE)) {
          Term to = term();
          expect(TokenKind.RBRACKET);
          receiver = new Selector.Slice(receiver, null, to);
        } else {
          Term key = term();
          if (accept(TokenKind.RANGE)) {
            Term to = at(TokenKind.RBRACKET) ? null : term();
            receiver = new Selector.Slice(receiver, key, to);
          } else {
            receiver = new Selector.Element(receiver, key);
          }
          expect(TokenKind.RBRACKET);
        }
      } else {
        return receiver;
      }
    }
  }

  /** Cassandra's {@code selectionGroupWithoutField}. */
  private Selector primary() {
    Token t = peek();
    SourcePosition p = position(t);
    switch (t.kind()) {
      case STRING, INTEGER, FLOAT, BOOLEAN, DURATION, UUID, HEXNUMBER -> {
        return new Selector.Value(literal());
      }
      case QMARK, COLON -> {
        return new Selector.Value(marker());
      }
      case LPAREN -> {
        Selector hinted = typeHint();
        return hinted != null ? hinted : parenthesised();
      }
      case LBRACKET -> {
        advance();
        List<Selector> elements = new ArrayList<>();
        if (!at(TokenKind.RBRACKET)) {
          elements.add(selector());
          while (accept(TokenKind.COMMA)) {
            elements.add(selector());
          }
        }
        expectClosing(TokenKind.RBRACKET, "a list");
        return new Selector.ListOf(elements, p);
      }
      case LBRACE -> {
        return braces(p);
      }
      default -> {
        // keywords and names below
      }
    }
    if (t.is(Keyword.NULL)) {
      advance();
      return new Selector.Value(new Term.Null(p));
    }
    if (atAhead(1, TokenKind.LPAREN)) {
      Selector special = specialFunction(t, p);
      if (special != null) {
        return special;
      }
    }
    QualifiedName fn = functionNameAhead();
    if (fn != null) {
      return new Selector.FunctionCall(fn, arguments(), p);
    }
    if (atName(NameUse.GENERAL)) {
      return new Selector.Column(columnRef("a column"));
    }
    throw unexpectedName(A_SELECTOR);
  }

  /** count(*), writetime(c), maxwritetime(c), ttl(c), CAST(s AS type); null for other calls. */
  private Selector specialFunction(Token t, SourcePosition p) {
    if (t.keyword() == null) {
      return null;
    }
    switch (t.keyword()) {
      case COUNT:
        if (atAhead(2, TokenKind.STAR) && atAhead(3, TokenKind.RPAREN)) {
          advance();
          advance();
          advance();
          advance();
          return new Selector.CountRows(p);
        }
        return null;
      case WRITETIME:
      case MAXWRITETIME:
      case TTL:
        advance();
        advance();
        Selector.MetadataKind kind =
            t.is(Keyword.TTL)
                ? Selector.MetadataKind.TTL
                : t.is(Keyword.WRITETIME)
                    ? Selector.MetadataKind.WRITETIME
                    : Selector.MetadataKind.MAXWRITETIME;
        Selector column = modifiers(new Selector.Column(columnRef("a column")));
        expect(TokenKind.RPAREN);
        return new Selector.WritetimeOrTtl(kind, column, p);
      case CAST:
        advance();
        advance();
        Selector inner = selector();
        expect(Keyword.AS);
        CqlType.Native type = nativeType();
        expect(TokenKind.RPAREN);
        return new Selector.Cast(inner, type, p);
      default:
        return null;
    }
  }

  private List<Selector> arguments() {
    expect(TokenKind.LPAREN);
    List<Selector> args = new ArrayList<>();
    if (!at(TokenKind.RPAREN)) {
      args.add(selector());
      while (accept(TokenKind.COMMA)) {
        args.add(selector());
      }
    }
    expectClosing(TokenKind.RPAREN, "the arguments");
    return args;
  }

  /** {@code (s)} is s; {@code (s1, s2, ...)} is a tuple. */
  private Selector parenthesised() {
    SourcePosition p = position(expect(TokenKind.LPAREN));
    List<Selector> elements = new ArrayList<>();
    elements.add(selector());
    while (accept(TokenKind.COMMA)) {
      elements.add(selector());
    }
    expectClosing(TokenKind.RPAREN, "the parenthesis");
    return elements.size() == 1 ? elements.get(0) : new Selector.TupleOf(elements, p);
  }

  private Selector braces(SourcePosition p) {
    advance();
    if (accept(TokenKind.RBRACE)) {
      return new Selector.SetOf(List.of(), p);
    }
    Selector first = selector();
    if (accept(TokenKind.COLON)) {
      List<Selector.Entry> entries = new ArrayList<>();
      entries.add(new Selector.Entry(first, selector()));
      while (accept(TokenKind.COMMA)) {
        Selector key = selector();
        expect(TokenKind.COLON);
        entries.add(new Selector.Entry(key, selector()));
      }
      expectClosing(TokenKind.RBRACE, "a map");
      return new Selector.MapOf(entries, p);
    }
    List<Selector> elements = new ArrayList<>();
    elements.add(first);
    while (accept(TokenKind.COMMA)) {
      elements.add(selector());
    }
    expectClosing(TokenKind.RBRACE, "a set");
    return new Selector.SetOf(elements, p);
  }

  /** {@code (type) primary}, or null (cursor unmoved) when the parenthesis is not a type hint. */
  private Selector typeHint() {
    if (!canStartType(peek(1), peek(2))) {
      return null;
    }
    Mark m = mark();
    Token open = advance();
    CqlType type;
    try {
      type = type();
    } catch (CqlSyntaxException e) {
      reset(m); // not a type: a parenthesised selector or a tuple
      return null;
    }
    if (at(TokenKind.RPAREN) && canStartPrimary(peek(1), peek(2))) {
      advance();
      enter();
      try {
        return new Selector.TypeHint(type, primary(), position(open));
      } finally {
        leave();
      }
    }
    reset(m);
    return null;
  }

  private static boolean canStartPrimary(Token t, Token next) {
    return canStartSimpleTerm(t, next) || isName(t, NameUse.GENERAL);
  }
}
