package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlRow;
import dev.talus.cql.TalusSession;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Conditional writes in CQL: {@code IF NOT EXISTS}, {@code IF EXISTS}, {@code IF} conditions and
 * conditional batches, with Cassandra's result ({@code [applied]} first, then the current values
 * when not applied) and its refusals.
 */
class ConditionalCqlTest {
  @TempDir Path dir;
  private CqlDb t;
  private TalusSession cql;

  @BeforeEach
  void schema() {
    t = new CqlDb(dir);
    cql = t.cql;
    cql.execute("CREATE TABLE m (k text, c int, v text, n bigint, PRIMARY KEY (k, c))");
  }

  @AfterEach
  void close() {
    t.close();
  }

  private static List<String> names(CqlResult r) {
    return r.columns().stream().map(CqlColumn::name).toList();
  }

  private static List<Object> values(CqlRow row) {
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < row.columns().size(); i++) {
      out.add(row.get(i));
    }
    return out;
  }

  private boolean applied(String statement, Object... values) {
    return cql.execute(statement, values).one().orElseThrow().getBoolean("[applied]");
  }

  @Test
  void insertIfNotExists() {
    CqlResult first = cql.execute("INSERT INTO m (k, c, v) VALUES ('a', 1, 'x') IF NOT EXISTS");
    assertThat(names(first)).containsExactly("[applied]");
    assertThat(first.one().orElseThrow().getBoolean(0)).isTrue();

    CqlResult second = cql.execute("INSERT INTO m (k, c, v) VALUES ('a', 1, 'y') IF NOT EXISTS");
    assertThat(names(second)).containsExactly("[applied]", "k", "c", "n", "v");
    assertThat(values(second.one().orElseThrow())).containsExactly(false, "a", 1, null, "x");
    assertThat(cql.execute("SELECT v FROM m WHERE k = 'a'").one().orElseThrow().getString("v"))
        .isEqualTo("x");
  }

  @Test
  void insertJsonIfNotExists() {
    assertThat(applied("INSERT INTO m JSON '{\"k\": \"j\", \"c\": 1, \"v\": \"x\"}' IF NOT EXISTS"))
        .isTrue();
    assertThat(applied("INSERT INTO m JSON '{\"k\": \"j\", \"c\": 1, \"v\": \"y\"}' IF NOT EXISTS"))
        .isFalse();
  }

  @Test
  void updateIfExistsAndIfConditions() {
    CqlResult missing = cql.execute("UPDATE m SET v = 'x' WHERE k = 'b' AND c = 1 IF EXISTS");
    assertThat(names(missing)).containsExactly("[applied]");
    assertThat(missing.one().orElseThrow().getBoolean(0)).isFalse();
    // a condition on a missing row: only [applied]
    CqlResult absent = cql.execute("UPDATE m SET v = 'x' WHERE k = 'b' AND c = 1 IF v = 'q'");
    assertThat(names(absent)).containsExactly("[applied]");

    cql.execute("INSERT INTO m (k, c, v, n) VALUES ('b', 1, 'x', 5)");
    CqlResult refused =
        cql.execute("UPDATE m SET v = 'y' WHERE k = 'b' AND c = 1 IF v = 'q' AND n > 1");
    assertThat(names(refused)).containsExactly("[applied]", "v", "n");
    assertThat(values(refused.one().orElseThrow())).containsExactly(false, "x", 5L);
    assertThat(applied("UPDATE m SET v = 'y' WHERE k = 'b' AND c = 1 IF v = 'x' AND n > 1"))
        .isTrue();
    assertThat(applied("UPDATE m SET v = 'z' WHERE k = 'b' AND c = 1 IF EXISTS")).isTrue();
    assertThat(cql.execute("SELECT v FROM m WHERE k = 'b'").one().orElseThrow().getString("v"))
        .isEqualTo("z");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "n = 5 | true",
        "n = 6 | false",
        "n != 5 | false",
        "n != 6 | true",
        "n < 6 | true",
        "n < 5 | false",
        "n <= 5 | true",
        "n > 4 | true",
        "n > 5 | false",
        "n >= 5 | true",
        "n >= 6 | false",
        "n IN (1, 5) | true",
        "n IN (1, 2) | false",
        "v = null | true",
        "v != null | false",
        "n = 5 AND v = null | true",
        "n = 5 AND v = 'a' | false"
      })
  void everyOperator(String condition, boolean holds) {
    cql.execute("INSERT INTO m (k, c, n) VALUES ('o', 1, 5)");
    assertThat(applied("UPDATE m SET n = 100 WHERE k = 'o' AND c = 1 IF " + condition))
        .isEqualTo(holds);
  }

  @Test
  void boundValuesAndInMarker() {
    cql.execute("INSERT INTO m (k, c, n) VALUES ('p', 1, 5)");
    var in = cql.prepare("UPDATE m SET n = ? WHERE k = ? AND c = ? IF n IN ?");
    assertThat(cql.execute(in.bind(6L, "p", 1, List.of(1L, 2L))).one().orElseThrow().getBoolean(0))
        .isFalse();
    assertThat(cql.execute(in.bind(6L, "p", 1, List.of(5L))).one().orElseThrow().getBoolean(0))
        .isTrue();
    assertThat(applied("UPDATE m SET n = 7 WHERE k = 'p' AND c = 1 IF n = ?", 6L)).isTrue();
  }

  @Test
  void deleteIfExistsAndIfCondition() {
    cql.execute("INSERT INTO m (k, c, v) VALUES ('d', 1, 'x')");
    assertThat(applied("DELETE FROM m WHERE k = 'd' AND c = 1 IF v = 'y'")).isFalse();
    assertThat(applied("DELETE v FROM m WHERE k = 'd' AND c = 1 IF v = 'x'")).isTrue();
    assertThat(applied("DELETE FROM m WHERE k = 'd' AND c = 1 IF EXISTS")).isTrue();
    assertThat(applied("DELETE FROM m WHERE k = 'd' AND c = 1 IF EXISTS")).isFalse();
  }

  @Test
  void conditionalBatch() {
    cql.execute("INSERT INTO m (k, c, v) VALUES ('e', 1, 'x')");
    CqlResult refused =
        cql.execute(
            "BEGIN BATCH UPDATE m SET v = 'y' WHERE k = 'e' AND c = 1 IF v = 'nope';"
                + " INSERT INTO m (k, c, v) VALUES ('e', 2, 'z') APPLY BATCH");
    assertThat(names(refused)).containsExactly("[applied]", "k", "c", "v");
    assertThat(values(refused.one().orElseThrow())).containsExactly(false, "e", 1, "x");
    assertThat(cql.execute("SELECT c FROM m WHERE k = 'e'").size()).isEqualTo(1);

    CqlResult ok =
        cql.execute(
            "BEGIN BATCH UPDATE m SET v = 'y' WHERE k = 'e' AND c = 1 IF v = 'x';"
                + " INSERT INTO m (k, c, v) VALUES ('e', 2, 'z') IF NOT EXISTS APPLY BATCH");
    assertThat(names(ok)).containsExactly("[applied]");
    assertThat(ok.one().orElseThrow().getBoolean(0)).isTrue();
    assertThat(
            cql.execute("SELECT v FROM m WHERE k = 'e'").rows().stream()
                .map(r -> r.getString("v"))
                .toList())
        .containsExactly("y", "z");
  }

  @Test
  void refusals() {
    assertRefused(
        "INSERT INTO m (k, c) VALUES ('r', 1) IF NOT EXISTS USING TIMESTAMP 5",
        "Cannot provide custom timestamp for conditional updates");
    assertRefused(
        "UPDATE m USING TIMESTAMP 5 SET v = 'x' WHERE k = 'r' AND c = 1 IF EXISTS",
        "Cannot provide custom timestamp for conditional updates");
    assertRefused(
        "UPDATE m SET v = 'x' WHERE k = 'r' AND c IN (1, 2) IF v = 'y'",
        "IN on the clustering key columns is not supported with conditional updates");
    assertRefused(
        "DELETE FROM m WHERE k IN ('r', 's') AND c = 1 IF EXISTS",
        "IN on the partition key is not supported with conditional deletions");
    assertRefused(
        "UPDATE m SET v = 'x' WHERE k = 'r' AND c = 1 IF c = 1",
        "PRIMARY KEY column c cannot have IF conditions");
    assertRefused(
        "UPDATE m SET v = 'x' WHERE k = 'r' AND c = 1 IF nope = 1", "Undefined column name nope");
    assertRefused(
        "UPDATE m SET v = 'x' WHERE k = 'r' AND c = 1 IF n < null",
        "Invalid comparison with null for operator \"<\"");
    assertRefused(
        "BEGIN BATCH USING TIMESTAMP 5 UPDATE m SET v = 'x' WHERE k = 'r' AND c = 1 IF EXISTS"
            + " APPLY BATCH",
        "Cannot provide custom timestamp for conditional BATCH");
    assertRefused(
        "BEGIN BATCH UPDATE m SET v = 'x' WHERE k = 'r' AND c = 1 IF EXISTS;"
            + " INSERT INTO m (k, c) VALUES ('s', 1) APPLY BATCH",
        "Batch with conditions cannot span multiple partitions");
    assertThat(cql.execute("SELECT * FROM m WHERE k = 'r'").isEmpty()).isTrue();
    assertThat(cql.execute("SELECT * FROM m WHERE k = 's'").isEmpty()).isTrue();
  }

  private void assertRefused(String statement, String message) {
    assertThatThrownBy(() -> cql.execute(statement))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining(message);
  }
}
