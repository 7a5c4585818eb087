package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many requests in flight at once on the driver's connections, and a statement prepared through one
 * server executed through another: no request is lost or answered twice, and an id the server does
 * not know is prepared again by the driver.
 */
class ConcurrencyTest {
  @TempDir Path dir;

  @Test
  void manyAsyncRequestsInFlightAreEachAnsweredOnce() {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
        TalusServer server = TalusServer.start(db);
        CqlSession session = DriverSessions.connect(server)) {
      session.execute(
          "CREATE KEYSPACE busy WITH replication = {'class': 'SimpleStrategy',"
              + " 'replication_factor': 1}");
      session.execute("CREATE TABLE busy.t (k int, c int, v text, PRIMARY KEY (k, c))");
      PreparedStatement insert = session.prepare("INSERT INTO busy.t (k, c, v) VALUES (?, ?, ?)");
      // rounds of 500 requests in flight (the driver itself allows 1,024 per connection)
      for (int round = 0; round < 4; round++) {
        List<CompletableFuture<AsyncResultSet>> writes = new ArrayList<>();
        for (int i = round * 500; i < (round + 1) * 500; i++) {
          writes.add(session.executeAsync(insert.bind(i % 10, i, "v" + i)).toCompletableFuture());
        }
        CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).join();
      }
      PreparedStatement select = session.prepare("SELECT c, v FROM busy.t WHERE k = ? AND c = ?");
      Map<Integer, String> seen = new HashMap<>();
      for (int round = 0; round < 4; round++) {
        List<CompletionStage<AsyncResultSet>> reads = new ArrayList<>();
        for (int i = round * 500; i < (round + 1) * 500; i++) {
          reads.add(session.executeAsync(select.bind(i % 10, i)));
        }
        for (CompletionStage<AsyncResultSet> r : reads) {
          Row row = r.toCompletableFuture().join().one();
          assertThat(seen.put(row.getInt("c"), row.getString("v"))).isNull();
        }
      }
      assertThat(seen).hasSize(2000);
      for (int i = 0; i < 2000; i++) {
        assertThat(seen.get(i)).isEqualTo("v" + i);
      }
      int rows = 0;
      for (int k = 0; k < 10; k++) {
        for (Row ignored :
            session.execute(
                SimpleStatement.newInstance("SELECT c FROM busy.t WHERE k = ?", k)
                    .setPageSize(33))) {
          rows++;
        }
      }
      assertThat(rows).isEqualTo(2000);
    }
  }

  @Test
  void anIdTheServerForgotIsPreparedAgainByTheDriver() {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
        TalusServer server =
            TalusServer.start(db, ServerOptions.builder().preparedStatements(1).build());
        CqlSession session = DriverSessions.connect(server)) {
      session.execute(
          "CREATE KEYSPACE forget WITH replication = {'class': 'SimpleStrategy',"
              + " 'replication_factor': 1}");
      session.execute("CREATE TABLE forget.t (k int PRIMARY KEY, v text)");
      session.execute("INSERT INTO forget.t (k, v) VALUES (1, 'one')");
      PreparedStatement first = session.prepare("SELECT v FROM forget.t WHERE k = ?");
      PreparedStatement second = session.prepare("SELECT k FROM forget.t WHERE k = ?");
      // the server remembers one statement: the first now answers Unprepared, the driver
      // prepares it again (same id) and retries
      assertThat(session.execute(first.bind(1)).one().getString(0)).isEqualTo("one");
      assertThat(session.execute(second.bind(1)).one().getInt(0)).isEqualTo(1);
      assertThat(session.prepare("SELECT v FROM forget.t WHERE k = ?").getId())
          .isEqualTo(first.getId());
    }
  }
}
