package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteType;
import dev.talus.ManualClock;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.cql.TalusSession;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's limits, triggered deterministically: statements run on an executor the test holds
 * and releases, waits are measured on a manual clock, the idle timeout on Netty's embedded clock.
 */
class LimitsTest {
  @TempDir Path dir;

  /** Runs tasks at once, or, while held, keeps them until {@link #release()}. Thread-safe. */
  static final class HeldExecutor implements Executor {
    private final Queue<Runnable> held = new ArrayDeque<>();
    private boolean holding;

    @Override
    public void execute(Runnable task) {
      synchronized (this) {
        if (holding) {
          held.add(task);
          notifyAll();
          return;
        }
      }
      task.run();
    }

    synchronized void hold() {
      holding = true;
    }

    /** Waits until {@code n} tasks are held (the requests reached the server). */
    synchronized void awaitHeld(int n) throws InterruptedException {
      while (held.size() < n) {
        wait();
      }
    }

    void release() {
      Queue<Runnable> run;
      synchronized (this) {
        holding = false;
        run = new ArrayDeque<>(held);
        held.clear();
      }
      run.forEach(Runnable::run);
    }
  }

  private TalusDb open() {
    TalusDb db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
    TalusSession cql = TalusSession.on(db);
    cql.execute(
        "CREATE KEYSPACE lim WITH replication = {'class': 'SimpleStrategy',"
            + " 'replication_factor': 1}");
    cql.execute("CREATE TABLE lim.t (k int PRIMARY KEY, v text)");
    return db;
  }

  @Test
  void aRequestPastTheConnectionsLimitIsOverloadedAndTheDriverSaysSo() throws Exception {
    HeldExecutor workers = new HeldExecutor();
    try (TalusDb db = open();
        TalusServer server =
            TalusServer.start(
                db, ServerOptions.builder().executor(workers).maxRequestsPerConnection(1).build());
        CqlSession session = DriverSessions.connect(server)) {
      workers.hold();
      CompletableFuture<AsyncResultSet> first =
          session
              .executeAsync("INSERT INTO lim.t (k, v) VALUES (1, 'first')")
              .toCompletableFuture();
      workers.awaitHeld(1);
      assertThatThrownBy(() -> session.execute("INSERT INTO lim.t (k, v) VALUES (2, 'second')"))
          .isInstanceOf(OverloadedException.class)
          .hasMessageContaining("Too many requests in flight on this connection (the limit is 1)");
      workers.release();
      first.get(60, TimeUnit.SECONDS);
      // the answered request left room: the next one runs
      session.execute("INSERT INTO lim.t (k, v) VALUES (3, 'third')");
      assertThat(session.execute("SELECT k FROM lim.t").all()).hasSize(2);
    }
  }

  @Test
  void requestsPastTheServersLimitAreOverloadedOnAnyConnection() throws Exception {
    HeldExecutor workers = new HeldExecutor();
    try (TalusDb db = open();
        TalusServer server =
            TalusServer.start(
                db, ServerOptions.builder().executor(workers).maxRequests(2).build());
        RawClient a = new RawClient(server.address());
        RawClient b = new RawClient(server.address())) {
      a.startup();
      b.startup();
      workers.hold();
      a.send(RawClient.frame(4, 0, 5, 0x07, RawClient.query("SELECT * FROM system.local")));
      b.send(RawClient.frame(4, 0, 6, 0x07, RawClient.query("SELECT * FROM system.local")));
      workers.awaitHeld(2);
      b.send(RawClient.frame(4, 0, 7, 0x07, RawClient.query("SELECT * FROM system.local")));
      RawClient.Response overloaded = b.read();
      assertThat(overloaded.stream()).isEqualTo(7);
      assertThat(overloaded.errorCode()).isEqualTo(0x1001);
      assertThat(overloaded.errorMessage())
          .contains("Too many requests in flight on this server (the limit is 2)");
      workers.release();
      assertThat(a.read().opcode()).isEqualTo(0x08);
      assertThat(b.read().opcode()).isEqualTo(0x08);
    }
  }

