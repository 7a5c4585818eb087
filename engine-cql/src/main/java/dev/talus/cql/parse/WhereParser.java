package dev.talus.cql.parse;

import dev.talus.cql.parse.ast.ColumnRef;
import dev.talus.cql.parse.ast.Condition;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.InValues;
import dev.talus.cql.parse.ast.Operator;
import dev.talus.cql.parse.ast.Ordering;
import dev.talus.cql.parse.ast.QualifiedName;
import dev.talus.cql.parse.ast.Relation;
import dev.talus.cql.parse.ast.SourcePosition;
import dev.talus.cql.parse.ast.Term;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code WHERE} relations (Cassandra's {@code whereClause}, {@code relation}, {@code
 * customIndexExpression}), {@code IF} conditions ({@code columnCondition}) and {@code ORDER BY}.
 */
abstract class WhereParser extends SelectorParser {
  static final String AN_OPERATOR =
      "an operator (=, !=, <, <=, >, >=, IN, CONTAINS, CONTAINS KEY, LIKE or IS NOT NULL)";

  WhereParser(SourceText source, List<Token> tokens) {
    super(source, tokens);
  }

  /** {@code relation (AND relation)*}. */
  final List<Relation> whereClause() {
    List<Relation> relations = new ArrayList<>();
    relations.add(relation());
    while (accept(Keyword.AND)) {
      relations.add(relation());
    }
    return relations;
  }

  /** One of {@code = != < <= > >=}, consumed, or null (nothing consumed). */
  final Operator comparison() {
    Operator op =
        switch (peek().kind()) {
          case EQ -> Operator.EQ;
          case NEQ -> Operator.NEQ;
          case LT -> Operator.LT;
          case LTE -> Operator.LTE;
          case GT -> Operator.GT;
          case GTE -> Operator.GTE;
          default -> null;
        };
    if (op != null) {
      advance();
    }
    return op;
  }

  private Relation relation() {
    enter();
    try {
      return relationAtCursor();
    } finally {
      leave();
    }
  }

  private Relation relationAtCursor() {
    Token t = peek();
    SourcePosition p = position(t);
    if (t.is(Keyword.TOKEN) && atAhead(1, TokenKind.LPAREN)) {
      advance();
      List<Identifier> columns = columnTuple();
      Operator op = comparison();
      if (op == null) {
        throw unexpected("a comparison (=, !=, <, <=, >, >=) after token(...)");
      }
      return new Relation.Token(columns, op, term(), p);
    }
    if (t.is(TokenKind.LPAREN)) {
      Token next = peek(2);
      if (isName(peek(1), NameUse.GENERAL)
          && (next.is(TokenKind.COMMA) || next.is(TokenKind.RPAREN))) {
        return multiColumn(p);
      }
      advance();
      Relation inner = relation();
      expect(TokenKind.RPAREN);
      return inner;
    }
    if (t.is(TokenKind.IDENT) && t.text().equals("expr") && atAhead(1, TokenKind.LPAREN)) {
      advance();
      advance();
      QualifiedName index = qualifiedName("an index name");
      expect(TokenKind.COMMA);
      Term value = term();
      expect(TokenKind.RPAREN);
      return new Relation.CustomIndexExpression(index, value, p);
    }
    Identifier column = columnRef("a column name, token(...) or '('");
    if (accept(TokenKind.LBRACKET)) {
      Term key = term();
      expect(TokenKind.RBRACKET);
      Operator op = comparison();
      if (op == null) {
        throw unexpected("a comparison (=, !=, <, <=, >, >=)");
      }
      return new Relation.MapElement(column, key, op, term());
    }
    Operator op = comparison();
    if (op != null) {
      return new Relation.Compare(column, op, term());
    }
    if (accept(Keyword.LIKE)) {
      return new Relation.Compare(column, Operator.LIKE, term());
    }
    if (accept(Keyword.IS)) {
      expect(Keyword.NOT);
      expect(Keyword.NULL);
      return new Relation.IsNotNull(column);
    }
    if (accept(Keyword.IN)) {
      return new Relation.In(column, inValues());
    }
    if (accept(Keyword.CONTAINS)) {
      boolean key = accept(Keyword.KEY);
      return new Relation.Compare(column, key ? Operator.CONTAINS_KEY : Operator.CONTAINS, term());
    }
    throw unexpected(AN_OPERATOR);
  }

