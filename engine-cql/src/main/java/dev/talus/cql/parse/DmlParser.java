package dev.talus.cql.parse;

import dev.talus.cql.CqlSyntaxException;
import dev.talus.cql.parse.ast.Attributes;
import dev.talus.cql.parse.ast.BatchStatement;
import dev.talus.cql.parse.ast.ColumnRef;
import dev.talus.cql.parse.ast.Condition;
import dev.talus.cql.parse.ast.DeleteStatement;
import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.InsertJsonStatement;
import dev.talus.cql.parse.ast.InsertStatement;
import dev.talus.cql.parse.ast.ModificationStatement;
import dev.talus.cql.parse.ast.Operation;
import dev.talus.cql.parse.ast.Ordering;
import dev.talus.cql.parse.ast.QualifiedName;
import dev.talus.cql.parse.ast.Relation;
import dev.talus.cql.parse.ast.SelectItem;
import dev.talus.cql.parse.ast.SelectStatement;
import dev.talus.cql.parse.ast.Selector;
import dev.talus.cql.parse.ast.SourcePosition;
import dev.talus.cql.parse.ast.Term;
import dev.talus.cql.parse.ast.UpdateStatement;
import java.util.ArrayList;
import java.util.List;

/** SELECT, INSERT, UPDATE, DELETE and BATCH. */
abstract class DmlParser extends WhereParser {
  DmlParser(SourceText source, List<Token> tokens) {
    super(source, tokens);
  }

  // ---- SELECT ----

  final SelectStatement select() {
    SourcePosition p = position(expect(Keyword.SELECT));
    boolean json = false;
    boolean distinct = false;
    List<SelectItem> items = null;
    // JSON and DISTINCT are also valid column names: they are modifiers only when what follows
    // them is a whole select clause (Cassandra's syntactic predicates).
    if (at(Keyword.JSON)) {
      Mark m = mark();
      advance();
      CqlSyntaxException first = null;
      try {
        SelectClause c = selectClause();
        if (at(Keyword.FROM)) {
          json = true;
          distinct = c.distinct;
          items = c.items;
        } else {
          first = unexpected("FROM");
        }
      } catch (CqlSyntaxException e) {
        first = e;
      }
      if (!json) {
        reset(m);
        items = selectClauseOrFurthest(first).items;
        if (!at(Keyword.FROM)) {
          throw furthest(first, unexpected("FROM"));
        }
      }
    } else {
      SelectClause c = selectClause();
      distinct = c.distinct;
      items = c.items;
    }
    expect(Keyword.FROM);
    QualifiedName table = qualifiedName("a table name");
    List<Relation> where = List.of();
    if (accept(Keyword.WHERE)) {
      where = whereClause();
    }
    List<Selector> groupBy = new ArrayList<>();
    if (at(Keyword.GROUP) && atAhead(1, Keyword.BY)) {
      advance();
      advance();
      do {
        groupBy.add(selector());
      } while (accept(TokenKind.COMMA));
    }
    List<Ordering> orderBy = List.of();
    if (accept(Keyword.ORDER)) {
      expect(Keyword.BY);
      orderBy = orderings();
    }
    Term perPartitionLimit = null;
    if (at(Keyword.PER) && atAhead(1, Keyword.PARTITION)) {
      advance();
      advance();
      expect(Keyword.LIMIT);
      perPartitionLimit = intValue("the per-partition limit");
    }
    Term limit = null;
    if (accept(Keyword.LIMIT)) {
      limit = intValue("the limit");
    }
    boolean allowFiltering = false;
    if (accept(Keyword.ALLOW)) {
      expect(Keyword.FILTERING);
      allowFiltering = true;
    }
    return new SelectStatement(
        json,
        distinct,
        items,
        table,
        where,
        groupBy,
        orderBy,
        perPartitionLimit,
        limit,
        allowFiltering,
        p);
  }

  private record SelectClause(boolean distinct, List<SelectItem> items) {}

  /** {@code [DISTINCT] selectors}, with DISTINCT read as a column when it must be one. */
  private SelectClause selectClause() {
    if (!at(Keyword.DISTINCT)) {
      return new SelectClause(false, selectItems());
    }
    Mark m = mark();
    advance();
    CqlSyntaxException first = null;
    try {
      List<SelectItem> items = selectItems();
      if (at(Keyword.FROM)) {
        return new SelectClause(true, items);
      }
      first = unexpected("FROM");
    } catch (CqlSyntaxException e) {
      first = e;
    }
    reset(m);
    SelectClause c = selectClauseOrFurthest(first);
    if (!at(Keyword.FROM)) {
      throw furthest(first, unexpected("FROM"));
    }
    return c;
  }

  /** Parses the select clause again with the keyword as a column; on failure, the deeper error. */
  private SelectClause selectClauseOrFurthest(CqlSyntaxException first) {
    try {
      return new SelectClause(false, selectItems());
    } catch (CqlSyntaxException second) {
      throw furthest(first, second);
    }
  }

