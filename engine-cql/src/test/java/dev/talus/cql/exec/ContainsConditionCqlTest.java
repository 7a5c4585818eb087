package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.cql.CqlInvalidRequestException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code IF c CONTAINS v} and {@code IF m CONTAINS KEY k} in CQL, literal and bound. */
class ContainsConditionCqlTest {
  @TempDir Path dir;

  private static boolean applied(CqlDb a, String cql, Object... values) {
    return a.cql.execute(cql, values).one().orElseThrow().getBoolean("[applied]");
  }

  @Test
  void containsConditionsDecideTheWrite() {
    try (CqlDb a = new CqlDb(dir)) {
      a.cql.executeScript(
          """
          CREATE TABLE t (k int PRIMARY KEY, tags set<text>, m map<text, int>, v int);
          INSERT INTO t (k, tags, m) VALUES (1, {'a', 'b'}, {'x': 10});
          """);
      assertThat(applied(a, "UPDATE t SET v = 1 WHERE k = 1 IF tags CONTAINS 'a'")).isTrue();
      assertThat(applied(a, "UPDATE t SET v = 2 WHERE k = 1 IF tags CONTAINS 'z'")).isFalse();
      assertThat(applied(a, "UPDATE t SET v = 3 WHERE k = 1 IF m CONTAINS KEY ?", "x")).isTrue();
      assertThat(applied(a, "UPDATE t SET v = 4 WHERE k = 1 IF m CONTAINS ?", 11)).isFalse();
      assertThat(applied(a, "DELETE FROM t WHERE k = 1 IF m CONTAINS 10 AND v = 3")).isTrue();
      assertThat(a.cql.execute("SELECT * FROM t WHERE k = 1").one()).isEmpty();
      assertThatThrownBy(() -> a.cql.execute("UPDATE t SET v = 1 WHERE k = 1 IF v CONTAINS 1"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Cannot use CONTAINS on non-collection column v");
      assertThatThrownBy(
              () -> a.cql.execute("UPDATE t SET v = 1 WHERE k = 1 IF tags CONTAINS KEY 'a'"))
          .isInstanceOf(CqlInvalidRequestException.class)
          .hasMessageContaining("Cannot use CONTAINS KEY on non-map column tags");
    }
  }
}
