package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.SchemaChangeListenerBase;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.internal.core.connection.ConstantReconnectionPolicy;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A driver session outlives its server: the server stops, the database closes, both come back on
 * the same directory and port, and the session reconnects by itself and goes on, its prepared
 * statements prepared again on the new server when it answers {@code Unprepared}. And the driver
 * hears of schema changes made by another session through the events it registered for.
 */
class RestartTest {
  @TempDir Path dir;

  private static TalusOptions options(Path dir) {
    return TalusOptions.builder(dir).backgroundCompaction(false).build();
  }

  @Test
  void aSessionReconnectsAfterTheServerRestartsOnTheSameDirectoryAndPort() throws Exception {
    TalusDb db = TalusDb.open(options(dir));
    TalusServer server = TalusServer.start(db);
    int port = server.address().getPort();
    try (CqlSession session =
        DriverSessions.builder(
                server,
                null,
                "none",
                null,
                b ->
                    b.withClass(
                            DefaultDriverOption.RECONNECTION_POLICY_CLASS,
                            ConstantReconnectionPolicy.class)
                        .withDuration(
                            DefaultDriverOption.RECONNECTION_BASE_DELAY, Duration.ofMillis(50))
                        // no re-preparing when the node comes back: the first EXECUTE meets
                        // Unprepared, and the driver prepares and retries it then
                        .withBoolean(DefaultDriverOption.REPREPARE_ENABLED, false))
            .build()) {
      session.execute(
          "CREATE KEYSPACE again WITH replication = {'class': 'SimpleStrategy',"
              + " 'replication_factor': 1}");
      session.execute("CREATE TABLE again.t (k int PRIMARY KEY, v text)");
      PreparedStatement insert = session.prepare("INSERT INTO again.t (k, v) VALUES (?, ?)");
      PreparedStatement select = session.prepare("SELECT v FROM again.t WHERE k = ?");
      session.execute(insert.bind(1, "before"));

      server.close();
      db.close();
      db = TalusDb.open(options(dir));
      server = TalusServer.start(db, ServerOptions.builder().port(port).build());

      Row row = untilConnected(() -> session.execute(select.bind(1)).one());
      assertThat(row.getString("v")).isEqualTo("before");
      session.execute(insert.bind(2, "after"));
      assertThat(session.execute(select.bind(2)).one().getString("v")).isEqualTo("after");
      // the new server gives the statement the id the old one gave it
      assertThat(session.prepare("SELECT v FROM again.t WHERE k = ?").getId())
          .isEqualTo(select.getId());
    } finally {
      server.close();
      db.close();
    }
    try (TalusDb reopened = TalusDb.open(options(dir));
        TalusServer again = TalusServer.start(reopened);
        CqlSession check = DriverSessions.connect(again)) {
      assertThat(check.execute("SELECT k, v FROM again.t").all()).hasSize(2);
    }
  }

  @Test
  @SuppressWarnings("try") // the driver's listener base is AutoCloseable; the session closes it
  void theDriverHearsOfATableCreatedThroughAnotherSession() throws Exception {
    CompletableFuture<KeyspaceMetadata> keyspace = new CompletableFuture<>();
    CompletableFuture<TableMetadata> created = new CompletableFuture<>();
    try (TalusDb db = TalusDb.open(options(dir));
        TalusServer server = TalusServer.start(db);
        CqlSession other = DriverSessions.connect(server);
        CqlSession listening =
            DriverSessions.builder(server, null, "none", null, b -> b)
                .withSchemaChangeListener(
                    new SchemaChangeListenerBase() {
                      @Override
                      public void onKeyspaceCreated(KeyspaceMetadata k) {
                        keyspace.complete(k);
                      }

                      @Override
                      public void onTableCreated(TableMetadata table) {
                        created.complete(table);
                      }
                    })
                .build()) {
      other.execute(
          "CREATE KEYSPACE heard WITH replication = {'class': 'SimpleStrategy',"
              + " 'replication_factor': 1}");
      // The driver reports a table only when its keyspace was already known: one refresh that
      // finds both new reports the keyspace alone. Its debouncer merges events that arrive
      // within a second, so the table waits until the keyspace has been heard of.
      assertThat(keyspace.get(60, TimeUnit.SECONDS).getName().asInternal()).isEqualTo("heard");
      other.execute("CREATE TABLE heard.t (k int PRIMARY KEY, v text)");
      // no query on the listening session: only the SCHEMA_CHANGE event tells it
      TableMetadata table = created.get(60, TimeUnit.SECONDS);
      assertThat(table.getKeyspace().asInternal()).isEqualTo("heard");
      assertThat(table.getName().asInternal()).isEqualTo("t");
      assertThat(table.getColumn("v")).isPresent();
      assertThat(listening.getMetadata().getKeyspace("heard").flatMap(k -> k.getTable("t")))
          .isPresent();
    }
  }

  /** Runs {@code query} until the driver has a connection again to run it on. */
  private static <T> T untilConnected(java.util.function.Supplier<T> query)
      throws InterruptedException {
    long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (true) {
      try {
        return query.get();
      } catch (AllNodesFailedException | DriverTimeoutException e) {
        if (System.nanoTime() > giveUp) {
          throw e;
        }
        Thread.sleep(20);
      }
    }
  }
}
