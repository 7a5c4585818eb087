package dev.talus.bench.ycsb;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import site.ycsb.DB;
import site.ycsb.Workload;
import site.ycsb.measurements.Measurements;
import site.ycsb.workloads.CoreWorkload;

/**
 * Runs YCSB core workloads A–F on Talus ({@link TalusYcsbClient}) and RocksDB ({@link
 * RocksYcsbClient}) in one process, with the same YCSB properties, and prints one table: load and
 * run throughput, read / update / insert / scan latency percentiles, failed operations, and the
 * Talus/RocksDB throughput ratio.
 *
 * <p>For each workload and engine: a fresh directory, a load phase (YCSB's {@code doInsert} for
 * {@code recordcount} records), the engine closed and reopened (as separate {@code ycsb load} and
 * {@code ycsb run} invocations would), then the run phase ({@code doTransaction} for {@code
 * operationcount} operations). YCSB's own {@code Client} ends with {@code System.exit}, and its
 * measurements are a process-wide singleton, so this runner drives {@link CoreWorkload} with its
 * own threads and times every operation with {@link TimedDb}. Engine open and close are not timed.
 * The engine that goes first alternates from one workload to the next.
 *
 * <p>Workload E's scans run in key order on RocksDB and in token order on Talus (as on Cassandra,
 * whose YCSB binding scans by token): the same work per scan, not the same records.
 *
 * <pre>
 * java -cp engine-bench/target/benchmarks.jar dev.talus.bench.ycsb.RunYcsb [--scale 1]
 *     [--records 100000] [--ops 100000] [--threads 2] [--workloads a,b,c,d,e,f]
 *     [--engines talus,rocksdb] [--sync periodic|group|batch] [--compaction lcs|stcs] [--dir DIR]
 *     [--reps 3] [--no-warmup] [--warmup-divisor 5]
 * </pre>
 *
 * <p>Talus's read path is Java: in a short run its first reads are interpreted and compiled while
 * they are timed, where RocksDB's are native. The warm-up pass runs every workload on both engines
 * at a fifth of the counts first ({@code --warmup-divisor 1}: at the full counts), in the same JVM,
 * and is discarded; each measured repetition still starts on a fresh directory.
 */
public final class RunYcsb {
  /** The engines, their bindings, and whether they can run YCSB scans. */
  enum Engine {
    TALUS("talus", TalusYcsbClient.class, TalusYcsbClient.DIR, true),
    ROCKSDB("rocksdb", RocksYcsbClient.class, RocksYcsbClient.DIR, true);

    final String label;
    final Class<? extends DB> binding;
    final String dirProperty;
    final boolean scans;

    Engine(String label, Class<? extends DB> binding, String dirProperty, boolean scans) {
      this.label = label;
      this.binding = binding;
      this.dirProperty = dirProperty;
      this.scans = scans;
    }

    static Engine of(String s) {
      for (Engine e : values()) {
        if (e.label.equalsIgnoreCase(s.trim())) {
          return e;
        }
      }
      throw new IllegalArgumentException("unknown engine " + s + " (talus, rocksdb)");
    }
  }

