package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteType;
import dev.talus.ManualClock;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.cql.TalusSession;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A statement that runs longer than the request timeout is answered with Cassandra's timeout error
 * and its slot is freed while it still runs; its late result is never sent. The statement is held
 * inside the engine by a database clock that stalls the workers' calls, and the timeout is measured
 * on a manual clock: nothing depends on the speed of the machine.
 */
class StatementTimeoutTest {
  @TempDir Path dir;

  /**
   * The database's clock: a manual clock whose reads, while it stalls, block every thread named
   * {@code talus-test-worker} until {@link #release()}. Thread-safe.
   */
  static final class StallingClock implements InstantSource {
    private final ManualClock time = ManualClock.startingAtDefault();
    private final Semaphore stalled = new Semaphore(0);
    private boolean stalling;

    @Override
    public Instant instant() {
      if (Thread.currentThread().getName().startsWith("talus-test-worker")) {
        synchronized (this) {
          if (stalling) {
            stalled.release();
            while (stalling) {
              try {
                wait();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
              }
            }
          }
        }
      }
      return time.instant();
    }

    synchronized void stall() {
      stalling = true;
    }

    /** Waits until {@code n} more calls are stalled (the statements are inside the engine). */
    void awaitStalled(int n) throws InterruptedException {
      stalled.acquire(n);
    }

    synchronized void release() {
      stalling = false;
      notifyAll();
    }
  }

  private static ExecutorService workers() {
    return Executors.newFixedThreadPool(
        4, r -> new Thread(r, "talus-test-worker-" + System.identityHashCode(r)));
  }

  private static TalusDb open(Path dir, StallingClock clock) {
    TalusDb db =
        TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).clock(clock).build());
    TalusSession cql = TalusSession.on(db);
    cql.execute(
        "CREATE KEYSPACE slow WITH replication = {'class': 'SimpleStrategy',"
            + " 'replication_factor': 1}");
    cql.execute("CREATE TABLE slow.t (k int PRIMARY KEY, v text)");
    cql.execute("INSERT INTO slow.t (k, v) VALUES (1, 'one')");
    return db;
  }

  @Test
  void aStatementRunningPastTheTimeoutIsAReadOrWriteTimeoutAndFreesItsSlot() throws Exception {
    StallingClock dbClock = new StallingClock();
    ManualClock serverClock = ManualClock.startingAtDefault();
    ExecutorService workers = workers();
    try (TalusDb db = open(dir, dbClock);
        TalusServer server =
            TalusServer.start(
                db,
                ServerOptions.builder()
                    .executor(workers)
                    .clock(serverClock)
                    .requestTimeout(Duration.ofSeconds(2))
                    .build());
        CqlSession session = DriverSessions.connect(server)) {
      dbClock.stall();
      CompletableFuture<AsyncResultSet> read =
          session.executeAsync("SELECT v FROM slow.t WHERE k = 1").toCompletableFuture();
      CompletableFuture<AsyncResultSet> write =
          session.executeAsync("INSERT INTO slow.t (k, v) VALUES (2, 'two')").toCompletableFuture();
      dbClock.awaitStalled(2);
      assertThat(server.state().requestsInFlight()).isEqualTo(2);
      serverClock.advance(Duration.ofSeconds(3));
      assertThatThrownBy(() -> read.get(60, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOfSatisfying(
              ReadTimeoutException.class,
              e -> {
                assertThat(e.getReceived()).isZero();
                assertThat(e.getBlockFor()).isEqualTo(1);
              });
      assertThatThrownBy(() -> write.get(60, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOfSatisfying(
              WriteTimeoutException.class,
              e -> assertThat(e.getWriteType()).isEqualTo(WriteType.SIMPLE));
      // both statements still run, stalled inside the engine, but their slots are free
      assertThat(server.state().requestsInFlight()).isZero();
      dbClock.release();
      // the stalled write finishes on its worker (its answer is dropped); then it is there
      workers.shutdown();
      assertThat(workers.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
    }
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).build());
        TalusServer server = TalusServer.start(db);
        CqlSession session = DriverSessions.connect(server)) {
      assertThat(session.execute("SELECT v FROM slow.t WHERE k = 2").one().getString(0))
          .isEqualTo("two");
    }
  }

  @Test
  void theLateResultOfATimedOutStatementIsNeverSent() throws Exception {
    StallingClock dbClock = new StallingClock();
    ManualClock serverClock = ManualClock.startingAtDefault();
    ExecutorService workers = workers();
    try (TalusDb db = open(dir, dbClock);
        TalusServer server =
            TalusServer.start(
                db,
                ServerOptions.builder()
                    .executor(workers)
                    .clock(serverClock)
                    .requestTimeout(Duration.ofSeconds(2))
                    .build());
        RawClient client = new RawClient(server.address())) {
      client.startup();
      dbClock.stall();
      client.send(RawClient.frame(4, 0, 5, 0x07, RawClient.query("SELECT v FROM slow.t")));
      dbClock.awaitStalled(1);
      serverClock.advance(Duration.ofSeconds(3));
      RawClient.Response timeout = client.read();
      assertThat(timeout.stream()).isEqualTo(5);
      assertThat(timeout.errorCode()).isEqualTo(0x1200);
      assertThat(timeout.errorMessage())
          .contains("has run for 3000 ms, over the server's request timeout of 2000 ms");
      dbClock.release();
      // once the worker is done with the stalled statement, whatever it could have sent is
      // ahead of the next answer on the connection
      workers.shutdown();
      assertThat(workers.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
      // a new pool is not needed to see it: the answer to the next request (on the event loop)
      // is the next frame
      client.send(RawClient.frame(4, 0, 6, 0x05, new byte[0])); // OPTIONS
      RawClient.Response next = client.read();
      assertThat(next.stream()).isEqualTo(6);
      assertThat(next.opcode()).isEqualTo(0x06); // SUPPORTED
    }
  }
}
