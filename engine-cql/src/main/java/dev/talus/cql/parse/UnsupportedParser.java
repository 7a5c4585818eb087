package dev.talus.cql.parse;

import dev.talus.cql.parse.ast.Identifier;
import dev.talus.cql.parse.ast.QualifiedName;
import dev.talus.cql.parse.ast.UnsupportedStatement;
import dev.talus.cql.parse.ast.UnsupportedStatement.Kind;
import java.util.List;

/**
 * The statements Talus recognises and refuses: roles, users, identities, permissions, materialized
 * views, user-defined functions and aggregates, triggers. They are parsed with Cassandra's full
 * grammar, so a mistake in one is reported like any syntax error, but only their kind and text are
 * kept ({@link UnsupportedStatement}).
 */
abstract class UnsupportedParser extends DdlParser {
  UnsupportedParser(SourceText source, List<Token> tokens) {
    super(source, tokens);
  }

  /** The statement from {@code first} to the last token read. */
  final UnsupportedStatement unsupported(Kind kind, String statement, Token first) {
    int end = tokens.get(pos - 1).end();
    return new UnsupportedStatement(
        kind, statement, source.text().substring(first.start(), end), position(first));
  }

  // ---- roles, users and identities ----

  /** CREATE ROLE or ALTER ROLE, after ROLE. */
  final UnsupportedStatement createOrAlterRole(Token first, boolean create) {
    if (create) {
      ifNotExists();
    } else {
      ifExists();
    }
    roleName();
    if (accept(Keyword.WITH)) {
      do {
        roleOption();
      } while (accept(Keyword.AND));
    }
    return unsupported(Kind.ROLES, create ? "CREATE ROLE" : "ALTER ROLE", first);
  }

  private void roleOption() {
    if (accept(Keyword.PASSWORD)) {
      expect(TokenKind.EQ);
      expect(TokenKind.STRING);
    } else if (accept(Keyword.HASHED)) {
      expect(Keyword.PASSWORD);
      expect(TokenKind.EQ);
      expect(TokenKind.STRING);
    } else if (accept(Keyword.OPTIONS)) {
      expect(TokenKind.EQ);
      constantMap();
    } else if (accept(Keyword.SUPERUSER) || accept(Keyword.LOGIN)) {
      expect(TokenKind.EQ);
      expect(TokenKind.BOOLEAN);
    } else if (accept(Keyword.ACCESS)) {
      boolean datacenters = accept(Keyword.TO);
      if (!datacenters) {
        expect(Keyword.FROM);
      }
      Keyword what = datacenters ? Keyword.DATACENTERS : Keyword.CIDRS;
      if (accept(Keyword.ALL)) {
        expect(what);
      } else {
        expect(what);
        expect(TokenKind.LBRACE);
        do {
          expect(TokenKind.STRING);
        } while (accept(TokenKind.COMMA));
        expectClosing(TokenKind.RBRACE, "the list");
      }
    } else {
      throw unexpected(
          "a role option (PASSWORD, HASHED PASSWORD, OPTIONS, SUPERUSER, LOGIN or ACCESS)");
    }
  }

  final UnsupportedStatement dropRole(Token first) {
    ifExists();
    roleName();
    return unsupported(Kind.ROLES, "DROP ROLE", first);
  }

  /** LIST ROLES, LIST USERS, LIST SUPERUSERS or LIST permissions, after LIST. */
  final UnsupportedStatement list(Token first) {
    if (accept(Keyword.ROLES)) {
      if (accept(Keyword.OF)) {
        roleName();
      }
      accept(Keyword.NORECURSIVE);
      return unsupported(Kind.ROLES, "LIST ROLES", first);
    }
    if (accept(Keyword.USERS)) {
      return unsupported(Kind.ROLES, "LIST USERS", first);
    }
    if (accept(Keyword.SUPERUSERS)) {
      return unsupported(Kind.ROLES, "LIST SUPERUSERS", first);
    }
    permissions();
    if (accept(Keyword.ON)) {
      resource();
    }
    if (accept(Keyword.OF)) {
      roleName();
    }
    accept(Keyword.NORECURSIVE);
    return unsupported(Kind.PERMISSIONS, "LIST PERMISSIONS", first);
  }

  /** CREATE USER or ALTER USER, after USER. */
  final UnsupportedStatement createOrAlterUser(Token first, boolean create) {
    if (create) {
      ifNotExists();
    } else {
      ifExists();
    }
    userName();
    if (accept(Keyword.WITH)) {
      accept(Keyword.HASHED);
      expect(Keyword.PASSWORD);
      expect(TokenKind.STRING);
    }
    if (!accept(Keyword.SUPERUSER)) {
      accept(Keyword.NOSUPERUSER);
    }
    return unsupported(Kind.ROLES, create ? "CREATE USER" : "ALTER USER", first);
  }

  final UnsupportedStatement dropUser(Token first) {
    ifExists();
    userName();
    return unsupported(Kind.ROLES, "DROP USER", first);
  }

