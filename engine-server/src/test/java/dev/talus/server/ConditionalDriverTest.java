package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Conditional writes through the real Java driver: {@code ResultSet.wasApplied()}, the current
 * values of a write that did not apply, prepared conditional statements (the driver sends its own
 * client timestamp, which a conditional write ignores), conditional batches, and SERIAL /
 * LOCAL_SERIAL consistency.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConditionalDriverTest {
  @TempDir static Path dir;
  private TalusDb db;
  private TalusServer server;
  private CqlSession session;

  @BeforeAll
  void start() {
    db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
    server = TalusServer.start(db);
    session = DriverSessions.connect(server);
    session.execute(
        "CREATE KEYSPACE IF NOT EXISTS lwt WITH replication = {'class': 'SimpleStrategy',"
            + " 'replication_factor': 1}");
    session.execute("CREATE TABLE lwt.users (name text PRIMARY KEY, email text, logins int)");
    session.execute("CREATE TABLE lwt.ev (k text, c int, v text, PRIMARY KEY (k, c))");
  }

  @AfterAll
  void stop() {
    if (session != null) {
      session.close();
    }
    if (server != null) {
      server.close();
    }
    db.close();
  }

  @Test
  void signUpWithIfNotExists() {
    ResultSet first =
        session.execute(
            "INSERT INTO lwt.users (name, email, logins) VALUES ('ann', 'a@x', 0) IF NOT EXISTS");
    assertThat(first.wasApplied()).isTrue();
    ResultSet second =
        session.execute(
            "INSERT INTO lwt.users (name, email, logins) VALUES ('ann', 'b@x', 0) IF NOT EXISTS");
    assertThat(second.wasApplied()).isFalse();
    Row current = second.one();
    assertThat(current.getString("email")).isEqualTo("a@x");
    assertThat(current.getBoolean("[applied]")).isFalse();
  }

  @Test
  void preparedCompareAndSetWithSerialConsistency() {
    session.execute("INSERT INTO lwt.users (name, logins) VALUES ('bob', 1)");
    PreparedStatement cas =
        session.prepare("UPDATE lwt.users SET logins = ? WHERE name = ? IF logins = ?");
    ResultSet stale =
        session.execute(
            cas.bind(3, "bob", 2).setSerialConsistencyLevel(DefaultConsistencyLevel.SERIAL));
    assertThat(stale.wasApplied()).isFalse();
    assertThat(stale.one().getInt("logins")).isEqualTo(1);
    ResultSet ok =
        session.execute(
            cas.bind(2, "bob", 1).setSerialConsistencyLevel(DefaultConsistencyLevel.LOCAL_SERIAL));
    assertThat(ok.wasApplied()).isTrue();
    Row read =
        session
            .execute(
                SimpleStatement.newInstance("SELECT logins FROM lwt.users WHERE name = 'bob'")
                    .setConsistencyLevel(DefaultConsistencyLevel.SERIAL))
            .one();
    assertThat(read.getInt("logins")).isEqualTo(2);
  }

  @Test
  void updateAndDeleteIfExists() {
    assertThat(
            session
                .execute("UPDATE lwt.users SET email = 'c@x' WHERE name = 'carl' IF EXISTS")
                .wasApplied())
        .isFalse();
    session.execute("INSERT INTO lwt.users (name) VALUES ('carl')");
    assertThat(session.execute("DELETE FROM lwt.users WHERE name = 'carl' IF EXISTS").wasApplied())
        .isTrue();
    assertThat(session.execute("SELECT * FROM lwt.users WHERE name = 'carl'").one()).isNull();
  }

  @Test
  void conditionalBatch() {
    BatchStatement batch =
        BatchStatement.builder(BatchType.LOGGED)
            .addStatement(
                SimpleStatement.newInstance(
                    "INSERT INTO lwt.ev (k, c, v) VALUES ('b', 1, 'x') IF NOT EXISTS"))
            .addStatement(
                SimpleStatement.newInstance("INSERT INTO lwt.ev (k, c, v) VALUES ('b', 2, 'y')"))
            .build();
    assertThat(session.execute(batch).wasApplied()).isTrue();
    ResultSet again = session.execute(batch);
    assertThat(again.wasApplied()).isFalse();
    Row current = again.one();
    assertThat(current.getString("k")).isEqualTo("b");
    assertThat(current.getInt("c")).isEqualTo(1);
    assertThat(current.getString("v")).isEqualTo("x");
  }
}