  /** Of two errors of alternative readings, the one that got further into the text. */
  static CqlSyntaxException furthest(CqlSyntaxException a, CqlSyntaxException b) {
    if (a == null) {
      return b;
    }
    boolean aFurther = a.line() > b.line() || a.line() == b.line() && a.column() > b.column();
    return aFurther ? a : b;
  }

  // ---- INSERT ----

  final ModificationStatement insert() {
    SourcePosition p = position(expect(Keyword.INSERT));
    expect(Keyword.INTO);
    QualifiedName table = qualifiedName("a table name");
    if (accept(Keyword.JSON)) {
      Term json;
      if (at(TokenKind.STRING)) {
        json = literal();
      } else if (atMarker()) {
        json = marker();
      } else {
        throw unexpected("the JSON value, a string or a bind marker");
      }
      boolean defaultUnset = false;
      if (accept(Keyword.DEFAULT)) {
        if (accept(Keyword.UNSET)) {
          defaultUnset = true;
        } else if (!accept(Keyword.NULL)) {
          throw unexpected("NULL or UNSET after DEFAULT");
        }
      }
      boolean ifNotExists = ifNotExists();
      Attributes attributes = usingClause(true);
      return new InsertJsonStatement(table, json, defaultUnset, ifNotExists, attributes, p);
    }
    if (!at(TokenKind.LPAREN)) {
      throw unexpected("'(' and the column names, or JSON");
    }
    List<Identifier> columns = columnTuple();
    expect(Keyword.VALUES);
    expect(TokenKind.LPAREN);
    List<Term> values = new ArrayList<>();
    values.add(term());
    while (accept(TokenKind.COMMA)) {
      values.add(term());
    }
    expectClosing(TokenKind.RPAREN, "the values");
    boolean ifNotExists = ifNotExists();
    Attributes attributes = usingClause(true);
    return new InsertStatement(table, columns, values, ifNotExists, attributes, p);
  }

  /** {@code USING TIMESTAMP t AND TTL s}, when next; {@link Attributes#NONE} otherwise. */
  final Attributes usingClause(boolean ttlAllowed) {
    if (!accept(Keyword.USING)) {
      return Attributes.NONE;
    }
    Term timestamp = null;
    Term ttl = null;
    do {
      Token t = peek();
      if (accept(Keyword.TIMESTAMP)) {
        if (timestamp != null) {
          throw givenTwice(t);
        }
        timestamp = intValue("the timestamp");
      } else if (ttlAllowed && accept(Keyword.TTL)) {
        if (ttl != null) {
          throw givenTwice(t);
        }
        ttl = intValue("the time to live");
      } else {
        throw unexpected(ttlAllowed ? "TIMESTAMP or TTL" : "TIMESTAMP");
      }
    } while (ttlAllowed && accept(Keyword.AND));
    return new Attributes(timestamp, ttl);
  }

  /**
   * Talus refuses what Cassandra silently accepts (keeping the last value): a second value is a
   * mistake, and a bind marker in the first would be a parameter that does nothing.
   */
  private CqlSyntaxException givenTwice(Token t) {
    return source.error(
        t,
        t.keyword().name()
            + " is given twice in USING; give it once (Cassandra would silently keep the last)");
  }

  // ---- UPDATE ----

  final UpdateStatement update() {
    SourcePosition p = position(expect(Keyword.UPDATE));
    QualifiedName table = qualifiedName("a table name");
    Attributes attributes = usingClause(true);
    expect(Keyword.SET);
    List<Operation> operations = new ArrayList<>();
    do {
      addOperation(operations, operation());
    } while (accept(TokenKind.COMMA));
    if (!at(Keyword.WHERE)) {
      throw unexpected("',' or WHERE (an UPDATE names its rows with a WHERE clause)");
    }
    advance();
    List<Relation> where = whereClause();
    boolean ifExists = false;
    List<Condition> conditions = List.of();
    if (accept(Keyword.IF)) {
      if (at(Keyword.EXISTS) && !existsIsAColumn()) {
        advance();
        ifExists = true;
      } else {
        conditions = conditionsAfterIf();
      }
    }
    return new UpdateStatement(table, attributes, operations, where, ifExists, conditions, p);
  }

