package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import dev.talus.ManualClock;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Protocol v5's {@code now_in_seconds} (the driver's {@code Statement.setNowInSeconds}): the
 * request's reads see TTLs as of that time, and its writes' TTLs count from it, as in Cassandra
 * 5.0; the database's clock does not move.
 */
class NowInSecondsTest {
  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();
  private TalusDb db;
  private TalusServer server;
  private CqlSession session;
  private int now;

  @BeforeEach
  void start() {
    db = TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
    server = TalusServer.start(db);
    session = DriverSessions.connect(server);
    session.execute(
        "CREATE KEYSPACE t WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    session.execute("CREATE TABLE t.kv (k int PRIMARY KEY, v text)");
    now = (int) clock.instant().getEpochSecond();
  }

  @AfterEach
  void stop() {
    session.close();
    server.close();
    db.close();
  }

  private Row read(int k, int nowInSeconds) {
    Statement<?> s =
        SimpleStatement.newInstance("SELECT v, ttl(v) FROM t.kv WHERE k = ?", k)
            .setNowInSeconds(nowInSeconds);
    return session.execute(s).one();
  }

  @Test
  void aQueryReadsTtlsAsOfItsNowInSeconds() {
    session.execute("INSERT INTO t.kv (k, v) VALUES (1, 'x') USING TTL 100");
    assertThat(read(1, now + 40).getInt(1)).isEqualTo(60);
    assertThat(read(1, now + 100)).isNull();
    assertThat(read(1, now - 20).getInt(1)).isEqualTo(120);
    // without it, the database's clock
    assertThat(session.execute("SELECT ttl(v) FROM t.kv WHERE k = 1").one().getInt(0))
        .isEqualTo(100);
  }

  @Test
  void aPreparedWriteCountsItsTtlFromItsNowInSeconds() {
    PreparedStatement insert =
        session.prepare("INSERT INTO t.kv (k, v) VALUES (?, ?) USING TTL 100");
    session.execute(insert.bind(2, "y").setNowInSeconds(now - 30));
    assertThat(session.execute("SELECT ttl(v) FROM t.kv WHERE k = 2").one().getInt(0))
        .isEqualTo(70);
    PreparedStatement select = session.prepare("SELECT v FROM t.kv WHERE k = ?");
    assertThat(session.execute(select.bind(2).setNowInSeconds(now + 70)).one()).isNull();
    assertThat(session.execute(select.bind(2).setNowInSeconds(now + 69)).one().getString(0))
        .isEqualTo("y");
  }

  @Test
  void aBatchRunsAtItsNowInSeconds() {
    BatchStatement batch =
        BatchStatement.newInstance(
                DefaultBatchType.LOGGED,
                SimpleStatement.newInstance("INSERT INTO t.kv (k, v) VALUES (3, 'a') USING TTL 50"),
                SimpleStatement.newInstance("INSERT INTO t.kv (k, v) VALUES (4, 'b') USING TTL 80"))
            .setNowInSeconds(now - 10);
    session.execute(batch);
    assertThat(read(3, now).getInt(1)).isEqualTo(40);
    assertThat(read(4, now).getInt(1)).isEqualTo(70);
  }
}
