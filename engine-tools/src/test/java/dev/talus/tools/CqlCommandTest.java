package dev.talus.tools;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.cql.TalusSession;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code talus cql}: statements from -e, -f and standard input, printed as cqlsh prints them. */
class CqlCommandTest {
  private static final String KEYSPACE =
      "CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};";

  @TempDir Path dir;

  @Test
  void executeRunsStatementsAndPrintsRowsAsATable() {
    Cli.Result r =
        Cli.run(
            "cql",
            dir.toString(),
            "-e",
            KEYSPACE
                + " USE shop; CREATE TABLE items (id int PRIMARY KEY, name text);"
                + " INSERT INTO items (id, name) VALUES (1, 'apple');"
                + " INSERT INTO items (id, name) VALUES (22, 'kiwi');"
                + " SELECT id, name FROM items WHERE id IN (1, 22);");
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.out())
        .contains(" id | name \n----+-------\n  1 | apple\n 22 |  kiwi\n\n(2 rows)\n");
    assertThat(r.err()).isEmpty();
  }

  @Test
  void aSchemaFileRunsStatementByStatementAndItsDataOutlivesTheShell() throws IOException {
    Path schema = dir.resolve("schema.cql");
    Files.writeString(
        schema,
        KEYSPACE
            + "\n-- the catalogue; a comment with a ;\n"
            + "CREATE TABLE shop.items (\n  id int PRIMARY KEY,\n  name text  // trailing ;\n);\n"
            + "BEGIN BATCH\n"
            + "  INSERT INTO shop.items (id, name) VALUES (1, 'a; b');\n"
            + "  INSERT INTO shop.items (id, name) VALUES (2, 'it''s');\n"
            + "APPLY BATCH;\n");
    Path data = dir.resolve("data");
    Cli.Result r = Cli.run("cql", data.toString(), "-f", schema.toString());
    assertThat(r.exitCode()).as(r.toString()).isZero();
    Cli.Result read =
        Cli.run("cql", data.toString(), "-k", "shop", "-e", "SELECT name FROM items WHERE id = 2;");
    assertThat(read.exitCode()).as(read.toString()).isZero();
    assertThat(read.out()).contains(" name\n------\n it's\n\n(1 row)");
    Cli.Result describe = Cli.run("cql", data.toString(), "-e", "DESCRIBE TABLE shop.items;");
    assertThat(describe.out()).contains("CREATE TABLE shop.items (").contains("id int PRIMARY KEY");
  }

  @Test
  void theFirstErrorStopsAFileWithItsLineAndCassandrasCode() throws IOException {
    Path script = dir.resolve("bad.cql");
    Files.writeString(
        script,
        KEYSPACE
            + "\nCREATE TABLE shop.t (k int PRIMARY KEY, v int);\n"
            + "SELECT * FROM shop.t WHERE v = 1;\n"
            + "CREATE TABLE shop.never (k int PRIMARY KEY);\n");
    Path data = dir.resolve("data");
    Cli.Result r = Cli.run("cql", data.toString(), "-f", script.toString());
    assertThat(r.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(r.err())
        .contains(script + ":3:InvalidRequest: Error from server: code=2200 [Invalid query]")
        .contains("ALLOW FILTERING");
    Cli.Result tables = Cli.run("cql", data.toString(), "-e", "DESCRIBE TABLES;");
    assertThat(tables.out()).contains("t").doesNotContain("never");
  }

  @Test
  void syntaxErrorsAndUnknownTablesAreReportedAsCqlshDoes() {
    Cli.Result syntax = Cli.run("cql", dir.toString(), "-e", "SELEC * FROM t;");
    assertThat(syntax.exitCode()).isEqualTo(ExitCodes.ERROR);
    assertThat(syntax.err()).startsWith("SyntaxException: ");
    Cli.Result unknown = Cli.run("cql", dir.toString(), "-e", "SELECT * FROM nowhere.t;");
    assertThat(unknown.err()).contains("InvalidRequest: Error from server: code=2200");
    Cli.Result both = Cli.run("cql", dir.toString(), "-e", "USE a;", "-f", "x.cql");
    assertThat(both.exitCode()).isEqualTo(ExitCodes.USAGE);
  }

  private static String interact(TalusDb db, String input) throws IOException {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CqlShell shell =
        new CqlShell(TalusSession.on(db), new PrintWriter(out), new PrintWriter(err), true);
    shell.run(new BufferedReader(new StringReader(input)), "", false);
    return out + "\n--- err\n" + err;
  }

  @Test
  void theInteractiveShellPromptsGoesOnAfterErrorsAndStopsAtExit() throws IOException {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).build())) {
      String session =
          interact(
              db,
              KEYSPACE
                  + "\nUSE shop;\nCREATE TABLE t (k int PRIMARY KEY, v text);\n"
                  + "SELECT * FROM missing;\n"
                  + "INSERT INTO t (k, v)\n VALUES (1, 'x');\n"
                  + "CONSISTENCY QUORUM\n"
                  + "exit\n"
                  + "INSERT INTO t (k, v) VALUES (2, 'never');\n");
      assertThat(session)
          .contains("talus> ")
          .contains("talus:shop> ")
          .contains("   ... ")
          .contains("Consistency level set to QUORUM.")
          .contains("code=2200");
      assertThat(TalusSession.on(db).execute("SELECT k FROM shop.t").size()).isEqualTo(1);
    }
  }

  @Test
  void sourceRunsAFileInTheSameSession() throws IOException {
    Path file = dir.resolve("more.cql");
    Files.writeString(
        file, "CREATE TABLE s2 (k int PRIMARY KEY);\nINSERT INTO s2 (k) VALUES (5);\n");
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir.resolve("d")).build())) {
      String session =
          interact(db, KEYSPACE + "\nUSE shop;\nSOURCE '" + file + "'\nSELECT k FROM s2;\n");
      assertThat(session).contains(" k\n---\n 5\n\n(1 row)");
    }
  }

  @Test
  void anInputEndingInsideAStatementIsAnError() throws IOException {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).build())) {
      assertThat(interact(db, "SELECT * FROM t WHERE k = 1"))
          .contains("the input ends inside a statement (a ';' is missing): SELECT * FROM t");
    }
  }

  @Test
  void valuesPrintAsCqlshShowsThem() {
    assertThat(CqlTable.format("it's", false)).isEqualTo("it's");
    assertThat(CqlTable.format(List.of("a", "it's"), false)).isEqualTo("['a', 'it''s']");
    assertThat(CqlTable.format(Set.of(3), false)).isEqualTo("{3}");
    assertThat(CqlTable.format(Map.of("k", List.of(1, 2)), false)).isEqualTo("{'k': [1, 2]}");
    assertThat(CqlTable.format(Instant.parse("2026-09-01T10:00:00.123456Z"), false))
        .isEqualTo("2026-09-01 10:00:00.123456+0000");
    assertThat(CqlTable.format(new byte[] {0x0a, (byte) 0xff}, false)).isEqualTo("0x0aff");
    assertThat(CqlTable.format(null, false)).isEqualTo("null");
    assertThat(CqlTable.format(new float[] {1.5f, 2f}, false)).isEqualTo("[1.5, 2.0]");
  }

  private static String interact(TalusDb db, CqlShell.Lines lines, StringWriter out)
      throws IOException {
    StringWriter err = new StringWriter();
    CqlShell shell =
        new CqlShell(TalusSession.on(db), new PrintWriter(out), new PrintWriter(err), true);
    shell.run(lines, "", false);
    return out + "\n--- err\n" + err;
  }

  @Test
  void aTerminalPagesRowsAndExpandPrintsAColumnPerLine() throws IOException {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).build())) {
      TalusSession cql = TalusSession.on(db);
      cql.execute(KEYSPACE);
      cql.execute("CREATE TABLE shop.n (p int, c int, v text, PRIMARY KEY (p, c))");
      for (int i = 0; i < 5; i++) {
        cql.execute("INSERT INTO shop.n (p, c, v) VALUES (1, ?, ?)", i, "v" + i);
      }
      java.util.Deque<String> typed =
          new java.util.ArrayDeque<>(
              List.of(
                  "PAGING 2",
                  "SELECT c FROM shop.n WHERE p = 1;",
                  "", // Enter at the first ---MORE---
                  "q", // q at the second: the last row is not shown
                  "PAGING OFF",
                  "EXPAND ON",
                  "SELECT c, v FROM shop.n WHERE p = 1 AND c = 3;"));
      List<String> prompts = new java.util.ArrayList<>();
      StringWriter out = new StringWriter();
      String session =
          interact(
              db,
              prompt -> {
                prompts.add(prompt);
                return typed.poll();
              },
              out);
      assertThat(prompts.stream().filter(p -> p.equals("---MORE---")).count()).isEqualTo(2);
      assertThat(session)
          .contains("Page size: 2")
          .contains(" c\n---\n 0\n 1\n")
          .contains(" c\n---\n 2\n 3\n")
          .doesNotContain(" 4\n")
          .contains("(5 rows)")
          .contains("Disabled Query paging.")
          .contains("Now Expanded output is enabled")
          .contains("@ Row 1\n---+----\n c | 3\n v | v3\n");
    }
  }

  @Test
  void theLineEditorKeepsAHistoryFileAndEndsAtEndOfInput() throws IOException {
    Path history = dir.resolve("home/.talus/cql_history");
    byte[] keys = (KEYSPACE + "\nUSE shop;\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir.resolve("d")).build());
        LineEditor editor =
            LineEditor.onStreams(
                new java.io.ByteArrayInputStream(keys),
                new java.io.ByteArrayOutputStream(),
                history)) {
      StringWriter out = new StringWriter();
      interact(db, editor, out);
      assertThat(TalusSession.on(db).execute("DESCRIBE KEYSPACES").rows())
          .anyMatch(r -> "shop".equals(r.get("name")));
    }
    assertThat(Files.readString(history)).contains("USE shop;").contains("CREATE KEYSPACE shop");
  }
}