  @Test
  void aStatementThatWaitedPastTheRequestTimeoutIsATimeoutAndDoesNotRun() throws Exception {
    HeldExecutor workers = new HeldExecutor();
    ManualClock clock = ManualClock.startingAtDefault();
    try (TalusDb db = open();
        TalusServer server =
            TalusServer.start(
                db,
                ServerOptions.builder()
                    .executor(workers)
                    .clock(clock)
                    .requestTimeout(Duration.ofSeconds(5))
                    .build());
        CqlSession session = DriverSessions.connect(server)) {
      workers.hold();
      CompletableFuture<AsyncResultSet> read =
          session.executeAsync("SELECT * FROM lim.t WHERE k = 1").toCompletableFuture();
      CompletableFuture<AsyncResultSet> write =
          session.executeAsync("INSERT INTO lim.t (k, v) VALUES (1, 'late')").toCompletableFuture();
      workers.awaitHeld(2);
      clock.advance(Duration.ofSeconds(6));
      workers.release();
      assertThatThrownBy(() -> read.get(60, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOf(ReadTimeoutException.class);
      assertThatThrownBy(() -> write.get(60, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOfSatisfying(
              WriteTimeoutException.class,
              e -> assertThat(e.getWriteType()).isEqualTo(WriteType.SIMPLE));
      assertThat(session.execute("SELECT * FROM lim.t WHERE k = 1").one())
          .as("the write that timed out did not run")
          .isNull();
      // just under the timeout, it runs
      workers.hold();
      CompletableFuture<AsyncResultSet> inTime =
          session
              .executeAsync("INSERT INTO lim.t (k, v) VALUES (1, 'in time')")
              .toCompletableFuture();
      workers.awaitHeld(1);
      clock.advance(Duration.ofSeconds(5));
      workers.release();
      inTime.get(60, TimeUnit.SECONDS);
      assertThat(session.execute("SELECT v FROM lim.t WHERE k = 1").one().getString(0))
          .isEqualTo("in time");
    }
  }

  @Test
  void aConnectionIdleLongerThanTheIdleTimeoutIsClosed() throws IOException {
    try (TalusDb db = open()) {
      ServerOptions options = ServerOptions.builder().idleTimeout(Duration.ofSeconds(30)).build();
      ServerState state = new ServerState(db, Runnable::run, options);
      EmbeddedChannel ch = new EmbeddedChannel();
      TalusServer.configure(ch, state, options);
      ch.advanceTimeBy(20, TimeUnit.SECONDS);
      ch.runScheduledPendingTasks();
      assertThat(ch.isOpen()).isTrue();
      // a request restarts the wait
      ch.writeInbound(
          io.netty.buffer.Unpooled.wrappedBuffer(RawClient.frame(4, 0, 1, 0x05, new byte[0])));
      ch.advanceTimeBy(20, TimeUnit.SECONDS);
      ch.runScheduledPendingTasks();
      assertThat(ch.isOpen()).isTrue();
      ch.advanceTimeBy(11, TimeUnit.SECONDS);
      ch.runScheduledPendingTasks();
      assertThat(ch.isOpen()).isFalse();
      ch.finishAndReleaseAll();
    }
  }

  @Test
  void withoutAnIdleTimeoutAnIdleConnectionStaysOpen() throws IOException {
    try (TalusDb db = open()) {
      ServerOptions options = ServerOptions.defaults();
      ServerState state = new ServerState(db, Runnable::run, options);
      EmbeddedChannel ch = new EmbeddedChannel();
      TalusServer.configure(ch, state, options);
      ch.advanceTimeBy(1, TimeUnit.DAYS);
      ch.runScheduledPendingTasks();
      assertThat(ch.isOpen()).isTrue();
      ch.finishAndReleaseAll();
    }
  }
}