  /** {@code (a, b) op (x, y)}, {@code (a, b) op ?}, {@code (a, b) IN ...}. */
  private Relation multiColumn(SourcePosition p) {
    List<Identifier> columns = columnTuple();
    if (accept(Keyword.IN)) {
      return new Relation.MultiColumnIn(columns, multiColumnInValues(), p);
    }
    Operator op = comparison();
    if (op == null) {
      throw unexpected("a comparison (=, !=, <, <=, >, >=) or IN after the column tuple");
    }
    Term value;
    if (atMarker()) {
      value = marker();
    } else if (at(TokenKind.LPAREN)) {
      value = tupleLiteral();
    } else {
      throw unexpected("a tuple (x, y, ...) or a bind marker");
    }
    return new Relation.MultiColumn(columns, op, value, p);
  }

  /** {@code IN ?}, {@code IN ()}, {@code IN ((1, 2), (3, 4))}, {@code IN (?, ?)}. */
  private InValues multiColumnInValues() {
    if (atMarker()) {
      return new InValues.Marker(marker());
    }
    expect(TokenKind.LPAREN);
    List<Term> values = new ArrayList<>();
    if (accept(TokenKind.RPAREN)) {
      return new InValues.Listed(values);
    }
    boolean markerList = atMarker();
    do {
      if (markerList) {
        if (!atMarker()) {
          throw unexpected("a bind marker");
        }
        values.add(marker());
      } else {
        if (!at(TokenKind.LPAREN)) {
          throw unexpected("a tuple (x, y, ...)");
        }
        values.add(tupleLiteral());
      }
    } while (accept(TokenKind.COMMA));
    expectClosing(TokenKind.RPAREN, "the IN list");
    return new InValues.Listed(values);
  }

  /** {@code (a, b, ...)} of column names. */
  final List<Identifier> columnTuple() {
    expect(TokenKind.LPAREN);
    List<Identifier> columns = new ArrayList<>();
    columns.add(columnRef("a column name"));
    while (accept(TokenKind.COMMA)) {
      columns.add(columnRef("a column name"));
    }
    expectClosing(TokenKind.RPAREN, "the column list");
    return columns;
  }

  /** {@code IF EXISTS} (returns null) or the conditions after {@code IF} (already consumed). */
  final List<Condition> conditionsAfterIf() {
    List<Condition> conditions = new ArrayList<>();
    conditions.add(condition());
    while (accept(Keyword.AND)) {
      conditions.add(condition());
    }
    return conditions;
  }

  /** Whether the {@code EXISTS} at the cursor is the column {@code exists} of a condition. */
  final boolean existsIsAColumn() {
    Token next = peek(1);
    return switch (next.kind()) {
      case EQ, NEQ, LT, LTE, GT, GTE, LBRACKET, DOT -> true;
      default -> next.is(Keyword.IN) || next.is(Keyword.CONTAINS);
    };
  }

  private Condition condition() {
    Identifier column = columnRef("a column name");
    ColumnRef target = new ColumnRef.Whole(column);
    if (accept(TokenKind.LBRACKET)) {
      Term key = term();
      expect(TokenKind.RBRACKET);
      target = new ColumnRef.Element(column, key);
    } else if (accept(TokenKind.DOT)) {
      target = new ColumnRef.Field(column, name("a field name"));
    }
    Operator op = comparison();
    if (op != null) {
      return new Condition.Compare(target, op, term());
    }
    if (accept(Keyword.IN)) {
      return new Condition.In(target, inValues());
    }
    if (target instanceof ColumnRef.Whole && accept(Keyword.CONTAINS)) {
      boolean key = accept(Keyword.KEY);
      return new Condition.Compare(target, key ? Operator.CONTAINS_KEY : Operator.CONTAINS, term());
    }
    throw unexpected(
        target instanceof ColumnRef.Whole
            ? "an operator (=, !=, <, <=, >, >=, IN, CONTAINS or CONTAINS KEY)"
            : "an operator (=, !=, <, <=, >, >= or IN)");
  }

  /** {@code ORDER BY} elements (after {@code ORDER BY}). */
  final List<Ordering> orderings() {
    List<Ordering> orderings = new ArrayList<>();
    do {
      Identifier column = columnRef("a column name");
      Term annOf = null;
      if (at(Keyword.ANN) && atAhead(1, Keyword.OF)) {
        advance();
        advance();
        annOf = term();
      }
      boolean descending = false;
      if (accept(Keyword.DESC)) {
        descending = true;
      } else {
        accept(Keyword.ASC);
      }
      orderings.add(new Ordering(column, annOf, descending));
    } while (accept(TokenKind.COMMA));
    return orderings;
  }
}