  final UnsupportedStatement addIdentity(Token first) {
    ifNotExists();
    userName();
    expect(Keyword.TO);
    expect(Keyword.ROLE);
    userName();
    return unsupported(Kind.ROLES, "ADD IDENTITY", first);
  }

  final UnsupportedStatement dropIdentity(Token first) {
    ifExists();
    userName();
    return unsupported(Kind.ROLES, "DROP IDENTITY", first);
  }

  /** A role: a name, a string or a quoted name. */
  private void roleName() {
    refuseBindMarker("a role name");
    if (!accept(TokenKind.STRING)) {
      name("a role name");
    }
  }

  /** A user or identity name: an identifier or a string (not a quoted name). */
  private void userName() {
    if (at(TokenKind.QUOTED_NAME)) {
      throw source.error(
          peek(),
          "a user or identity name is an identifier or a string, not a"
              + " quoted name (and users are deprecated: use roles)");
    }
    if (!accept(TokenKind.IDENT) && !accept(TokenKind.STRING)) {
      throw unexpected("a user name (an identifier or a string)");
    }
  }

  // ---- permissions ----

  /** GRANT or REVOKE, after the keyword. */
  final UnsupportedStatement grantOrRevoke(Token first, boolean grant) {
    Keyword to = grant ? Keyword.TO : Keyword.FROM;
    Token t = peek();
    boolean permissionForm =
        (isPermission(t) || t.is(Keyword.ALL))
            && (atAhead(1, Keyword.ON)
                || atAhead(1, TokenKind.COMMA)
                || atAhead(1, Keyword.PERMISSION)
                || atAhead(1, Keyword.PERMISSIONS));
    if (permissionForm) {
      permissions();
      expect(Keyword.ON);
      resource();
      expect(to);
      roleName();
      return unsupported(Kind.PERMISSIONS, grant ? "GRANT" : "REVOKE", first);
    }
    roleName();
    expect(to);
    roleName();
    return unsupported(Kind.ROLES, grant ? "GRANT ROLE" : "REVOKE ROLE", first);
  }

  private static boolean isPermission(Token t) {
    if (t.keyword() == null) {
      return false;
    }
    return switch (t.keyword()) {
      case CREATE,
          ALTER,
          DROP,
          SELECT,
          MODIFY,
          AUTHORIZE,
          DESCRIBE,
          EXECUTE,
          UNMASK,
          SELECT_MASKED ->
          true;
      default -> false;
    };
  }

  private void permissions() {
    if (accept(Keyword.ALL)) {
      accept(Keyword.PERMISSIONS);
      return;
    }
    do {
      if (!isPermission(peek())) {
        throw unexpected(
            "a permission (CREATE, ALTER, DROP, SELECT, MODIFY, AUTHORIZE, DESCRIBE, EXECUTE,"
                + " UNMASK, SELECT_MASKED) or ALL");
      }
      advance();
      accept(Keyword.PERMISSION);
    } while (accept(TokenKind.COMMA));
  }

  private void resource() {
    if (at(Keyword.ALL)) {
      Token next = peek(1);
      if (next.is(Keyword.KEYSPACES) || next.is(Keyword.ROLES) || next.is(Keyword.MBEANS)) {
        advance();
        advance();
        return;
      }
      if (next.is(Keyword.TABLES) || next.is(Keyword.COLUMNFAMILIES)) {
        advance();
        advance();
        expect(Keyword.IN);
        if (!acceptKeyspaceKeyword()) {
          throw unexpected("KEYSPACE");
        }
        keyspaceName();
        return;
      }
      if (next.is(Keyword.FUNCTIONS)) {
        advance();
        advance();
        if (accept(Keyword.IN)) {
          if (!acceptKeyspaceKeyword()) {
            throw unexpected("KEYSPACE");
          }
          keyspaceName();
        }
        return;
      }
    }
    if (acceptKeyspaceKeyword()) {
      keyspaceName();
    } else if (at(Keyword.ROLE) && !atAhead(1, TokenKind.DOT)) {
      advance();
      roleName();
    } else if (at(Keyword.FUNCTION) && !atAhead(1, TokenKind.DOT)) {
      advance();
      functionName();
      typeList(true);
    } else if ((at(Keyword.MBEAN) || at(Keyword.MBEANS)) && atAhead(1, TokenKind.STRING)) {
      advance();
      advance();
    } else {
      acceptTableKeyword();
      qualifiedName("a resource (a table, KEYSPACE ks, ROLE r, FUNCTION f(...) or ALL ...)");
    }
  }

  // ---- functions, aggregates ----

  /** {@code [ks.]name} of a function (no call parenthesis required). */
  final QualifiedName functionName() {
    if (atAhead(1, TokenKind.DOT)) {
      Identifier ks = keyspaceName();
      advance();
      return new QualifiedName(ks, name(NameUse.FUNCTION, "a function name", false));
    }
    return new QualifiedName(null, name(NameUse.FUNCTION, "a function name", false));
  }

