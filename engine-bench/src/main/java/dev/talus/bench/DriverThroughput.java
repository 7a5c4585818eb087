package dev.talus.bench;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import dev.talus.CommitLogSync;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.server.TalusServer;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import org.HdrHistogram.Histogram;

/**
 * Prepared inserts and prepared point reads per second through the Apache Cassandra Java driver on
 * loopback, against a Talus server (in this JVM) and against Apache Cassandra 5.0 (a child JVM,
 * {@link CassandraChild}), the same workload and driver settings for both: {@code threads} closed
 * loops, each sending one request and waiting for its answer; a table {@code (k bigint PRIMARY KEY,
 * v text)} with 100-character values; {@code keys} rows loaded first, then a timed insert phase
 * (random keys among them, so overwrites) and a timed read phase (random keys, every one present).
 * Measured, never asserted. Run by {@code mvn -Pcassandra} in engine-bench, or:
 *
 * <pre>
 * java -cp engine-bench/target/benchmarks.jar dev.talus.bench.DriverThroughput \
 *     [talus|cassandra|both] [threads] [seconds] [keys] [cassandra-classpath-file]
 * </pre>
 */
public final class DriverThroughput {
  private static final String VALUE = "v".repeat(100);

  private DriverThroughput() {}

  /** One phase's result: operations per second and the latency quantiles, in microseconds. */
  record Phase(String name, double opsPerSecond, long p50Micros, long p99Micros) {}

  public static void main(String[] args) throws Exception {
    String target = args.length > 0 ? args[0] : "both";
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 16;
    int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
    int keys = args.length > 3 ? Integer.parseInt(args[3]) : 100_000;
    Path classpath = Path.of(args.length > 4 ? args[4] : "engine-bench/target/cassandra.classpath");
    Path work = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "driver-bench");
    System.out.printf(
        Locale.ROOT,
        "DriverThroughput: %d threads, %d s warm-up + %d s per phase, %d keys, JDK %s, %d cores%n",
        threads,
        seconds / 2,
        seconds,
        keys,
        System.getProperty("java.version"),
        Runtime.getRuntime().availableProcessors());
    List<String> lines = new ArrayList<>();
    if (target.equals("talus") || target.equals("both")) {
      TalusOptions options =
          TalusOptions.builder(work.resolve("talus"))
              .commitLogSync(CommitLogSync.PERIODIC)
              .commitLogSyncPeriod(Duration.ofSeconds(10))
              .build();
      try (TalusDb db = TalusDb.open(options);
          TalusServer server = TalusServer.start(db)) {
        for (Phase p : workload(server.address(), threads, seconds, keys)) {
          lines.add(line("Talus", p));
        }
      }
    }
    if (target.equals("cassandra") || target.equals("both")) {
      try (CassandraChild c = CassandraChild.start(classpath, work.resolve("cassandra"), "2g")) {
        System.out.println(
            "Cassandra 5.0.6: " + c.startMillis() + " ms from JVM start to listening for CQL");
        for (Phase p : workload(c.address(), threads, seconds, keys)) {
          lines.add(line("Cassandra 5.0.6", p));
        }
      }
    }
    System.out.println("engine           phase     ops/s     p50 µs   p99 µs");
    lines.forEach(System.out::println);
  }

  private static String line(String engine, Phase p) {
    return String.format(
        Locale.ROOT,
        "%-16s %-8s %9.0f %9d %8d",
        engine,
        p.name(),
        p.opsPerSecond(),
        p.p50Micros(),
        p.p99Micros());
  }

  /** Loads {@code keys} rows, then times inserts and reads; the same for every engine. */
  static List<Phase> workload(InetSocketAddress address, int threads, int seconds, int keys)
      throws Exception {
    DriverConfigLoader config =
        DriverConfigLoader.programmaticBuilder()
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(30))
            .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(30))
            .withDuration(
                DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(60))
            .withDuration(
                DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(60))
            .build();
    try (CqlSession s =
        CqlSession.builder()
            .addContactPoint(address)
            .withLocalDatacenter("datacenter1")
            .withConfigLoader(config)
            .build()) {
      s.execute(
          "CREATE KEYSPACE IF NOT EXISTS bench WITH replication = {'class': 'SimpleStrategy',"
              + " 'replication_factor': 1}");
      s.execute("CREATE TABLE IF NOT EXISTS bench.kv (k bigint PRIMARY KEY, v text)");
      PreparedStatement insert = s.prepare("INSERT INTO bench.kv (k, v) VALUES (?, ?)");
      PreparedStatement select = s.prepare("SELECT v FROM bench.kv WHERE k = ?");
      load(s, insert, keys);
      List<Phase> out = new ArrayList<>();
      run(threads, seconds / 2, keys, r -> s.execute(insert.bind(r, VALUE)));
      out.add(phase("insert", run(threads, seconds, keys, r -> s.execute(insert.bind(r, VALUE)))));
      run(threads, seconds / 2, keys, r -> check(s.execute(select.bind(r)).one() != null));
      out.add(
          phase(
              "read",
              run(threads, seconds, keys, r -> check(s.execute(select.bind(r)).one() != null))));
      return out;
    }
  }

  private static void check(boolean found) {
    if (!found) {
      throw new IllegalStateException("a loaded key was not found");
    }
  }

  /** Inserts keys 0 to {@code keys - 1}, 256 requests in flight. */
  private static void load(CqlSession s, PreparedStatement insert, int keys)
      throws InterruptedException {
    Semaphore inFlight = new Semaphore(256);
    for (long k = 0; k < keys; k++) {
      inFlight.acquire();
      s.executeAsync(insert.bind(k, VALUE))
          .whenComplete(
              (r, e) -> {
                inFlight.release();
                if (e != null) {
                  e.printStackTrace();
                }
              });
    }
    inFlight.acquire(256);
  }

  private interface Request {
    void send(long key);
  }

  /** The operations done and their latencies, over {@code nanos}. */
  private record Timed(Histogram latencies, long nanos) {}

  private static Timed run(int threads, int seconds, int keys, Request request) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicBoolean stop = new AtomicBoolean();
    List<Future<Histogram>> results = new ArrayList<>();
    long start = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      long seed = 42L * 31 + t;
      results.add(
          pool.submit(
              () -> {
                SplittableRandom random = new SplittableRandom(seed);
                Histogram h = new Histogram(3);
                while (!stop.get()) {
                  long key = random.nextLong(keys);
                  long t0 = System.nanoTime();
                  request.send(key);
                  h.recordValue((System.nanoTime() - t0) / 1000);
                }
                return h;
              }));
    }
    Thread.sleep(seconds * 1000L);
    stop.set(true);
    Histogram all = new Histogram(3);
    for (Future<Histogram> f : results) {
      all.add(f.get());
    }
    long nanos = System.nanoTime() - start;
    pool.shutdown();
    return new Timed(all, nanos);
  }

  private static Phase phase(String name, Timed t) {
    return new Phase(
        name,
        t.latencies().getTotalCount() * 1e9 / t.nanos(),
        t.latencies().getValueAtPercentile(50),
        t.latencies().getValueAtPercentile(99));
  }
}
