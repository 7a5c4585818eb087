package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlRow;
import dev.talus.cql.TalusSession;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Static columns and counter tables through CQL, with Cassandra's rules and errors. */
class StaticsAndCountersCqlTest {
  @TempDir Path dir;
  private CqlDb t;
  private TalusSession cql;

  @BeforeEach
  void schema() {
    t = new CqlDb(dir);
    cql = t.cql;
    cql.execute(
        "CREATE TABLE videos (user text, added int, title text, user_name text STATIC,"
            + " PRIMARY KEY (user, added))");
    cql.execute("CREATE TABLE views (video text PRIMARY KEY, n counter, likes counter)");
  }

  @AfterEach
  void close() {
    t.close();
  }

  @Test
  void staticColumnsAreSharedByThePartitionsRows() {
    cql.execute("INSERT INTO videos (user, user_name) VALUES ('u1', 'Ann')");
    // a partition with only static data reads as one row with null clustering
    List<CqlRow> rows = cql.execute("SELECT * FROM videos WHERE user = 'u1'").rows();
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).get("added")).isNull();
    assertThat(rows.get(0).getString("user_name")).isEqualTo("Ann");
    assertThat(rows.get(0).columns())
        .extracting(c -> c.name())
        .containsExactly("user", "added", "user_name", "title");

    cql.execute("INSERT INTO videos (user, added, title) VALUES ('u1', 1, 'a')");
    cql.execute("INSERT INTO videos (user, added, title) VALUES ('u1', 2, 'b')");
    cql.execute("UPDATE videos SET user_name = 'Anna' WHERE user = 'u1'");
    rows = cql.execute("SELECT added, title, user_name FROM videos WHERE user = 'u1'").rows();
    assertThat(rows)
        .extracting(r -> r.getInt(0) + r.getString(1) + r.getString(2))
        .containsExactly("1aAnna", "2bAnna");
    cql.execute("DELETE FROM videos WHERE user = 'u1' AND added = 1");
    assertThat(one("SELECT user_name FROM videos WHERE user = 'u1'").getString(0))
        .isEqualTo("Anna");
    cql.execute("DELETE user_name FROM videos WHERE user = 'u1'");
    assertThat(one("SELECT user_name FROM videos WHERE user = 'u1'").get(0)).isNull();
  }

  @Test
  void countersIncrementAndDecrement() {
    cql.execute("UPDATE views SET n = n + 1 WHERE video = 'v'");
    cql.execute("UPDATE views SET n = n + 5, likes = likes - 2 WHERE video = 'v'");
    var inc = cql.prepare("UPDATE views SET n = n + ? WHERE video = ?");
    inc.bind(10L, "v").execute();
    CqlRow r = one("SELECT n, likes FROM views WHERE video = 'v'");
    assertThat(r.getLong(0)).isEqualTo(16L);
    assertThat(r.getLong(1)).isEqualTo(-2L);
    assertThat(r.columns().get(0).type().cql()).isEqualTo("counter");
    assertThat(inc.variables())
        .extracting(c -> c.name() + " " + c.type().cql())
        .containsExactly("n bigint", "video text");
  }

  private CqlRow one(String select) {
    List<CqlRow> rows = cql.execute(select).rows();
    assertThat(rows).hasSize(1);
    return rows.get(0);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "insert into counters | INSERT INTO views (video, n) VALUES ('v', 1) | INSERT statements are not allowed on counter tables, use UPDATE instead",
        "set a counter | UPDATE views SET n = 3 WHERE video = 'v' | Cannot set the value of counter column n",
        "mixing | CREATE TABLE bad (k int PRIMARY KEY, n counter, v text) | Cannot mix counter and non counter columns",
        "counter key | CREATE TABLE bad (k counter PRIMARY KEY, n counter) | counter type is not supported for PRIMARY KEY",
        "static without clustering | CREATE TABLE bad (k int PRIMARY KEY, s text STATIC) | Static columns are only useful",
        "static in key | CREATE TABLE bad (k int, c int STATIC, PRIMARY KEY (k, c)) | cannot be part of the PRIMARY KEY",
        "static-only update with clustering | UPDATE videos SET user_name = 'x' WHERE user = 'u' AND added = 1 | modifies only static columns",
        "regular without clustering | UPDATE videos SET title = 'x' WHERE user = 'u' | Some clustering keys are missing: added",
        "increment non-counter | UPDATE videos SET title = title + 'x' WHERE user = 'u' AND added = 1 | for non counter column title",
      })
  void cassandrasErrors(String what, String statement, String message) {
    CqlInvalidRequestException e =
        catchThrowableOfType(CqlInvalidRequestException.class, () -> cql.execute(statement));
    assertThat(e).as(statement).isNotNull();
    assertThat(e.getMessage()).contains(message);
  }

  @Test
  void ttlOnACounterUpdateIsRefused() {
    CqlInvalidRequestException e =
        catchThrowableOfType(
            CqlInvalidRequestException.class,
            () -> cql.execute("UPDATE views USING TTL 10 SET n = n + 1 WHERE video = 'v'"));
    assertThat(e).isNotNull();
    assertThat(e.getMessage()).containsIgnoringCase("ttl");
    assertThat(cql.execute("SELECT * FROM views WHERE video = 'v'").rows()).isEmpty();
  }
}
