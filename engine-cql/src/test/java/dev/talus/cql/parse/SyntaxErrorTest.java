package dev.talus.cql.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.cql.CqlSyntaxException;
import dev.talus.cql.parse.ast.SelectStatement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Typical mistakes: each error names the line, the column and the token, and says what to do. */
class SyntaxErrorTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        // statement | line:column | token | part of the reason
        "SELECT FROM t | 1:8 | FROM | expected a selector",
        "SELECT a, FROM t | 1:11 | FROM | FROM is reserved: to use it as a name, quote it: \"from\"",
        "SELECT * FORM t | 1:10 | FORM | expected FROM",
        "SELECT * FROM t WHERE | 1:22 | `` | unexpected end of input; expected a column name",
        "SELECT * FROM t WHERE a = 1 AND | 1:32 | `` | unexpected end of input",
        "SELECT * FROM t WHERE name = \"alice\" | 1:30 | \"alice\" | string values take single quotes: 'alice'",
        "SELECT * FROM t WHERE a <> 1 | 1:26 | > | not equal is written !=",
        "SELECT * FROM t WHERE a == 1 | 1:26 | = | expected a term",
        "SELECT * FROM t LIMIT 10 WHERE a = 1 | 1:26 | WHERE | the clauses of SELECT come in this order",
        "SELECT * FROM t ALLOW FILTERING LIMIT 5 | 1:33 | LIMIT | the clauses of SELECT come in this order",
        "SELECT * FROM t LIMIT -- a comment\\n'ten' | 2:1 | 'ten' | expected the limit, an integer or a bind marker",
        "SELECT * FROM t WHERE a = 1 ORDER c | 1:35 | c | expected BY",
        "SELECT * FROM t WHERE a IN 1, 2 | 1:28 | 1 | expected '(' or a bind marker after IN",
        "SELECT * FROM t WHERE a IN (1, 2 | 1:33 | `` | expected ',' or ')' to close the IN list",
        "SELECT * FROM t WHERE a = [1, 2 | 1:32 | `` | expected ',' or ']' to close a list",
        "SELECT * FROM t WHERE (a, b) > 1 | 1:32 | 1 | expected a tuple (x, y, ...) or a bind marker",
        "SELECT * FROM t WHERE a | 1:24 | `` | expected an operator",
        "SELECT * FROM select | 1:15 | select | SELECT is reserved",
        "INSERT INTO t VALUES (1) | 1:15 | VALUES | expected '(' and the column names, or JSON",
        "INSERT INTO t (a, b) VALUES (1 2) | 1:32 | 2 | expected ',' or ')' to close the values",
        "INSERT INTO t (a) VALUE (1) | 1:19 | VALUE | expected VALUES",
        "INSERT INTO t (a) VALUES (1) IF EXISTS | 1:33 | EXISTS | expected NOT",
        "INSERT INTO t (a) VALUES (1) USING TTL 'x' | 1:40 | 'x' | expected the time to live",
        "UPDATE t SET a = 1 | 1:19 | `` | an UPDATE names its rows with a WHERE clause",
        "UPDATE t SET a = 1 AND b = 2 WHERE k = 1 | 1:20 | AND | expected ',' or WHERE",
        "UPDATE t SET WHERE k = 1 | 1:14 | WHERE | expected a column name",
        "DELETE FROM t | 1:14 | `` | a DELETE names its rows with a WHERE clause",
        "DELETE a b FROM t WHERE k = 1 | 1:10 | b | expected FROM",
        "CREATE TABLE t (a int b text) | 1:23 | b | expected ',' or ')' to close the column definitions",
        "CREATE TABLE t (a int, PRIMARY KEY a) | 1:36 | a | expected '('",
        "CREATE TABLE t (a int, PRIMARY KEY (a)) WITH CLUSTERING ORDER BY (a) | 1:68 | ) | expected ASC or DESC",
        "CREATE TABLE t (a map<text, int) | 1:32 | ) | expected '>'",
        "CREATE TABLE t (a int PRIMARY KEY) WITH gc_grace_seconds 10 | 1:58 | 10 | expected '='",
        "CREATE KEYSPACE ks | 1:19 | `` | expected WITH",
        "CREATE TABEL t (a int) | 1:8 | TABEL | expected KEYSPACE, TABLE, INDEX",
        "DROP TABLE | 1:11 | `` | expected a table name",
        "BEGIN BATCH INSERT INTO t (a) VALUES (1); | 1:42 | `` | expected ';', INSERT, UPDATE, DELETE or APPLY BATCH",
        "SELEC * FROM t | 1:1 | SELEC | expected a statement",
        "CONSISTENCY QUORUM | 1:1 | CONSISTENCY | is a cqlsh shell command, not CQL",
        "; SELECT * FROM t | 1:1 | ; | expected a statement",
        "SELECT * FROM t; SELECT * FROM t | 1:18 | SELECT | expected ';' or the end of the statement",
        "DESCRIBE | 1:9 | `` | expected what to describe",
        "SELECT * FROM ks. | 1:18 | `` | expected a table name",
      })
  void typicalMistakes(String cql, String at, String token, String reason) {
    CqlSyntaxException e = Cql.error(cql.replace("\\n", "\n"));
    assertThat(e.line() + ":" + e.column()).as(e.getMessage()).isEqualTo(at);
    assertThat(e.token()).isEqualTo(token);
    assertThat(e.reason()).contains(reason);
  }

  @Test
  void theMessageShowsTheLineWithACaretUnderTheToken() {
    CqlSyntaxException e = Cql.error("SELECT name\nFROM users\nWHERE name = \"alice\"");
    assertThat(e.getMessage())
        .isEqualTo(
            "line 3:14: unexpected '\"alice\"'; expected a term (a constant, NULL, a bind marker, a"
                + " collection, a tuple or a function call) (\"alice\" is a quoted name; string"
                + " values take single quotes: 'alice')\n"
                + "  WHERE name = \"alice\"\n"
                + "               ^^^^^^^");
  }

  @Test
  void ofTwoReadingsOfSelectJsonTheErrorIsTheOneThatGotFurther() {
    // JSON as a modifier reads on to the second comma; as a column it stops at "a"
    CqlSyntaxException e = Cql.error("SELECT JSON a,, b FROM t");
    assertThat(e.column()).isEqualTo(15);
    assertThat(Cql.parse("SELECT JSON a, b FROM t", SelectStatement.class).json()).isTrue();
  }

  @Test
  void deepNestingIsASyntaxErrorNotAStackOverflow() {
    int depth = 100_000;
    for (String open : new String[] {"(", "[", "{", "f(", "- ", "(int) "}) {
      String cql = "SELECT " + open.repeat(depth) + "1 FROM t";
      CqlSyntaxException e = Cql.error(cql);
      assertThat(e.reason()).as(open).contains("nests more than 100 levels");
    }
    String where = "SELECT * FROM t WHERE " + "(".repeat(depth) + "a = 1";
    assertThat(Cql.error(where).reason()).contains("nests more than 100 levels");
    String value = "INSERT INTO t (a) VALUES (" + "[".repeat(depth) + ")";
    assertThat(Cql.error(value).reason()).contains("nests more than 100 levels");
    String type = "CREATE TABLE t (a " + "frozen<".repeat(depth) + "int)";
    assertThat(Cql.error(type).reason()).contains("nests more than 100 levels");
    // 100 levels is fine
    String ok = "SELECT * FROM t WHERE a = " + "[".repeat(95) + "]".repeat(95);
    Cql.roundTrip(ok);
  }
}