  /** What to run. Immutable. */
  record Config(
      long records,
      long ops,
      int threads,
      List<Character> workloads,
      List<Engine> engines,
      Path dir,
      String sync,
      String compaction,
      int reps,
      boolean warmup,
      int warmupDivisor) {

    static final long DEFAULT_COUNT = 100_000;

    static final String USAGE =
        "usage: RunYcsb [--scale 1] [--records N] [--ops N] [--threads 2]"
            + " [--workloads a,b,c,d,e,f] [--engines talus,rocksdb]"
            + " [--sync periodic|group|batch] [--compaction lcs|stcs] [--dir DIR] [--reps 3]"
            + " [--no-warmup] [--warmup-divisor 5]";

    /** The same configuration with {@code records} and {@code ops} divided by {@code d}. */
    Config smaller(int d) {
      return new Config(
          Math.max(100, records / d),
          Math.max(100, ops / d),
          threads,
          workloads,
          engines,
          dir,
          sync,
          compaction,
          1,
          false,
          warmupDivisor);
    }

    static Config parse(String... args) {
      long records = DEFAULT_COUNT;
      long ops = DEFAULT_COUNT;
      double scale = 1;
      Long recordsArg = null;
      Long opsArg = null;
      int threads = 2;
      List<Character> workloads = List.of('a', 'b', 'c', 'd', 'e', 'f');
      List<Engine> engines = List.of(Engine.TALUS, Engine.ROCKSDB);
      String d = System.getProperty("talus.bench.dir");
      Path dir = Path.of(d != null && !d.isBlank() ? d : System.getProperty("java.io.tmpdir"));
      String sync = "periodic";
      String compaction = "lcs";
      int reps = 3;
      boolean warmup = true;
      int warmupDivisor = 5;
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        if (a.equals("--help") || a.equals("-h")) {
          throw new IllegalArgumentException("usage");
        }
        if (a.equals("--no-warmup")) {
          warmup = false;
          continue;
        }
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException(a + " needs a value");
        }
        String v = args[++i];
        switch (a) {
          case "--scale" -> scale = Double.parseDouble(v);
          case "--records" -> recordsArg = Long.parseLong(v);
          case "--ops" -> opsArg = Long.parseLong(v);
          case "--threads" -> threads = Integer.parseInt(v);
          case "--workloads" -> {
            List<Character> w = new ArrayList<>();
            for (String s : v.split(",")) {
              String t = s.trim().toLowerCase(Locale.ROOT);
              if (t.length() != 1 || t.charAt(0) < 'a' || t.charAt(0) > 'f') {
                throw new IllegalArgumentException("workloads are a to f, got " + s);
              }
              w.add(t.charAt(0));
            }
            workloads = List.copyOf(w);
          }
          case "--engines" -> engines = Stream.of(v.split(",")).map(Engine::of).toList();
          case "--dir" -> dir = Path.of(v);
          case "--sync" -> sync = v.toLowerCase(Locale.ROOT);
          case "--compaction" -> compaction = v.toLowerCase(Locale.ROOT);
          case "--reps" -> reps = Integer.parseInt(v);
          case "--warmup-divisor" -> warmupDivisor = Integer.parseInt(v);
          default -> throw new IllegalArgumentException("unknown option " + a);
        }
      }
      records = recordsArg != null ? recordsArg : Math.max(1, Math.round(records * scale));
      ops = opsArg != null ? opsArg : Math.max(1, Math.round(ops * scale));
      if (!List.of("periodic", "group", "batch").contains(sync)) {
        throw new IllegalArgumentException("--sync is periodic, group or batch, got " + sync);
      }
      if (!List.of("lcs", "stcs").contains(compaction)) {
        throw new IllegalArgumentException("--compaction is lcs or stcs, got " + compaction);
      }
      if (warmupDivisor < 1) {
        throw new IllegalArgumentException("--warmup-divisor must be >= 1, got " + warmupDivisor);
      }
      if (threads < 1 || reps < 1 || records > Integer.MAX_VALUE || ops > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("threads and reps must be >= 1 and counts below 2^31");
      }
      return new Config(
          records,
          ops,
          threads,
          workloads,
          engines,
          dir,
          sync,
          compaction,
          reps,
          warmup,
          warmupDivisor);
    }

    /** RocksDB's durability matching {@link #sync}: fsync per write for GROUP and BATCH. */
    boolean rocksSync() {
      return !sync.equals("periodic");
    }

    boolean rocksLeveled() {
      return compaction.equals("lcs");
    }
  }

  /** One timed phase: throughput and per-operation latency and failures. */
  record Phase(
      long ops, double seconds, Map<TimedDb.Op, Histogram> latency, Map<TimedDb.Op, Long> failed) {
    double opsPerSecond() {
      return ops / seconds;
    }

    long failures() {
      return failed.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  /** One cell of the table; {@code skipped} says why a workload did not run on an engine. */
  record Result(char workload, Engine engine, Phase load, Phase run, String skipped) {}

  /** Numbers the timeline files of one process (see {@link ReadTimeline}). */
  private static final java.util.concurrent.atomic.AtomicInteger TIMELINES =
      new java.util.concurrent.atomic.AtomicInteger();

  private RunYcsb() {}

  public static void main(String[] args) throws Exception {
    Config config;
    try {
      config = Config.parse(args);
    } catch (IllegalArgumentException e) {
      if (!e.getMessage().equals("usage")) {
        System.err.println(e.getMessage());
      }
      System.err.println(Config.USAGE);
      System.exit(2);
      return;
    }
    run(config, System.out);
  }

  /**
   * Runs every workload on every engine {@code reps} times (after a discarded warm-up pass at a
   * fifth of the counts, if asked), prints progress and the table, returns the measured results.
   */
  static List<Result> run(Config config, PrintStream out) throws Exception {
    printHeader(config, out);
    if (config.warmup()) {
      Config w = config.smaller(config.warmupDivisor());
      out.printf(
          Locale.ROOT,
          "warm-up pass (discarded): %,d records, %,d operations%n",
          w.records(),
          w.ops());
      runOnce(w, 0, new PrintStream(PrintStream.nullOutputStream()));
    }
    List<Result> results = new ArrayList<>();
    for (int rep = 0; rep < config.reps(); rep++) {
      out.printf("repetition %d/%d%n", rep + 1, config.reps());
      results.addAll(runOnce(config, rep, out));
    }
    out.println();
    YcsbTable.print(config, results, out);
    return results;
  }

  /** Every workload once on every engine; which engine goes first alternates. */
  private static List<Result> runOnce(Config config, int rep, PrintStream out) throws Exception {
    List<Result> results = new ArrayList<>();
    int index = rep;
    for (char w : config.workloads()) {
      Properties workload = workloadProperties(w);
      List<Engine> order = new ArrayList<>(config.engines());
      if (index++ % 2 == 1) {
        java.util.Collections.reverse(order);
      }
      for (Engine e : order) {
        boolean scans = Double.parseDouble(workload.getProperty("scanproportion", "0")) > 0;
        if (scans && !e.scans) {
          results.add(
              new Result(w, e, null, null, "not run: no partition-range scan (NOT_IMPLEMENTED)"));
          out.printf("workload %s %-8s skipped: no partition-range scan%n", upper(w), e.label);
          continue;
        }
        results.add(runOne(config, w, workload, e, out));
      }
    }
    return results;
  }

  @SuppressWarnings("try") // the timeline is closed early to print its summary
  private static Result runOne(
      Config config, char w, Properties workload, Engine e, PrintStream out) throws Exception {
    Path dir = createDir(config.dir(), "ycsb-" + e.label + "-" + w + "-");
    try {
      Properties p = new Properties();
      p.putAll(workload);
      p.setProperty("recordcount", Long.toString(config.records()));
      p.setProperty("operationcount", Long.toString(config.ops()));
      p.setProperty("threadcount", Integer.toString(config.threads()));
      p.setProperty(TalusYcsbClient.SYNC, config.sync());
      p.setProperty(TalusYcsbClient.COMPACTION, config.compaction());
      p.setProperty(RocksYcsbClient.SYNC, Boolean.toString(config.rocksSync()));
      p.setProperty(RocksYcsbClient.COMPACTION, config.rocksLeveled() ? "level" : "universal");
      p.setProperty(e.dirProperty, dir.toString());
      System.gc();
      Phase load = phase(p, e, false, (int) config.records(), config.threads());
      System.gc();
      Phase run;
      if (ReadTimeline.enabled()) {
        String name = "timeline-" + w + "-" + e.label + "-" + TIMELINES.incrementAndGet();
        try (ReadTimeline t = ReadTimeline.start(name)) {
          run = phase(p, e, true, (int) config.ops(), config.threads());
          t.close();
          out.println(t.summary());
        }
      } else {
        run = phase(p, e, true, (int) config.ops(), config.threads());
      }
      out.printf(
          Locale.ROOT,
          "workload %s %-8s load %,10.0f ops/s  run %,10.0f ops/s  failed %d%n",
          upper(w),
          e.label,
          load.opsPerSecond(),
          run.opsPerSecond(),
          load.failures() + run.failures());
      return new Result(w, e, load, run, null);
    } finally {
      deleteDir(dir);
    }
  }

  /**
   * Opens {@code threads} binding instances (untimed), runs {@code totalOps} inserts (load) or
   * transactions (run) split over the threads, closes the instances (untimed).
   */
  static Phase phase(Properties p, Engine e, boolean transactions, int totalOps, int threads)
      throws Exception {
    synchronized (RunYcsb.class) {
      // CoreWorkload reads the Measurements singleton when constructed; it needs its properties
      // first. Nothing here reads those measurements: TimedDb keeps its own.
      Measurements.setProperties(p);
    }
    Workload workload = new CoreWorkload();
    workload.init(p);
    List<TimedDb> dbs = new ArrayList<>();
    try {
      for (int i = 0; i < threads; i++) {
        TimedDb db = new TimedDb(e.binding.getDeclaredConstructor().newInstance());
        db.setProperties(p);
        db.init();
        dbs.add(db);
      }
      CyclicBarrier start = new CyclicBarrier(threads + 1);
      AtomicReference<Throwable> failure = new AtomicReference<>();
      List<Thread> workers = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        int id = i;
        int n = totalOps / threads + (i < totalOps % threads ? 1 : 0);
        Thread t =
            new Thread(
                () -> {
                  try {
                    Object state = workload.initThread(p, id, threads);
                    start.await();
                    TimedDb db = dbs.get(id);
                    for (int k = 0; k < n; k++) {
                      if (transactions) {
                        workload.doTransaction(db, state);
                      } else {
                        workload.doInsert(db, state);
                      }
                    }
                  } catch (Throwable x) {
                    failure.compareAndSet(null, x);
                    start.reset();
                  }
                },
                "ycsb-" + e.label + "-" + i);
        workers.add(t);
        t.start();
      }
      try {
        start.await();
      } catch (java.util.concurrent.BrokenBarrierException broken) {
        // a worker failed before the start; its failure is reported below
      }
      long t0 = System.nanoTime();
      for (Thread t : workers) {
        t.join();
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      if (failure.get() != null) {
        throw new IllegalStateException("a YCSB client thread failed", failure.get());
      }
      Map<TimedDb.Op, Histogram> latency = new EnumMap<>(TimedDb.Op.class);
      Map<TimedDb.Op, Long> failed = new EnumMap<>(TimedDb.Op.class);
      for (TimedDb db : dbs) {
        db.latency()
            .forEach(
                (op, h) ->
                    latency.merge(
                        op,
                        h.copy(),
                        (a, b) -> {
                          a.add(b);
                          return a;
                        }));
        db.failures().forEach((op, c) -> failed.merge(op, c, Long::sum));
      }
      return new Phase(totalOps, seconds, latency, failed);
    } finally {
      for (TimedDb db : dbs) {
        db.cleanup();
      }
      workload.cleanup();
    }
  }

  static Properties workloadProperties(char w) {
    String name = "/ycsb/workload" + w + ".properties";
    try (InputStream in = RunYcsb.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      Properties p = new Properties();
      p.load(in);
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void printHeader(Config c, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "YCSB %s on %s: %,d records, %,d operations, %d client threads, workloads %s, %s,"
            + " %d cores, JDK %s, max heap %d MiB%n",
        "0.17.0 core",
        LocalDate.now(),
        c.records(),
        c.ops(),
        c.threads(),
        c.workloads().stream().map(RunYcsb::upper).toList(),
        c.dir(),
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"),
        Runtime.getRuntime().maxMemory() >> 20);
    out.printf(
        "talus:   memtable space 128 MiB (2 x 64), chunk cache 256 MiB, LZ4, bloom 1%%,"
            + " commit log %s, compaction %s%n",
        c.sync().toUpperCase(Locale.ROOT), c.compaction().toUpperCase(Locale.ROOT));
    out.println("rocksdb: " + RocksYcsbClient.describe(c.rocksSync(), c.rocksLeveled()));
    out.println(
        String.format(
            Locale.ROOT,
            "Same YCSB properties for both; fresh directory per workload; open/close untimed;"
                + " %s; %d repetition(s): median [min-max] of throughput, medians of latency.",
            c.warmup()
                ? "a discarded warm-up pass at 1/" + c.warmupDivisor() + " of the counts first"
                : "no warm-up",
            c.reps()));
    out.println();
  }

  static String upper(char w) {
    return String.valueOf(Character.toUpperCase(w));
  }

  private static Path createDir(Path base, String prefix) throws IOException {
    Files.createDirectories(base);
    return Files.createTempDirectory(base, prefix);
  }

  private static void deleteDir(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(f);
      }
    }
  }
}