  private Operation operation() {
    Identifier column = columnRef("a column name");
    Token t = peek();
    switch (t.kind()) {
      case PLUS_EQ -> {
        advance();
        return new Operation.Add(column, term());
      }
      case MINUS_EQ -> {
        advance();
        return new Operation.Subtract(column, term());
      }
      case LBRACKET -> {
        advance();
        Term key = term();
        expect(TokenKind.RBRACKET);
        expect(TokenKind.EQ);
        return new Operation.Assign(new ColumnRef.Element(column, key), term());
      }
      case DOT -> {
        advance();
        Identifier field = name("a field name");
        expect(TokenKind.EQ);
        return new Operation.Assign(new ColumnRef.Field(column, field), term());
      }
      case EQ -> advance();
      default -> throw unexpected("'=', '+=', '-=', '[' or '.' after the column name");
    }
    if (startsColumnReference(0)) {
      // c = c + v, c = c - v, c = c -3 (a signed number)
      Token other = peek();
      Identifier same = columnRef("a column name");
      Token op = peek();
      if (!op.is(TokenKind.PLUS) && !op.is(TokenKind.MINUS) && !op.isSignedNumber()) {
        throw unexpected("'+' or '-' after " + same.name());
      }
      requireSameColumn(
          column, same, other, op.is(TokenKind.PLUS) ? "X = X + value" : "X = X - value");
      if (op.isSignedNumber()) {
        advance();
        return new Operation.Subtract(column, termAfterSign(op));
      }
      advance();
      Term value = term();
      return op.is(TokenKind.PLUS)
          ? new Operation.Add(column, value)
          : new Operation.Subtract(column, value);
    }
    Term value = term();
    if (at(TokenKind.PLUS) && startsColumnReference(1)) {
      advance();
      Token other = peek();
      Identifier same = columnRef("a column name");
      requireSameColumn(column, same, other, "X = value + X");
      return new Operation.Prepend(column, value);
    }
    return new Operation.Assign(new ColumnRef.Whole(column), value);
  }

  private void requireSameColumn(Identifier column, Identifier same, Token at, String form) {
    if (!column.name().equals(same.name())) {
      throw source.error(
          at,
          "only assignments of the form "
              + form
              + " may name a column on the right of '=': "
              + same.name()
              + " is not "
              + column.name());
    }
  }

  /** Cassandra's rule: setting a whole column excludes any other operation on that column. */
  private void addOperation(List<Operation> operations, Operation op) {
    for (Operation other : operations) {
      if (other.column().name().equals(op.column().name()) && !compatible(other, op)) {
        throw source.error(
            tokens.get(pos - 1),
            "the column "
                + op.column().name()
                + " is set more than once in incompatible ways; set it once");
      }
    }
    operations.add(op);
  }

  private static boolean compatible(Operation a, Operation b) {
    if (isWholeAssign(a) || isWholeAssign(b)) {
      return false;
    }
    if (a instanceof Operation.Assign x
        && x.target() instanceof ColumnRef.Field fa
        && b instanceof Operation.Assign y
        && y.target() instanceof ColumnRef.Field fb) {
      return !fa.field().name().equals(fb.field().name());
    }
    return true;
  }

  private static boolean isWholeAssign(Operation o) {
    return o instanceof Operation.Assign a && a.target() instanceof ColumnRef.Whole;
  }

  // ---- DELETE ----

  final DeleteStatement delete() {
    SourcePosition p = position(expect(Keyword.DELETE));
    List<ColumnRef> targets = new ArrayList<>();
    if (!at(Keyword.FROM)) {
      do {
        Identifier column = columnRef("a column name or FROM");
        if (accept(TokenKind.LBRACKET)) {
          Term key = term();
          expect(TokenKind.RBRACKET);
          targets.add(new ColumnRef.Element(column, key));
        } else if (accept(TokenKind.DOT)) {
          targets.add(new ColumnRef.Field(column, name("a field name")));
        } else {
          targets.add(new ColumnRef.Whole(column));
        }
      } while (accept(TokenKind.COMMA));
    }
    expect(Keyword.FROM);
    QualifiedName table = qualifiedName("a table name");
    Attributes attributes = usingClause(false);
    if (!at(Keyword.WHERE)) {
      throw unexpected("WHERE (a DELETE names its rows with a WHERE clause)");
    }
    advance();
    List<Relation> where = whereClause();
    boolean ifExists = false;
    List<Condition> conditions = List.of();
    if (accept(Keyword.IF)) {
      if (at(Keyword.EXISTS) && !existsIsAColumn()) {
        advance();
        ifExists = true;
      } else {
        conditions = conditionsAfterIf();
      }
    }
    return new DeleteStatement(targets, table, attributes, where, ifExists, conditions, p);
  }

  // ---- BATCH ----

  final BatchStatement batch() {
    SourcePosition p = position(expect(Keyword.BEGIN));
    BatchStatement.Type type = BatchStatement.Type.LOGGED;
    if (accept(Keyword.UNLOGGED)) {
      type = BatchStatement.Type.UNLOGGED;
    } else if (accept(Keyword.COUNTER)) {
      type = BatchStatement.Type.COUNTER;
    }
    expect(Keyword.BATCH);
    Attributes attributes = usingClause(true);
    List<ModificationStatement> statements = new ArrayList<>();
    while (!at(Keyword.APPLY)) {
      Token t = peek();
      if (t.is(Keyword.INSERT)) {
        statements.add(insert());
      } else if (t.is(Keyword.UPDATE)) {
        statements.add(update());
      } else if (t.is(Keyword.DELETE)) {
        statements.add(delete());
      } else {
        throw unexpected(
            statements.isEmpty()
                ? "INSERT, UPDATE, DELETE or APPLY BATCH"
                : "';', INSERT, UPDATE, DELETE or APPLY BATCH");
      }
      accept(TokenKind.SEMICOLON);
    }
    advance();
    expect(Keyword.BATCH);
    return new BatchStatement(type, attributes, statements, p);
  }
}
