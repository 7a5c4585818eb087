package dev.talus.cql.parse;

import dev.talus.cql.CqlSyntaxException;
import dev.talus.cql.parse.ast.DescribeStatement;
import dev.talus.cql.parse.ast.DescribeStatement.Target;
import dev.talus.cql.parse.ast.QualifiedName;
import dev.talus.cql.parse.ast.RawStatement;
import dev.talus.cql.parse.ast.SelectStatement;
import dev.talus.cql.parse.ast.SourcePosition;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Parses CQL statements (Cassandra 5.0's dialect of CQL 3) into {@link RawStatement} syntax trees.
 * Internal to engine-cql: the executor calls it; applications will go through the module's public
 * API.
 *
 * <p>The parser is written by hand, recursive descent with one token of lookahead almost everywhere
 * (a few places look two or three tokens ahead, and three re-read a short stretch: {@code SELECT
 * JSON}/{@code DISTINCT}, which are also column names, and {@code (type) value} against a tuple).
 * It follows Cassandra's grammar ({@code Parser.g}) rule for rule, but is not generated from it:
 * hand-written, every error can say what was found, what was expected and how to fix it, and the
 * module needs no parser runtime.
 *
 * <p>Static methods, thread-safe; each call uses its own parser state.
 */
public final class CqlParser extends UnsupportedParser {
  private static final Set<String> SHELL_COMMANDS =
      Set.of(
          "consistency",
          "serial",
          "tracing",
          "expand",
          "paging",
          "source",
          "capture",
          "copy",
          "help",
          "exit",
          "quit",
          "show",
          "login",
          "clear",
          "cls");

  private CqlParser(SourceText source, List<Token> tokens) {
    super(source, tokens);
  }

  /**
   * Parses exactly one statement, optionally followed by semicolons.
   *
   * @param cql the statement
   * @return the parsed statement
   * @throws CqlSyntaxException if the text is not one valid statement
   */
  public static ParsedStatement parse(String cql) {
    SourceText source = new SourceText(cql);
    CqlParser parser = new CqlParser(source, Lexer.tokenize(source));
    ParsedStatement statement = parser.next();
    while (parser.accept(TokenKind.SEMICOLON)) {
      // trailing semicolons are allowed
    }
    if (!parser.at(TokenKind.EOF)) {
      throw parser.afterEnd(statement.statement());
    }
    return statement;
  }

  /** Parses every statement of a script; see {@link CqlScript#parse(String)}. */
  static List<ParsedStatement> parseAll(String script) {
    SourceText source = new SourceText(script);
    CqlParser parser = new CqlParser(source, Lexer.tokenize(source));
    List<ParsedStatement> statements = new ArrayList<>();
    while (true) {
      while (parser.accept(TokenKind.SEMICOLON)) {
        // empty statements
      }
      if (parser.at(TokenKind.EOF)) {
        return statements;
      }
      ParsedStatement statement = parser.next();
      statements.add(statement);
      if (!parser.at(TokenKind.SEMICOLON) && !parser.at(TokenKind.EOF)) {
        throw parser.afterEnd(statement.statement());
      }
    }
  }

  /** The number of tokens consumed so far, counting re-reads (for the fuzz test). */
  static long work(String cql) {
    SourceText source = new SourceText(cql);
    CqlParser parser = new CqlParser(source, Lexer.tokenize(source));
    try {
      parser.next();
    } catch (CqlSyntaxException e) {
      // the work done until the error counts too
    }
    return parser.consumed;
  }

  static int tokenCount(String cql) {
    return Lexer.tokenize(new SourceText(cql)).size();
  }

  private ParsedStatement next() {
    markers.clear();
    Token first = peek();
    RawStatement statement = statement();
    int end = tokens.get(pos - 1).end();
    return new ParsedStatement(
        statement,
        source.text().substring(first.start(), end),
        first.line(),
        first.column(),
        markers);
  }

  private CqlSyntaxException afterEnd(RawStatement statement) {
    String hint = "';' or the end of the statement";
    if (statement instanceof SelectStatement) {
      hint +=
          " (the clauses of SELECT come in this order: WHERE, GROUP BY, ORDER BY, PER PARTITION"
              + " LIMIT, LIMIT, ALLOW FILTERING)";
    }
    return unexpected(hint);
  }

  private RawStatement statement() {
    Token first = peek();
    SourcePosition p = position(first);
    if (first.kind() != TokenKind.KEYWORD) {
      String hint = "";
      if (first.is(TokenKind.IDENT) && SHELL_COMMANDS.contains(first.text())) {
        hint =
            " ("
                + upper(first.text())
                + " is a cqlsh shell command, not CQL: the shell runs it, the database does not)";
      }
      throw source.error(first, "unexpected " + describe(first) + "; expected a statement" + hint);
    }
    switch (first.keyword()) {
      case SELECT:
        return select();
      case INSERT:
        return insert();
      case UPDATE:
        return update();
      case DELETE:
        return delete();
      case BEGIN:
        return batch();
      case USE:
        advance();
        return use(p);
      case TRUNCATE:
        advance();
        return truncate(p);
      case CREATE:
        advance();
        return create(first, p);
      case ALTER:
        advance();
        return alter(first, p);
      case DROP:
        advance();
        return drop(first, p);
      case GRANT:
        advance();
        return grantOrRevoke(first, true);
      case REVOKE:
        advance();
        return grantOrRevoke(first, false);
      case LIST:
        advance();
        return list(first);
      case ADD:
        advance();
        expect(Keyword.IDENTITY);
        return addIdentity(first);
      case DESCRIBE:
      case DESC:
        advance();
        return describe(p);
      default:
        throw source.error(
            first,
            "unexpected "
                + describe(first)
                + "; expected a statement (SELECT, INSERT, UPDATE, DELETE, BEGIN BATCH, USE,"
                + " CREATE, ALTER, DROP, TRUNCATE, DESCRIBE, ...)");
    }
  }

  private RawStatement create(Token first, SourcePosition p) {
    if (acceptKeyspaceKeyword()) {
      return createKeyspace(p);
    }
    if (acceptTableKeyword()) {
      return createTable(p);
    }
    if (accept(Keyword.INDEX)) {
      return createIndex(p, false);
    }
    if (accept(Keyword.CUSTOM)) {
      expect(Keyword.INDEX);
      return createIndex(p, true);
    }
    if (accept(Keyword.TYPE)) {
      return createType(p);
    }
    if (accept(Keyword.MATERIALIZED)) {
      expect(Keyword.VIEW);
      return createView(first);
    }
    if (accept(Keyword.OR)) {
      expect(Keyword.REPLACE);
      if (accept(Keyword.FUNCTION)) {
        return createFunction(first);
      }
      expect(Keyword.AGGREGATE);
      return createAggregate(first);
    }
    if (accept(Keyword.FUNCTION)) {
      return createFunction(first);
    }
    if (accept(Keyword.AGGREGATE)) {
      return createAggregate(first);
    }
    if (accept(Keyword.TRIGGER)) {
      return createTrigger(first);
    }
    if (accept(Keyword.ROLE)) {
      return createOrAlterRole(first, true);
    }
    if (accept(Keyword.USER)) {
      return createOrAlterUser(first, true);
    }
    throw unexpected(
        "KEYSPACE, TABLE, INDEX, CUSTOM INDEX, TYPE, MATERIALIZED VIEW, FUNCTION, AGGREGATE,"
            + " TRIGGER, ROLE or USER after CREATE");
  }

  private RawStatement alter(Token first, SourcePosition p) {
    if (acceptKeyspaceKeyword()) {
      return alterKeyspace(p);
    }
    if (acceptTableKeyword()) {
      return alterTable(p);
    }
    if (accept(Keyword.TYPE)) {
      return alterType(p);
    }
    if (accept(Keyword.MATERIALIZED)) {
      expect(Keyword.VIEW);
      return alterOrDropView(first, true);
    }
    if (accept(Keyword.ROLE)) {
      return createOrAlterRole(first, false);
    }
    if (accept(Keyword.USER)) {
      return createOrAlterUser(first, false);
    }
    throw unexpected("KEYSPACE, TABLE, TYPE, MATERIALIZED VIEW, ROLE or USER after ALTER");
  }

  private RawStatement drop(Token first, SourcePosition p) {
    if (acceptKeyspaceKeyword()) {
      return dropKeyspace(p);
    }
    if (acceptTableKeyword()) {
      return dropTable(p);
    }
    if (accept(Keyword.INDEX)) {
      return dropIndex(p);
    }
    if (accept(Keyword.TYPE)) {
      return dropType(p);
    }
    if (accept(Keyword.MATERIALIZED)) {
      expect(Keyword.VIEW);
      return alterOrDropView(first, false);
    }
    if (accept(Keyword.FUNCTION)) {
      return dropFunctionOrAggregate(first, true);
    }
    if (accept(Keyword.AGGREGATE)) {
      return dropFunctionOrAggregate(first, false);
    }
    if (accept(Keyword.TRIGGER)) {
      return dropTrigger(first);
    }
    if (accept(Keyword.ROLE)) {
      return dropRole(first);
    }
    if (accept(Keyword.USER)) {
      return dropUser(first);
    }
    if (accept(Keyword.IDENTITY)) {
      return dropIdentity(first);
    }
    throw unexpected(
        "KEYSPACE, TABLE, INDEX, TYPE, MATERIALIZED VIEW, FUNCTION, AGGREGATE, TRIGGER, ROLE,"
            + " USER or IDENTITY after DROP");
  }

  /** After DESCRIBE or DESC. */
  private DescribeStatement describe(SourcePosition p) {
    Target target;
    QualifiedName name = null;
    boolean only = false;
    boolean plural = !atAhead(1, TokenKind.DOT);
    if (plural && accept(Keyword.CLUSTER)) {
      target = Target.CLUSTER;
    } else if (accept(Keyword.FULL)) {
      expect(Keyword.SCHEMA);
      target = Target.FULL_SCHEMA;
    } else if (accept(Keyword.SCHEMA)) {
      target = Target.SCHEMA;
    } else if (plural && accept(Keyword.KEYSPACES)) {
      target = Target.KEYSPACES;
    } else if (at(Keyword.KEYSPACE) || at(Keyword.ONLY) && atAhead(1, Keyword.KEYSPACE)) {
      only = accept(Keyword.ONLY);
      advance();
      target = Target.KEYSPACE;
      if (atName(NameUse.GENERAL)) {
        name = new QualifiedName(null, keyspaceName());
      }
    } else if (plural && (accept(Keyword.TABLES) || accept(Keyword.COLUMNFAMILIES))) {
      target = Target.TABLES;
    } else if (acceptTableKeyword()) {
      target = Target.TABLE;
      name = qualifiedName("a table name");
    } else if (accept(Keyword.INDEX)) {
      target = Target.INDEX;
      name = qualifiedName("an index name");
    } else if (accept(Keyword.MATERIALIZED)) {
      expect(Keyword.VIEW);
      target = Target.MATERIALIZED_VIEW;
      name = qualifiedName("a view name");
    } else if (plural && accept(Keyword.TYPES)) {
      target = Target.TYPES;
    } else if (plural && accept(Keyword.TYPE)) {
      target = Target.TYPE;
      name = userTypeName();
    } else if (plural && accept(Keyword.FUNCTIONS)) {
      target = Target.FUNCTIONS;
    } else if (plural && accept(Keyword.FUNCTION)) {
      target = Target.FUNCTION;
      name = functionName();
    } else if (plural && accept(Keyword.AGGREGATES)) {
      target = Target.AGGREGATES;
    } else if (plural && accept(Keyword.AGGREGATE)) {
      target = Target.AGGREGATE;
      name = functionName();
    } else if (atName(NameUse.GENERAL)) {
      target = Target.NAME;
      name = qualifiedName("a name");
    } else {
      throw unexpectedName(
          "what to describe (KEYSPACES, KEYSPACE, TABLES, TABLE, TYPES, TYPE, INDEX, SCHEMA, FULL"
              + " SCHEMA, CLUSTER, ... or a name)");
    }
    boolean withInternals = false;
    if (accept(Keyword.WITH)) {
      expect(Keyword.INTERNALS);
      withInternals = true;
    }
    return new DescribeStatement(target, name, only, withInternals, p);
  }
}
