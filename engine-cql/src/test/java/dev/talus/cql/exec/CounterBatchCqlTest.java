package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlRow;
import dev.talus.cql.PreparedCql;
import dev.talus.cql.TalusSession;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code BEGIN COUNTER BATCH}: counter updates (and deletes) of several rows, partitions and tables
 * applied as one write, with Cassandra's rules on what may share a batch and their messages.
 */
class CounterBatchCqlTest {
  @TempDir Path dir;
  private CqlDb t;
  private TalusSession cql;

  @BeforeEach
  void schema() {
    t = new CqlDb(dir);
    cql = t.cql;
    cql.execute("CREATE TABLE views (video text PRIMARY KEY, n counter, likes counter)");
    cql.execute("CREATE TABLE clicks (user int, url text, total counter, PRIMARY KEY (user, url))");
    cql.execute("CREATE TABLE plain (k text PRIMARY KEY, v text)");
  }

  @AfterEach
  void close() {
    t.close();
  }

  @Test
  void aCounterBatchAppliesEveryIncrementAcrossRowsPartitionsAndTables() {
    cql.execute(
        """
        BEGIN COUNTER BATCH
          UPDATE views SET n = n + 1, likes = likes + 2 WHERE video = 'a';
          UPDATE views SET n = n + 1 WHERE video = 'a';
          UPDATE views SET n = n - 5 WHERE video = 'b';
          UPDATE clicks SET total = total + 1 WHERE user = 1 AND url = 'x';
          UPDATE clicks SET total = total + 3 WHERE user IN (1, 2) AND url = 'y';
        APPLY BATCH""");
    assertThat(counters("SELECT n, likes FROM views WHERE video = 'a'")).isEqualTo("2,2");
    assertThat(counters("SELECT n, likes FROM views WHERE video = 'b'")).isEqualTo("-5,null");
    assertThat(counters("SELECT total FROM clicks WHERE user = 1 AND url = 'x'")).isEqualTo("1");
    assertThat(counters("SELECT total FROM clicks WHERE user = 1 AND url = 'y'")).isEqualTo("3");
    assertThat(counters("SELECT total FROM clicks WHERE user = 2 AND url = 'y'")).isEqualTo("3");
    // the same batch again counts again: counter updates are not idempotent
    cql.execute(
        "BEGIN COUNTER BATCH UPDATE views SET n = n + 1 WHERE video = 'a';"
            + " UPDATE views SET n = n + 1 WHERE video = 'a'; APPLY BATCH");
    assertThat(counters("SELECT n, likes FROM views WHERE video = 'a'")).isEqualTo("4,2");
  }

  @Test
  void preparedWithMarkersAndWithDeletes() {
    cql.execute("UPDATE views SET n = n + 7 WHERE video = 'gone'");
    PreparedCql batch =
        cql.prepare(
            "BEGIN COUNTER BATCH UPDATE views SET n = n + ? WHERE video = ?;"
                + " UPDATE clicks SET total = total + :d WHERE user = :u AND url = 'x';"
                + " DELETE FROM views WHERE video = 'gone'; APPLY BATCH");
    assertThat(batch.variables()).extracting(c -> c.name()).containsExactly("n", "video", "d", "u");
    for (int i = 1; i <= 3; i++) {
      batch.execute(10L * i, "v", (long) i, 9);
    }
    assertThat(counters("SELECT n FROM views WHERE video = 'v'")).isEqualTo("60");
    assertThat(counters("SELECT total FROM clicks WHERE user = 9 AND url = 'x'")).isEqualTo("6");
    assertThat(cql.execute("SELECT n FROM views WHERE video = 'gone'").one()).isEmpty();
  }

  @Test
  void anUnloggedBatchMayHoldCounterUpdatesAloneAsInCassandra() {
    cql.execute(
        "BEGIN UNLOGGED BATCH UPDATE views SET n = n + 4 WHERE video = 'u';"
            + " UPDATE clicks SET total = total + 1 WHERE user = 1 AND url = 'u'; APPLY BATCH");
    assertThat(counters("SELECT n FROM views WHERE video = 'u'")).isEqualTo("4");
    assertThat(counters("SELECT total FROM clicks WHERE user = 1 AND url = 'u'")).isEqualTo("1");
  }

  @Test
  void oneInvalidUpdateRefusesTheWholeBatch() {
    PreparedCql batch =
        cql.prepare(
            "BEGIN COUNTER BATCH UPDATE views SET n = n + 1 WHERE video = 'a';"
                + " UPDATE views SET n = n + ? WHERE video = 'b'; APPLY BATCH");
    assertThatThrownBy(() -> batch.execute((Object) null))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("Invalid null value for counter increment");
    assertThat(cql.execute("SELECT n FROM views WHERE video = 'a'").one()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "counter in a logged batch | BEGIN BATCH UPDATE views SET n = n + 1 WHERE video = 'a'"
            + " APPLY BATCH | Cannot include a counter statement in a logged batch | 13",
        "insert in a counter batch | BEGIN COUNTER BATCH UPDATE views SET n = n + 1 WHERE video ="
            + " 'a'; INSERT INTO plain (k, v) VALUES ('a', 'b') APPLY BATCH"
            + " | Cannot include non-counter statement in a counter batch | 67",
        "update of a plain table in a counter batch | BEGIN COUNTER BATCH"
            + " UPDATE plain SET v = 'b' WHERE k = 'a' APPLY BATCH"
            + " | Cannot include non-counter statement in a counter batch | 21",
        "mixed unlogged batch | BEGIN UNLOGGED BATCH UPDATE views SET n = n + 1 WHERE video = 'a';"
            + " DELETE FROM plain WHERE k = 'a' APPLY BATCH"
            + " | Counter and non-counter mutations cannot exist in the same batch | 68",
        "timestamp on a counter batch | BEGIN COUNTER BATCH USING TIMESTAMP 5"
            + " UPDATE views SET n = n + 1 WHERE video = 'a' APPLY BATCH"
            + " | Cannot provide custom timestamp for counter BATCH | 37",
        "timestamp on an unlogged batch of counters | BEGIN UNLOGGED BATCH USING TIMESTAMP 5"
            + " UPDATE views SET n = n + 1 WHERE video = 'a' APPLY BATCH"
            + " | Cannot provide custom timestamp for a BATCH containing counters | 38",
      })
  void cassandrasRulesWithItsMessages(String what, String statement, String message, int column) {
    cql.execute("INSERT INTO plain (k, v) VALUES ('a', 'kept')");
    assertThatThrownBy(() -> cql.execute(statement))
        .as(what)
        .isInstanceOfSatisfying(
            CqlInvalidRequestException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(message);
              assertThat(e.line()).isEqualTo(1);
              assertThat(e.column()).isEqualTo(column);
            });
    // nothing ran
    assertThat(cql.execute("SELECT n FROM views WHERE video = 'a'").one()).isEmpty();
    assertThat(cql.execute("SELECT v FROM plain WHERE k = 'a'").one().orElseThrow().getString(0))
        .isEqualTo("kept");
  }

  /** The row's values as "a,b" (null for an unset counter). */
  private String counters(String select) {
    Optional<CqlRow> row = cql.execute(select).one();
    assertThat(row).as(select).isPresent();
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < row.get().columns().size(); i++) {
      out.append(i == 0 ? "" : ",").append(row.get().get(i));
    }
    return out.toString();
  }
}
