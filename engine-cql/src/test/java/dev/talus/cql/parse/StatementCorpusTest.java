package dev.talus.cql.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every statement form of the corpus ({@code statements.txt}): it parses, prints as the expected
 * canonical CQL (whitespace-insensitive), and the print parses back to an equal tree.
 *
 * <p>Corpus format: one statement per line; an optional following line {@code => canonical} gives
 * the expected print when it differs from the input; {@code #} starts a comment line.
 */
class StatementCorpusTest {

  static List<Arguments> corpus() throws IOException {
    List<Arguments> cases = new ArrayList<>();
    try (InputStream in = StatementCorpusTest.class.getResourceAsStream("statements.txt")) {
      String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n");
      for (int i = 0; i < lines.length; i++) {
        String line = lines[i].strip();
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        String expected = line;
        if (i + 1 < lines.length && lines[i + 1].strip().startsWith("=> ")) {
          expected = lines[++i].strip().substring(3);
        }
        cases.add(Arguments.of(i + 1, line, expected));
      }
    }
    return cases;
  }

  @ParameterizedTest(name = "line {0}: {1}")
  @MethodSource("corpus")
  void parsesPrintsCanonicallyAndReparsesEqual(int line, String input, String expected) {
    String printed = Cql.roundTrip(input);
    assertThat(Cql.normalize(printed)).isEqualTo(Cql.normalize(expected));
  }

  @org.junit.jupiter.api.Test
  void theCorpusCoversEveryStatementKind() throws IOException {
    java.util.Set<String> kinds = new java.util.TreeSet<>();
    for (Arguments a : corpus()) {
      kinds.add(Cql.parse((String) a.get()[1]).getClass().getSimpleName());
    }
    java.util.Set<String> all = new java.util.TreeSet<>();
    for (Class<?> c : dev.talus.cql.parse.ast.RawStatement.class.getPermittedSubclasses()) {
      if (c.isInterface()) {
        for (Class<?> sub : c.getPermittedSubclasses()) {
          all.add(sub.getSimpleName());
        }
      } else {
        all.add(c.getSimpleName());
      }
    }
    assertThat(kinds).containsAll(all);
  }
}
