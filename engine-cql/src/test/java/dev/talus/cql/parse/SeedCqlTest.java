package dev.talus.cql.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.cql.CqlSyntaxException;
import dev.talus.cql.parse.ast.CreateTableStatement;
import dev.talus.cql.parse.ast.PrimaryKey;
import dev.talus.cql.parse.ast.RawStatement;
import dev.talus.cql.parse.ast.SelectStatement;
import dev.talus.cql.parse.ast.UnsupportedStatement;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CQL of the seed documents and of docs/data-modeling.md parses: whole statements (the script
 * {@code seed-statements.cql}, extracted from the seeds), and the fragments they quote inside
 * sentences, completed into statements. The two things the seeds write that are not CQL are refused
 * with a helpful error.
 */
class SeedCqlTest {

  private static String resource(String name) throws IOException {
    try (InputStream in = SeedCqlTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void everySeedStatementParsesAndRoundTrips() throws IOException {
    List<ParsedStatement> statements = CqlScript.parse(resource("seed-statements.cql"));
    assertThat(statements).hasSize(30);
    long tables =
        statements.stream().filter(p -> p.statement() instanceof CreateTableStatement).count();
    assertThat(tables).isEqualTo(14);
    for (ParsedStatement p : statements) {
      if (!(p.statement() instanceof UnsupportedStatement)) {
        Cql.roundTrip(p.text());
      }
    }
    // the materialized view is recognised, and refused with advice
    UnsupportedStatement mv =
        (UnsupportedStatement) statements.get(statements.size() - 5).statement();
    assertThat(mv.kind()).isEqualTo(UnsupportedStatement.Kind.MATERIALIZED_VIEWS);
  }

  @Test
  void theSeedsPrimaryKeyExampleMeansWhatItSays() throws IOException {
    CreateTableStatement messages =
        (CreateTableStatement) CqlScript.parse(resource("seed-statements.cql")).get(5).statement();
    PrimaryKey key = messages.primaryKeys().get(0);
    assertThat(key.partitionKey()).extracting(i -> i.name()).containsExactly("room_id");
    assertThat(key.clustering()).extracting(i -> i.name()).containsExactly("sent_at", "message_id");
  }

  /** Primary keys the seeds quote in sentences, each completed into a table. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "PRIMARY KEY ((conversation_id), sent_at)",
        "PRIMARY KEY ((room_id), sent_at, message_id)",
        "PRIMARY KEY ((sensor_id), reading_time)",
        "PRIMARY KEY ((country), user_id)",
        "PRIMARY KEY ((customer_id), event_time)",
        "PRIMARY KEY ((customer_id, bucket), event_id)",
        "PRIMARY KEY ((room_id, bucket), sent_at, message_id)",
      })
  void quotedPrimaryKeys(String fragment) {
    CreateTableStatement t =
        Cql.parse("CREATE TABLE t (x int, " + fragment + ")", CreateTableStatement.class);
    assertThat(t.primaryKeys()).hasSize(1);
  }

  /** WHERE clauses the seeds quote in sentences, each completed into a query. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "WHERE conversation_id = ?",
        "WHERE conversation_id = ? AND sent_at > ? LIMIT 50",
        "WHERE sender_id = ?",
        "WHERE room_id=? AND sent_at=?",
        "WHERE room_id=? AND sent_at>? AND sent_at<?",
        "WHERE room_id=? AND message_id=?",
      })
  void quotedWhereClauses(String fragment) {
    assertThat(Cql.parse("SELECT * FROM t " + fragment, SelectStatement.class).where())
        .isNotEmpty();
  }

  @Test
  void whatTheSeedsWriteThatIsNotCql() {
    // an elided column list
    CqlSyntaxException elided =
        Cql.error(
            "CREATE TABLE messages (...)\n  WITH CLUSTERING ORDER BY (sent_at DESC, message_id DESC);");
    assertThat(elided.line()).isEqualTo(1);
    assertThat(elided.column()).isEqualTo(24);
    assertThat(elided.token()).isEqualTo("..");
    // a cqlsh shell command
    assertThat(Cql.error("CONSISTENCY LOCAL_QUORUM;").reason())
        .contains("CONSISTENCY is a cqlsh shell command, not CQL");
  }

  @Test
  void theCqlOfDocsDataModelingParses() throws IOException {
    String doc = Files.readString(Path.of("..", "docs", "data-modeling.md"));
    List<String> fragments = new ArrayList<>();
    Matcher block = Pattern.compile("```(\\w*)\\n(.*?)```", Pattern.DOTALL).matcher(doc);
    while (block.find()) {
      if (block.group(1).equals("java")) {
        continue;
      }
      for (String line : block.group(2).split("\n")) {
        String l = line.strip();
        if (l.matches("(?i)^(CREATE|SELECT|INSERT|UPDATE|DELETE|ALTER|DROP|PRIMARY KEY)\\b.*")) {
          fragments.add(l);
        }
      }
    }
    assertThat(fragments).isNotEmpty();
    for (String f : fragments) {
      RawStatement s =
          f.startsWith("PRIMARY KEY")
              ? Cql.parse("CREATE TABLE t (x int, " + f + ")")
              : Cql.parse(f);
      assertThat(s).isNotNull();
    }
  }
}
