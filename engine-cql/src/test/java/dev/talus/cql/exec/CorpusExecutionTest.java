package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The parser's statement corpus (every statement form of Cassandra 5.0's CQL), executed in order
 * over a few tables: each statement ends in a result or a typed error, and which one is checked
 * against {@code corpus-outcomes.txt}, so that what runs, what is refused as not yet supported and
 * what is refused for good is written down and cannot change unnoticed.
 */
class CorpusExecutionTest {
  @TempDir Path dir;

  static String resource(String name) throws IOException {
    try (InputStream in = CorpusExecutionTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** Statements that change or empty the corpus tables the later statements rely on. */
  private static final java.util.regex.Pattern SCHEMA_CHANGE =
      java.util.regex.Pattern.compile(
          "^(ALTER (TABLE|COLUMNFAMILY)|DROP (TABLE|KEYSPACE|SCHEMA)|TRUNCATE)\\b",
          java.util.regex.Pattern.CASE_INSENSITIVE);

  /**
   * Creates again the keyspace (after a DROP KEYSPACE) and drops and creates again every table of
   * corpus-schema.cql, as the corpus expects them.
   */
  private static void restoreTables(CqlDb t) throws IOException {
    dev.talus.cql.TalusSession noKeyspace = dev.talus.cql.TalusSession.on(t.db); // not ks after USE
    for (String stmt : resource("corpus-schema.cql").split(";")) {
      String create = stmt.replaceAll("(?m)^--.*$", "").trim();
      if (create.startsWith("CREATE KEYSPACE ")) {
        noKeyspace.execute(create.replace("CREATE KEYSPACE ", "CREATE KEYSPACE IF NOT EXISTS "));
      }
      if (create.startsWith("CREATE TABLE")) {
        String name = create.substring("CREATE TABLE ".length()).split("[ (]")[0];
        t.db.dropTableIfExists(name.contains(".") ? name : "talus." + name);
        noKeyspace.execute(create);
      }
    }
  }

  @Test
  void everyCorpusStatementRunsOrFailsWithATypedError() throws IOException {
    List<String> statements = new ArrayList<>();
    for (String line : resource("/dev/talus/cql/parse/statements.txt").split("\n")) {
      if (!line.isBlank() && !line.startsWith("#") && !line.startsWith("=>")) {
        statements.add(line);
      }
    }
    List<String> outcomes = new ArrayList<>();
    try (CqlDb t = new CqlDb(dir)) {
      t.cql.executeScript(resource("corpus-schema.cql"));
      for (String s : statements) {
        String outcome = Outcomes.run(t.cql, s);
        outcomes.add(outcome + "\t" + s);
        if (outcome.equals("OK") && SCHEMA_CHANGE.matcher(s).find()) {
          restoreTables(t);
        }
      }
    }
    String out = System.getProperty("talus.cql.outcomes.write");
    if (out != null) {
      // -Dtalus.cql.outcomes.write=FILE writes the outcomes, to review and check in
      java.nio.file.Files.writeString(Path.of(out), String.join("\n", outcomes) + "\n");
    }
    String expected = resource("corpus-outcomes.txt");
    assertThat(String.join("\n", outcomes) + "\n").isEqualTo(expected);
    assertThat(outcomes).noneMatch(o -> o.startsWith("TALUS"));
  }
}
