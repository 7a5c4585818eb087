package dev.talus.bench;

import dev.talus.CommitLogSync;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.server.TalusServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.HdrHistogram.Histogram;

/**
 * Prepared inserts and prepared point reads per second on one key-value table, the same workload
 * through four paths ({@link KvTarget}): the builder API of an embedded {@link TalusDb} ({@code
 * builder}), the embedded CQL layer's prepared statements ({@code cql}), the Apache Cassandra Java
 * driver on loopback against a Talus server in this JVM ({@code talus}) and against Apache
 * Cassandra 5.0 in a child JVM ({@code cassandra}, {@link CassandraChild}) — so that what the CQL
 * layer and the protocol layer cost shows. The workload: {@code threads} closed loops, each sending
 * one request and waiting for its answer; a table {@code (k bigint PRIMARY KEY, v text)} with
 * 100-character values; {@code keys} rows loaded first, then a timed insert phase (random keys
 * among them, so overwrites) and a timed read phase (random keys, every one present), each after a
 * warm-up of half its time. Measured, never asserted. Run by {@code mvn -Pdriver} or {@code mvn
 * -Pcassandra} in engine-bench, or:
 *
 * <pre>
 * java -cp engine-bench/target/benchmarks.jar dev.talus.bench.DriverThroughput \
 *     [TARGETS] [threads] [seconds] [keys] [cassandra-classpath-file]
 * </pre>
 *
 * <p>TARGETS is a comma-separated list of {@code builder}, {@code cql}, {@code talus}, {@code
 * cassandra}, or {@code embedded} (builder and cql), {@code both} (talus and cassandra), {@code
 * all} (the four), run in the order given; only {@code cassandra} needs the classpath file.
 */
public final class DriverThroughput {
  private static final String VALUE = "v".repeat(100);

  private DriverThroughput() {}

  /** One phase's result: operations per second and the latency quantiles, in nanoseconds. */
  record Phase(String name, double opsPerSecond, long p50Nanos, long p99Nanos) {}

  public static void main(String[] args) throws Exception {
    Set<String> targets = targets(args.length > 0 ? args[0] : "both");
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 16;
    int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 20;
    int keys = args.length > 3 ? Integer.parseInt(args[3]) : 100_000;
    Path classpath = Path.of(args.length > 4 ? args[4] : "engine-bench/target/cassandra.classpath");
    Path work = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "driver-bench");
    System.out.printf(
        Locale.ROOT,
        "DriverThroughput %s: %d threads, %d s warm-up + %d s per phase, %d keys, JDK %s,"
            + " %d cores%n",
        targets,
        threads,
        seconds / 2,
        seconds,
        keys,
        System.getProperty("java.version"),
        Runtime.getRuntime().availableProcessors());
    List<String> lines = new ArrayList<>();
    try {
      for (String target : targets) {
        if (target.equals("cassandra")) {
          try (CassandraChild c =
              CassandraChild.start(classpath, work.resolve("cassandra"), "2g")) {
            System.out.println(
                "Cassandra 5.0.6: " + c.startMillis() + " ms from JVM start to listening for CQL");
            measure("Cassandra 5.0.6", () -> KvTarget.driver(c.address()), threads, seconds, keys)
                .forEach(lines::add);
          }
          continue;
        }
        // every Talus path on a fresh database with the same options
        TalusOptions options =
            TalusOptions.builder(work.resolve("talus-" + target))
                .commitLogSync(CommitLogSync.PERIODIC)
                .commitLogSyncPeriod(Duration.ofSeconds(10))
                .build();
        try (TalusDb db = TalusDb.open(options)) {
          switch (target) {
            case "builder" ->
                measure("builder API", () -> KvTarget.builder(db), threads, seconds, keys)
                    .forEach(lines::add);
            case "cql" ->
                measure("embedded CQL", () -> KvTarget.cql(db), threads, seconds, keys)
                    .forEach(lines::add);
            default -> {
              try (TalusServer server = TalusServer.start(db)) {
                measure(
                        "Talus server",
                        () -> KvTarget.driver(server.address()),
                        threads,
                        seconds,
                        keys)
                    .forEach(lines::add);
              }
            }
          }
        }
      }
    } finally {
      BenchDirs.delete(work); // the databases of every target
    }
    System.out.println("path             phase        ops/s   p50 µs   p99 µs");
    lines.forEach(System.out::println);
  }

  /**
   * The targets named by {@code spec}, in the order given (a group expands in place, a repeated
   * target runs once): the order decides which target runs first, on a JVM whose compiler has not
   * yet warmed up.
   */
  static Set<String> targets(String spec) {
    Set<String> ordered = new LinkedHashSet<>();
    for (String part : spec.split(",", -1)) {
      switch (part.trim()) {
        case "builder", "cql", "talus", "cassandra" -> ordered.add(part.trim());
        case "embedded" -> ordered.addAll(List.of("builder", "cql"));
        case "both" -> ordered.addAll(List.of("talus", "cassandra"));
        case "all" -> ordered.addAll(List.of("builder", "cql", "talus", "cassandra"));
        default ->
            throw new IllegalArgumentException(
                "unknown target '"
                    + part
                    + "': use builder, cql, talus, cassandra, embedded, both or all,"
                    + " comma-separated");
      }
    }
    return ordered;
  }

  private interface TargetFactory {
    KvTarget open();
  }

  /** Loads, warms up and times one target; its result lines. */
  private static List<String> measure(
      String label, TargetFactory factory, int threads, int seconds, int keys) throws Exception {
    List<String> out = new ArrayList<>();
    try (KvTarget t = factory.open()) {
      for (Phase p : workload(t, threads, seconds, keys)) {
        String line = line(label, p);
        System.out.println(line);
        out.add(line);
      }
    }
    return out;
  }

  private static String line(String label, Phase p) {
    return String.format(
        Locale.ROOT,
        "%-16s %-8s %9.0f %8.1f %8.1f",
        label,
        p.name(),
        p.opsPerSecond(),
        p.p50Nanos() / 1000.0,
        p.p99Nanos() / 1000.0);
  }

  /** Loads {@code keys} rows, then times inserts and reads; the same for every target. */
  static List<Phase> workload(KvTarget t, int threads, int seconds, int keys) throws Exception {
    t.load(keys, VALUE);
    List<Phase> out = new ArrayList<>();
    run(threads, seconds / 2, keys, r -> t.insert(r, VALUE));
    out.add(phase("insert", run(threads, seconds, keys, r -> t.insert(r, VALUE))));
    run(threads, seconds / 2, keys, r -> check(t.read(r)));
    out.add(phase("read", run(threads, seconds, keys, r -> check(t.read(r)))));
    return out;
  }

  private static void check(boolean found) {
    if (!found) {
      throw new IllegalStateException("a loaded key was not found");
    }
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
                  h.recordValue(System.nanoTime() - t0);
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
