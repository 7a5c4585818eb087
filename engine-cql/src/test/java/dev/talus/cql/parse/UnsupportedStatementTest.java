package dev.talus.cql.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.cql.parse.ast.UnsupportedStatement;
import dev.talus.cql.parse.ast.UnsupportedStatement.Kind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The statements Talus will never run parse to a node that says what they are and why Talus refuses
 * them; a mistake in one is still a syntax error.
 */
class UnsupportedStatementTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "CREATE ROLE r WITH LOGIN = true | ROLES | CREATE ROLE",
        "ALTER ROLE r WITH SUPERUSER = false | ROLES | ALTER ROLE",
        "DROP ROLE r | ROLES | DROP ROLE",
        "GRANT a TO b | ROLES | GRANT ROLE",
        "REVOKE a FROM b | ROLES | REVOKE ROLE",
        "LIST ROLES | ROLES | LIST ROLES",
        "CREATE USER u WITH PASSWORD 'p' | ROLES | CREATE USER",
        "ALTER USER u SUPERUSER | ROLES | ALTER USER",
        "DROP USER u | ROLES | DROP USER",
        "LIST USERS | ROLES | LIST USERS",
        "LIST SUPERUSERS | ROLES | LIST SUPERUSERS",
        "ADD IDENTITY 'id' TO ROLE r | ROLES | ADD IDENTITY",
        "DROP IDENTITY 'id' | ROLES | DROP IDENTITY",
        "GRANT SELECT ON ks.t TO r | PERMISSIONS | GRANT",
        "GRANT all ON ALL KEYSPACES TO r | PERMISSIONS | GRANT",
        "REVOKE MODIFY ON KEYSPACE ks FROM r | PERMISSIONS | REVOKE",
        "LIST ALL PERMISSIONS OF r | PERMISSIONS | LIST PERMISSIONS",
        "CREATE MATERIALIZED VIEW v AS SELECT * FROM t WHERE a IS NOT NULL PRIMARY KEY (a) | MATERIALIZED_VIEWS | CREATE MATERIALIZED VIEW",
        "ALTER MATERIALIZED VIEW v WITH comment = 'x' | MATERIALIZED_VIEWS | ALTER MATERIALIZED VIEW",
        "DROP MATERIALIZED VIEW v | MATERIALIZED_VIEWS | DROP MATERIALIZED VIEW",
        "CREATE FUNCTION f () CALLED ON NULL INPUT RETURNS int LANGUAGE java AS 'return 1;' | FUNCTIONS | CREATE FUNCTION",
        "DROP FUNCTION f | FUNCTIONS | DROP FUNCTION",
        "CREATE AGGREGATE a (int) SFUNC s STYPE int | AGGREGATES | CREATE AGGREGATE",
        "DROP AGGREGATE a | AGGREGATES | DROP AGGREGATE",
        "CREATE TRIGGER tr ON t USING 'c' | TRIGGERS | CREATE TRIGGER",
        "DROP TRIGGER tr ON t | TRIGGERS | DROP TRIGGER",
      })
  void recognisedAndRefusedWithAReason(String cql, Kind kind, String statement) {
    UnsupportedStatement s = Cql.parse(cql + ";", UnsupportedStatement.class);
    assertThat(s.kind()).isEqualTo(kind);
    assertThat(s.statement()).isEqualTo(statement);
    assertThat(s.text()).isEqualTo(cql);
    assertThat(s.refusal()).startsWith(statement + " is not supported by Talus: ");
    assertThat(s.refusal().length()).isGreaterThan(statement.length() + 60);
    assertThat(CqlPrinter.print(s)).isEqualTo(cql);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "CREATE ROLE r WITH PASSWORD 'x' | 1:29 | expected '='",
        "GRANT SELECT ON ks.t bob | 1:22 | expected TO",
        "GRANT SELCT ON ks.t TO bob | 1:13 | expected TO",
        "CREATE MATERIALIZED VIEW v AS SELECT * FROM t | 1:46 | expected PRIMARY",
        "CREATE MATERIALIZED VIEW v AS SELECT * FROM t PRIMARY KEY (a) WITH COMPACT STORAGE | 1:68 | COMPACT STORAGE is not allowed",
        "CREATE FUNCTION f () RETURNS int LANGUAGE java AS 'x' | 1:30 | expected NULL",
        "CREATE TRIGGER t ON x USING y | 1:29 | expected a string",
        "CREATE USER \"u\" | 1:13 | not a quoted name",
      })
  void aMistakeInsideOneIsStillASyntaxError(String cql, String at, String message) {
    var e = Cql.error(cql);
    assertThat(e.line() + ":" + e.column()).isEqualTo(at);
    assertThat(e.reason()).contains(message);
  }
}
