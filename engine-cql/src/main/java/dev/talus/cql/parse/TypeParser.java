package dev.talus.cql.parse;

import dev.talus.cql.parse.ast.CqlType;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.NativeType;
import dev.talus.cql.parse.ast.QualifiedName;
import dev.talus.cql.parse.ast.SourcePosition;
import java.util.ArrayList;
import java.util.List;

/** Types: Cassandra's {@code comparatorType}, {@code native_type} and {@code userTypeName}. */
abstract class TypeParser extends ParserBase {
  static final String A_TYPE = "a type";

  TypeParser(SourceText source, List<Token> tokens) {
    super(source, tokens);
  }

  /** Whether a type can start with the token (used to tell a type hint from a tuple). */
  static boolean canStartType(Token t, Token next) {
    if (t.kind() == TokenKind.STRING) {
      return true;
    }
    if (t.kind() == TokenKind.KEYWORD && t.keyword().nativeType() != null) {
      return true;
    }
    if (t.is(Keyword.SET)) {
      return next.kind() == TokenKind.LT;
    }
    return isName(t, NameUse.TYPE) || isName(t, NameUse.GENERAL) && next.kind() == TokenKind.DOT;
  }

  final CqlType type() {
    enter();
    try {
      return typeAtCursor();
    } finally {
      leave();
    }
  }

  private CqlType typeAtCursor() {
    Token t = peek();
    SourcePosition p = position(t);
    if (t.kind() == TokenKind.STRING) {
      advance();
      return new CqlType.Custom(t.text(), p);
    }
    if (t.kind() == TokenKind.KEYWORD) {
      boolean generic = atAhead(1, TokenKind.LT);
      switch (t.keyword()) {
        case MAP:
          if (generic) {
            advance();
            advance();
            CqlType key = type();
            expect(TokenKind.COMMA);
            CqlType value = type();
            closeAngle();
            return new CqlType.MapOf(key, value, p);
          }
          break;
        case LIST:
          if (generic) {
            return new CqlType.ListOf(single(), p);
          }
          break;
        case SET:
          if (!generic) {
            advance();
            throw unexpected("'<' after set");
          }
          return new CqlType.SetOf(single(), p);
        case FROZEN:
          if (generic) {
            return new CqlType.Frozen(single(), p);
          }
          break;
        case TUPLE:
          if (generic) {
            advance();
            advance();
            List<CqlType> elements = new ArrayList<>();
            elements.add(type());
            while (accept(TokenKind.COMMA)) {
              elements.add(type());
            }
            closeAngle();
            return new CqlType.TupleOf(elements, p);
          }
          break;
        case VECTOR:
          if (generic) {
            return vector(p);
          }
          break;
        default:
          NativeType n = t.keyword().nativeType();
          if (n != null && !atAhead(1, TokenKind.DOT)) {
            advance();
            return new CqlType.Native(n, p);
          }
      }
    }
    if (!isName(t, NameUse.TYPE) && !(isName(t, NameUse.GENERAL) && atAhead(1, TokenKind.DOT))) {
      throw unexpectedName(A_TYPE);
    }
    return new CqlType.UserDefined(userTypeName());
  }

  /** {@code kw < T >} for list, set and frozen. */
  private CqlType single() {
    advance();
    advance();
    CqlType element = type();
    closeAngle();
    return element;
  }

  private CqlType vector(SourcePosition p) {
    advance();
    advance();
    CqlType element = type();
    expect(TokenKind.COMMA);
    Token d = peek();
    if (!d.is(TokenKind.INTEGER)) {
      throw unexpected("the vector's dimension, an integer");
    }
    advance();
    int dimension;
    try {
      dimension = Integer.parseInt(d.text());
    } catch (NumberFormatException e) {
      throw source.error(d, "the vector dimension " + d.text() + " is too large");
    }
    closeAngle();
    return new CqlType.VectorOf(element, dimension, p);
  }

  private void closeAngle() {
    if (!at(TokenKind.GT)) {
      throw unexpected("'>'");
    }
    advance();
  }

  /** {@code [keyspace.]type_name}. */
  final QualifiedName userTypeName() {
    refuseBindMarker("a type name");
    if (atAhead(1, TokenKind.DOT)) {
      Identifier ks = name("a keyspace name");
      advance();
      return new QualifiedName(ks, name(NameUse.TYPE, "a user type name", false));
    }
    return new QualifiedName(null, name(NameUse.TYPE, "a user type name", false));
  }

  /** A native type ({@code CAST(... AS int)}). */
  final CqlType.Native nativeType() {
    Token t = peek();
    NativeType n = t.kind() == TokenKind.KEYWORD ? t.keyword().nativeType() : null;
    if (n == null) {
      throw unexpected("a native type (int, text, timestamp, ...)");
    }
    advance();
    return new CqlType.Native(n, position(t));
  }
}
