package dev.talus.cql.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.talus.cql.CqlSyntaxException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The examples of docs/cql.md: every {@code cql} block is a script that parses, and every {@code
 * cql-invalid} block fails with exactly the message of the {@code text} block that follows it.
 */
class CqlDocsTest {
  private static final Pattern BLOCK = Pattern.compile("```([\\w-]*)\\n(.*?)```", Pattern.DOTALL);

  private static String doc() throws IOException {
    return Files.readString(Path.of("..", "docs", "cql.md"));
  }

  @Test
  void everyCqlExampleParses() throws IOException {
    Matcher m = BLOCK.matcher(doc());
    int blocks = 0;
    int statements = 0;
    while (m.find()) {
      if (m.group(1).equals("cql")) {
        List<ParsedStatement> parsed = CqlScript.parse(m.group(2));
        assertThat(parsed).as(m.group(2)).isNotEmpty();
        for (ParsedStatement p : parsed) {
          if (!(p.statement() instanceof dev.talus.cql.parse.ast.UnsupportedStatement)) {
            Cql.roundTrip(p.text());
          }
        }
        blocks++;
        statements += parsed.size();
      }
    }
    assertThat(blocks).isGreaterThanOrEqualTo(10);
    assertThat(statements).isGreaterThanOrEqualTo(50);
  }

  @Test
  void everyErrorExampleGivesExactlyTheMessageShown() throws IOException {
    Matcher m = BLOCK.matcher(doc());
    int examples = 0;
    while (m.find()) {
      if (m.group(1).equals("cql-invalid")) {
        String cql = m.group(2);
        assertThat(m.find()).isTrue();
        assertThat(m.group(1)).isEqualTo("text");
        String expected = m.group(2).stripTrailing();
        CqlSyntaxException e =
            catchThrowableOfType(CqlSyntaxException.class, () -> CqlScript.parse(cql));
        assertThat(e).as(cql).isNotNull();
        assertThat(e.getMessage()).isEqualTo(expected);
        examples++;
      }
    }
    assertThat(examples).isGreaterThanOrEqualTo(4);
  }
}
