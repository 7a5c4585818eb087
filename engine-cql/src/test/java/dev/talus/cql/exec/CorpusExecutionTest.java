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
        outcomes.add(Outcomes.run(t.cql, s) + "\t" + s);
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
