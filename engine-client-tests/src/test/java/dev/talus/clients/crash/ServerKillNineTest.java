package dev.talus.clients.crash;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.talus.CommitLogSync;
import dev.talus.testkit.server.TalusTestServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Kills (SIGKILL) a server child JVM ({@link ServerCrashChild}) while the Java driver writes to it
 * from several concurrent request chains, restarts the server on the same directory and reads the
 * whole table back through the driver: every write the driver saw acknowledged must be there with
 * its value, and every row there must hold the value its key was written with. The next cycle
 * writes on into the same directory, so each cycle also tests recovery from the previous kill.
 * Seeded: {@code -Dtalus.crash.server.seed=N} replays a run's kill timings.
 */
class ServerKillNineTest {
  private static final int CHAINS = 8;

  @TempDir Path tmp;

  /** The short default run: two kills under load, default (PERIODIC) commit log. */
  @Test
  void acknowledgedDriverWritesSurviveKillNineOfTheServer() throws Exception {
    run(CommitLogSync.PERIODIC, Integer.getInteger("talus.crash.cycles.server", 2));
  }

  /** The long run ({@code mvn -B verify -Pcrash}): more kills, in every commit-log mode. */
  @ParameterizedTest
  @EnumSource(CommitLogSync.class)
  @Tag("slow")
  @Tag("crash")
  void manyKillNineCyclesOfTheServer(CommitLogSync sync) throws Exception {
    run(sync, Integer.getInteger("talus.crash.cycles.server.long", 20));
  }

  private void run(CommitLogSync sync, int cycles) throws Exception {
    long seed = Long.getLong("talus.crash.server.seed", System.nanoTime());
    System.out.println("[crash] server kill -9, " + sync + ", seed " + seed);
    Random rnd = new Random(seed);
    Path dir = tmp.resolve(sync.name());
    Map<Long, String> acked = new ConcurrentHashMap<>();
    long totalAcks = 0;
    Child child = Child.start(dir, sync, tmp.resolve(sync + "-0.out"));
    try {
      for (int cycle = 0; cycle < cycles; cycle++) {
        try (CqlSession session = TalusTestServer.builderFor(child.address).build()) {
          if (cycle == 0) {
            session.execute(
                "CREATE KEYSPACE IF NOT EXISTS crash WITH replication ="
                    + " {'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute(
                "CREATE TABLE IF NOT EXISTS crash.kv (k bigint PRIMARY KEY, v text, pad text)");
          }
          totalAcks += writeUntilKilled(session, child, cycle, rnd, acked);
        }
        child = Child.start(dir, sync, tmp.resolve(sync + "-" + (cycle + 1) + ".out"));
        try (CqlSession session = TalusTestServer.builderFor(child.address).build()) {
          verify(session, acked, cycle, sync);
        }
      }
    } finally {
      child.kill();
    }
    assertThat(totalAcks).as("the driver saw acknowledged writes").isPositive();
    System.out.println(
        "[crash] server kill -9, "
            + sync
            + ": "
            + cycles
            + " cycles, "
            + totalAcks
            + " acknowledged driver writes, lost = 0");
  }

  /**
   * Runs {@link #CHAINS} request chains (each sends its next insert when the previous one is
   * answered) until the child is killed, at a random moment after the first 200 acknowledgements.
   */
  private static long writeUntilKilled(
      CqlSession session, Child child, int cycle, Random rnd, Map<Long, String> acked)
      throws Exception {
    PreparedStatement insert = session.prepare("INSERT INTO crash.kv (k, v, pad) VALUES (?, ?, ?)");
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong acks = new AtomicLong();
    AtomicLong seq = new AtomicLong();
    CountDownLatch chainsDone = new CountDownLatch(CHAINS);
    String pad = "p".repeat(1000);
    for (int c = 0; c < CHAINS; c++) {
      new Object() {
        void next() {
          if (stop.get()) {
            chainsDone.countDown();
            return;
          }
          long k = ((long) cycle << 32) | seq.getAndIncrement();
          String v = value(k);
          session
              .executeAsync(insert.bind(k, v, pad))
              .whenComplete(
                  (rs, error) -> {
                    if (error == null) {
                      acked.put(k, v);
                      acks.incrementAndGet();
                      next();
                    } else {
                      // the server is gone: this write may or may not be there
                      chainsDone.countDown();
                    }
                  });
        }
      }.next();
    }
    for (int i = 0; i < 1200 && acks.get() < 200 && child.process.isAlive(); i++) {
      Thread.sleep(50);
    }
    assertThat(acks.get()).as("acknowledgements before the kill in cycle %d", cycle).isPositive();
    Thread.sleep(100 + rnd.nextInt(700));
    child.kill();
    stop.set(true);
    assertThat(chainsDone.await(120, TimeUnit.SECONDS)).as("every chain stopped").isTrue();
    return acks.get();
  }

  private static void verify(
      CqlSession session, Map<Long, String> acked, int cycle, CommitLogSync sync) {
    Map<Long, String> stored = new HashMap<>();
    for (Row r : session.execute("SELECT k, v FROM crash.kv")) {
      stored.put(r.getLong("k"), r.getString("v"));
    }
    for (Map.Entry<Long, String> e : stored.entrySet()) {
      assertThat(e.getValue()).as("value of key %d", e.getKey()).isEqualTo(value(e.getKey()));
    }
    long missing = acked.keySet().stream().filter(k -> !stored.containsKey(k)).count();
    assertThat(missing)
        .as("after kill %d (%s): acknowledged writes missing of %d", cycle, sync, acked.size())
        .isZero();
  }

  private static String value(long k) {
    return "v" + Long.toHexString(k * 0x9E3779B97F4A7C15L);
  }

  /** A running {@link ServerCrashChild} and the port it printed. */
  private static final class Child {
    final Process process;
    final InetSocketAddress address;

    private Child(Process process, InetSocketAddress address) {
      this.process = process;
      this.address = address;
    }

    static Child start(Path dir, CommitLogSync sync, Path out) throws Exception {
      ProcessBuilder pb =
          new ProcessBuilder(
              Path.of(System.getProperty("java.home"), "bin", "java").toString(),
              "-Xmx256m",
              "-XX:TieredStopAtLevel=1",
              "-XX:+UseSerialGC",
              "-cp",
              System.getProperty("java.class.path"),
              ServerCrashChild.class.getName(),
              dir.toString(),
              sync.name());
      pb.redirectErrorStream(true);
      // to a file, not a pipe: nothing to drain, and all of it is there after the kill
      pb.redirectOutput(out.toFile());
      Process p = pb.start();
      for (int i = 0; i < 2400 && p.isAlive(); i++) {
        Integer port = port(out);
        if (port != null) {
          return new Child(p, new InetSocketAddress("127.0.0.1", port));
        }
        p.waitFor(50, TimeUnit.MILLISECONDS);
      }
      p.destroyForcibly();
      throw new AssertionError(
          "the server child printed no port: " + Files.readString(out, StandardCharsets.UTF_8));
    }

    private static Integer port(Path out) throws IOException {
      for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
        if (line.startsWith("PORT ")) {
          return Integer.parseInt(line.substring(5).trim());
        }
      }
      return null;
    }

    void kill() throws InterruptedException {
      process.destroyForcibly(); // SIGKILL
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("child killed").isTrue();
    }
  }
}
