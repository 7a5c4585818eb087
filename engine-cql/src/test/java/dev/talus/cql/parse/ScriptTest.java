package dev.talus.cql.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.talus.cql.CqlSyntaxException;
import dev.talus.cql.parse.ast.BatchStatement;
import dev.talus.cql.parse.ast.CreateKeyspaceStatement;
import dev.talus.cql.parse.ast.CreateTableStatement;
import dev.talus.cql.parse.ast.InsertStatement;
import dev.talus.cql.parse.ast.SelectStatement;
import dev.talus.cql.parse.ast.UseStatement;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Files of statements: splitting, comments, line numbers relative to the whole file. */
class ScriptTest {
  private static final String SCHEMA =
      "-- the chat schema\n"
          + "CREATE KEYSPACE chat WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n"
          + "USE chat; /* two statements on one line */ SELECT * FROM t;\n"
          + "\n"
          + "CREATE TABLE messages (\n"
          + "  room uuid,        -- the partition; a ';' here is a comment\n"
          + "  body text,        // so is this one;\n"
          + "  PRIMARY KEY (room)\n"
          + ");\n"
          + "INSERT INTO messages (room, body) VALUES (uuid(), 'a;b ''quoted''; $$')\n"
          + ";;\n"
          + "INSERT INTO messages (room, body) VALUES (uuid(), $$x; y$$);\n"
          + "BEGIN BATCH\n"
          + "  INSERT INTO messages (room, body) VALUES (uuid(), 'one');\n"
          + "  INSERT INTO messages (room, body) VALUES (uuid(), 'two');\n"
          + "APPLY BATCH;\n"
          + "SELECT \"semi;colon\" FROM messages -- no final semicolon";

  @Test
  void parsesEveryStatementWithItsStartingLine() {
    List<ParsedStatement> statements = CqlScript.parse(SCHEMA);
    assertThat(statements)
        .extracting(p -> p.statement().getClass().getSimpleName())
        .containsExactly(
            CreateKeyspaceStatement.class.getSimpleName(),
            UseStatement.class.getSimpleName(),
            SelectStatement.class.getSimpleName(),
            CreateTableStatement.class.getSimpleName(),
            InsertStatement.class.getSimpleName(),
            InsertStatement.class.getSimpleName(),
            BatchStatement.class.getSimpleName(),
            SelectStatement.class.getSimpleName());
    assertThat(statements)
        .extracting(ParsedStatement::line)
        .containsExactly(2, 3, 3, 5, 10, 12, 13, 17);
    assertThat(statements.get(2).column()).isEqualTo(44);
    assertThat(statements.get(1).text()).isEqualTo("USE chat");
    assertThat(statements.get(3).text())
        .startsWith("CREATE TABLE messages (")
        .endsWith("PRIMARY KEY (room)\n)");
    assertThat(((BatchStatement) statements.get(6).statement()).statements()).hasSize(2);
    assertThat(statements.get(7).text()).isEqualTo("SELECT \"semi;colon\" FROM messages");
  }

  @Test
  void splitCutsTheSameStatementsWithoutParsing() {
    List<CqlScript.Piece> pieces = CqlScript.split(SCHEMA);
    assertThat(pieces)
        .extracting(CqlScript.Piece::line)
        .containsExactly(2, 3, 3, 5, 10, 12, 13, 17);
    assertThat(pieces.get(6).text()).startsWith("BEGIN BATCH").endsWith("APPLY BATCH");
    List<ParsedStatement> parsed = CqlScript.parse(SCHEMA);
    for (int i = 0; i < pieces.size(); i++) {
      assertThat(pieces.get(i).text()).isEqualTo(parsed.get(i).text());
      assertThat(CqlParser.parse(pieces.get(i).text()).statement())
          .isEqualTo(parsed.get(i).statement());
    }
    // split does not parse: a bad statement is still cut out
    assertThat(CqlScript.split("SELECT FROM; DROP TABLE t")).hasSize(2);
  }

  @Test
  void errorsCarryTheLineAndColumnInTheWholeFile() {
    String script = "USE ks;\n\nSELECT * FROM t;\nSELECT a b c FROM t;\nDROP TABLE t;";
    CqlSyntaxException e =
        catchThrowableOfType(CqlSyntaxException.class, () -> CqlScript.parse(script));
    assertThat(e.line()).isEqualTo(4);
    assertThat(e.column()).isEqualTo(10);
    assertThat(e.token()).isEqualTo("b");
    assertThat(e.getMessage())
        .isEqualTo(
            "line 4:10: unexpected 'b'; expected FROM\n  SELECT a b c FROM t;\n           ^");
  }

  @Test
  void statementsMustBeSeparatedBySemicolons() {
    CqlSyntaxException e =
        catchThrowableOfType(
            CqlSyntaxException.class, () -> CqlScript.parse("USE ks\nSELECT * FROM t"));
    assertThat(e.line()).isEqualTo(2);
    assertThat(e.reason())
        .isEqualTo("unexpected reserved keyword SELECT; expected ';' or the end of the statement");
  }

  @Test
  void emptyScriptsAndCommentOnlyScriptsHaveNoStatements() {
    assertThat(CqlScript.parse("")).isEmpty();
    assertThat(CqlScript.parse("  -- nothing\n/* at all */ ;;\n")).isEmpty();
    assertThat(CqlScript.split("-- x\n;")).isEmpty();
  }

  @Test
  void aLexicalErrorAnywhereFailsTheSplit() {
    CqlSyntaxException e =
        catchThrowableOfType(
            CqlSyntaxException.class, () -> CqlScript.split("USE a;\nSELECT 'x FROM t;"));
    assertThat(e.line()).isEqualTo(2);
    assertThat(e.column()).isEqualTo(8);
  }
}