  /** {@code (type, ...)}; required or optional. */
  private void typeList(boolean required) {
    if (!required && !at(TokenKind.LPAREN)) {
      return;
    }
    expect(TokenKind.LPAREN);
    if (!at(TokenKind.RPAREN)) {
      do {
        type();
      } while (accept(TokenKind.COMMA));
    }
    expectClosing(TokenKind.RPAREN, "the argument types");
  }

  /** CREATE [OR REPLACE] FUNCTION, after FUNCTION. */
  final UnsupportedStatement createFunction(Token first) {
    ifNotExists();
    functionName();
    expect(TokenKind.LPAREN);
    if (!at(TokenKind.RPAREN)) {
      do {
        name("an argument name");
        type();
      } while (accept(TokenKind.COMMA));
    }
    expectClosing(TokenKind.RPAREN, "the arguments");
    if (accept(Keyword.RETURNS)) {
      expect(Keyword.NULL);
    } else if (!accept(Keyword.CALLED)) {
      throw unexpected("RETURNS NULL ON NULL INPUT or CALLED ON NULL INPUT");
    }
    expect(Keyword.ON);
    expect(Keyword.NULL);
    expect(Keyword.INPUT);
    expect(Keyword.RETURNS);
    type();
    expect(Keyword.LANGUAGE);
    expect(TokenKind.IDENT);
    expect(Keyword.AS);
    expect(TokenKind.STRING);
    return unsupported(Kind.FUNCTIONS, "CREATE FUNCTION", first);
  }

  /** CREATE [OR REPLACE] AGGREGATE, after AGGREGATE. */
  final UnsupportedStatement createAggregate(Token first) {
    ifNotExists();
    functionName();
    typeList(true);
    expect(Keyword.SFUNC);
    name(NameUse.FUNCTION, "the state function", false);
    expect(Keyword.STYPE);
    type();
    if (accept(Keyword.FINALFUNC)) {
      name(NameUse.FUNCTION, "the final function", false);
    }
    if (accept(Keyword.INITCOND)) {
      term();
    }
    return unsupported(Kind.AGGREGATES, "CREATE AGGREGATE", first);
  }

  /** DROP FUNCTION or DROP AGGREGATE, after the keyword. */
  final UnsupportedStatement dropFunctionOrAggregate(Token first, boolean function) {
    ifExists();
    functionName();
    typeList(false);
    return function
        ? unsupported(Kind.FUNCTIONS, "DROP FUNCTION", first)
        : unsupported(Kind.AGGREGATES, "DROP AGGREGATE", first);
  }

  // ---- triggers ----

  final UnsupportedStatement createTrigger(Token first) {
    ifNotExists();
    name("a trigger name");
    expect(Keyword.ON);
    qualifiedName("a table name");
    expect(Keyword.USING);
    expect(TokenKind.STRING);
    return unsupported(Kind.TRIGGERS, "CREATE TRIGGER", first);
  }

  final UnsupportedStatement dropTrigger(Token first) {
    ifExists();
    name("a trigger name");
    expect(Keyword.ON);
    qualifiedName("a table name");
    return unsupported(Kind.TRIGGERS, "DROP TRIGGER", first);
  }

  // ---- materialized views ----

  /** CREATE MATERIALIZED VIEW, after VIEW. */
  final UnsupportedStatement createView(Token first) {
    ifNotExists();
    qualifiedName("a view name");
    expect(Keyword.AS);
    expect(Keyword.SELECT);
    selectItems();
    expect(Keyword.FROM);
    qualifiedName("a table name");
    if (accept(Keyword.WHERE)) {
      whereClause();
    }
    expect(Keyword.PRIMARY);
    expect(Keyword.KEY);
    expect(TokenKind.LPAREN);
    if (accept(TokenKind.LPAREN)) {
      do {
        name("a partition key column");
      } while (accept(TokenKind.COMMA));
      expectClosing(TokenKind.RPAREN, "the partition key");
    } else {
      name("a partition key column");
    }
    while (accept(TokenKind.COMMA)) {
      name("a clustering column");
    }
    expectClosing(TokenKind.RPAREN, "the primary key");
    if (accept(Keyword.WITH)) {
      tableOptions(new TableOptions(), false);
    }
    return unsupported(Kind.MATERIALIZED_VIEWS, "CREATE MATERIALIZED VIEW", first);
  }

  /** ALTER or DROP MATERIALIZED VIEW, after VIEW. */
  final UnsupportedStatement alterOrDropView(Token first, boolean alter) {
    ifExists();
    qualifiedName("a view name");
    if (alter) {
      expect(Keyword.WITH);
      properties();
    }
    return unsupported(
        Kind.MATERIALIZED_VIEWS,
        alter ? "ALTER MATERIALIZED VIEW" : "DROP MATERIALIZED VIEW",
        first);
  }
}
