package dev.talus.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import org.HdrHistogram.Histogram;

/**
 * The side-by-side workloads, run on one engine: every run of every engine gets the same data and
 * the same operation sequence from the same seed. Each workload opens its engine on a fresh
 * directory and deletes it afterwards. Not thread-safe; one suite runs at a time.
 */
final class Workloads {
  /** The workload names, in the order they run. */
  static final List<String> NAMES =
      List.of(
          "fillrandom-1t",
          "fillrandom-2t",
          "overwrite",
          "readrandom",
          "readmissing",
          "latest50",
          "readwhilewriting",
          "queue-point-deletes",
          "queue-range-delete");

  private static final int QUEUE_ROWS = 1_000;
  private static final int QUEUE_DELETED = 990;
  private static final int QUEUE_LIVE = QUEUE_ROWS - QUEUE_DELETED;
  private static final int LATEST = 50;

  private final String engineName;
  private final BiFunction<Path, BenchEngine.Layout, BenchEngine> opener;
  private final CompareConfig config;
  private final BenchData data;
  private final int partitions;
  private final int rows;

  /** Partition of fill operation i; operation i writes seq i / partitions. */
  private final int[] fillOrder;

  /** The probe of the engine open now (its baseline is the heap before it was opened). */
  private PhaseProbe probe;

  Workloads(
      String engineName,
      BiFunction<Path, BenchEngine.Layout, BenchEngine> opener,
      CompareConfig config) {
    this.engineName = engineName;
    this.opener = opener;
    this.config = config;
    this.data = new BenchData(config.seed());
    this.partitions = config.partitions();
    this.rows = config.rowsPerPartition();
    this.fillOrder = fillOrder(partitions, rows, config.seed());
  }

  /**
   * Rounds of one row per partition, each round in a new random partition order: every partition
   * grows at once, as time series or message histories do.
   */
  static int[] fillOrder(int partitions, int rows, long seed) {
    Random r = new Random(seed);
    int[] order = new int[partitions * rows];
    int[] round = new int[partitions];
    for (int p = 0; p < partitions; p++) {
      round[p] = p;
    }
    for (int row = 0; row < rows; row++) {
      for (int i = partitions - 1; i > 0; i--) {
        int j = r.nextInt(i + 1);
        int t = round[i];
        round[i] = round[j];
        round[j] = t;
      }
      System.arraycopy(round, 0, order, row * partitions, partitions);
    }
    return order;
  }

  /** The workloads that run on the engine fillrandom-2t leaves behind. */
  static final List<String> ON_FILLED =
      List.of("overwrite", "readrandom", "readmissing", "latest50", "readwhilewriting");

  /**
   * Runs the selected workloads ({@link CompareConfig#workloads()}) once and returns one {@link
   * Run} each, in {@link #NAMES} order. fillrandom-2t runs (unreported) when only the workloads
   * that need its data are selected.
   */
  List<Run> runAll() {
    List<String> wanted = config.workloads();
    List<Run> out = new ArrayList<>();
    if (wanted.contains("fillrandom-1t")) {
      out.add(fill("fillrandom-1t", 1, null));
    }
    if (wanted.contains("fillrandom-2t") || ON_FILLED.stream().anyMatch(wanted::contains)) {
      List<Run> onFilled = new ArrayList<>();
      Run filled = fill("fillrandom-2t", 2, onFilled);
      if (wanted.contains("fillrandom-2t")) {
        out.add(filled);
      }
      out.addAll(onFilled);
    }
    if (wanted.contains("queue-point-deletes")) {
      out.add(queue("queue-point-deletes", false));
    }
    if (wanted.contains("queue-range-delete")) {
      out.add(queue("queue-range-delete", true));
    }
    return out;
  }

  /** Memory per user byte held in this engine's memtables (a fresh engine, nothing flushed). */
  MemtableFootprint.Result footprint() {
    return MemtableFootprint.measure(engineName, opener, config, fillOrder);
  }

  /**
   * Inserts every row with {@code threads} writers, then flushes. If {@code follow} is given, the
   * read workloads run on the filled engine and add their runs to it.
   */
  private Run fill(String name, int threads, List<Run> follow) {
    Path dir = BenchDirs.create(config.dataDir(), engineName + "-" + name + "-");
    probe = new PhaseProbe(HeapMeter.liveBytes());
    BenchEngine e = opener.apply(dir, BenchEngine.Layout.NEWEST_FIRST);
    try {
      probe.start(e);
      Histogram[] hist = new Histogram[threads];
      Thread[] workers = new Thread[threads];
      for (int t = 0; t < threads; t++) {
        int id = t;
        hist[t] = new Histogram(3);
        workers[t] =
            new Thread(
                () -> {
                  for (int i = id; i < fillOrder.length; i += threads) {
                    long t0 = System.nanoTime();
                    e.put(fillOrder[i], i / partitions, data.value(i));
                    hist[id].recordValue(System.nanoTime() - t0);
                  }
                },
                "bench-" + name + "-" + t);
      }
      long start = System.nanoTime();
      runAll(workers);
      long nanos = System.nanoTime() - start;
      PhaseProbe.End end = probe.end(e, 0, false);
      e.flush();
      Histogram all = merge(hist);
      double userBytes = (double) fillOrder.length * BenchData.ROW_BYTES;
      Run run =
          Run.of(
              name,
              engineName,
              fillOrder.length,
              nanos,
              all,
              userBytes / (1 << 20) / (nanos / 1e9),
              e.bytesWrittenToFiles() / userBytes,
              e.diskBytes() / userBytes,
              end,
              e.state());
      if (follow != null) {
        List<String> wanted = config.workloads();
        if (wanted.contains("overwrite")) {
          follow.add(overwrite(e));
        }
        if (wanted.contains("readrandom")) {
          follow.add(pointReads(e, "readrandom", 0));
        }
        if (wanted.contains("readmissing")) {
          follow.add(pointReads(e, "readmissing", partitions));
        }
        if (wanted.contains("latest50")) {
          follow.add(latest(e));
        }
        if (wanted.contains("readwhilewriting")) {
          follow.add(readWhileWriting(e));
        }
      }
      return run;
    } finally {
      e.close();
      BenchDirs.delete(dir);
    }
  }

  private Run overwrite(BenchEngine e) {
    int n = fillOrder.length / 2;
    SplittableRandom r = new SplittableRandom(config.seed() + 1);
    long writtenBefore = e.bytesWrittenToFiles();
    probe.start(e);
    Histogram h = new Histogram(3);
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) {
      int p = r.nextInt(partitions);
      long seq = r.nextInt(rows);
      long t0 = System.nanoTime();
      e.put(p, seq, data.value(i + 1_000_003L));
      h.recordValue(System.nanoTime() - t0);
    }
    long nanos = System.nanoTime() - start;
    PhaseProbe.End end = probe.end(e, 0, false);
    e.flush();
    double userBytes = (double) n * BenchData.ROW_BYTES;
    double liveBytes = (double) fillOrder.length * BenchData.ROW_BYTES;
    return Run.of(
        "overwrite",
        engineName,
        n,
        nanos,
        h,
        userBytes / (1 << 20) / (nanos / 1e9),
        (e.bytesWrittenToFiles() - writtenBefore) / userBytes,
        e.diskBytes() / liveBytes,
        end,
        e.state());
  }

  /** Point reads of existing rows ({@code partitionOffset} 0) or of absent partitions. */
  private Run pointReads(BenchEngine e, String name, int partitionOffset) {
    int n = config.pointReads();
    SplittableRandom r = new SplittableRandom(config.seed() + 2 + partitionOffset);
    boolean expected = partitionOffset == 0;
    SplittableRandom wr = new SplittableRandom(config.seed() + 102 + partitionOffset);
    warm(n, () -> e.get(partitionOffset + wr.nextInt(partitions), wr.nextInt(rows)));
    probe.start(e);
    Histogram h = new Histogram(3);
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) {
      int p = partitionOffset + r.nextInt(partitions);
      long seq = r.nextInt(rows);
      long t0 = System.nanoTime();
      boolean found = e.get(p, seq);
      h.recordValue(System.nanoTime() - t0);
      if (found != expected) {
        throw new IllegalStateException(
            engineName + " " + name + ": row (" + p + ", " + seq + ") found=" + found);
      }
    }
    return reads(name, e, n, System.nanoTime() - start, h, true);
  }

  private Run latest(BenchEngine e) {
    int n = config.sliceReads();
    SplittableRandom r = new SplittableRandom(config.seed() + 3);
    SplittableRandom wr = new SplittableRandom(config.seed() + 103);
    warm(n, () -> e.readFirst(wr.nextInt(partitions), LATEST));
    probe.start(e);
    Histogram h = new Histogram(3);
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) {
      int p = r.nextInt(partitions);
      long t0 = System.nanoTime();
      int got = e.readFirst(p, LATEST);
      h.recordValue(System.nanoTime() - t0);
      check(got, Math.min(LATEST, rows), "latest50", p);
    }
    return reads("latest50", e, n, System.nanoTime() - start, h, false);
  }

  /** One thread reads existing rows while another inserts new rows as fast as it can. */
  private Run readWhileWriting(BenchEngine e) {
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong written = new AtomicLong();
    Thread writer =
        new Thread(
            () -> {
              SplittableRandom w = new SplittableRandom(config.seed() + 4);
              long i = 0;
              while (!stop.get()) {
                e.put(w.nextInt(partitions), rows + i, data.value(i));
                i++;
              }
              written.set(i);
            },
            "bench-readwhilewriting-writer");
    int n = config.readWhileWritingReads();
    SplittableRandom r = new SplittableRandom(config.seed() + 5);
    probe.start(e);
    Histogram h = new Histogram(3);
    AtomicReference<Throwable> writerFailure = new AtomicReference<>();
    writer.setUncaughtExceptionHandler((th, ex) -> writerFailure.set(ex));
    writer.start();
    long start = System.nanoTime();
    try {
      for (int i = 0; i < n; i++) {
        int p = r.nextInt(partitions);
        long seq = r.nextInt(rows);
        long t0 = System.nanoTime();
        boolean found = e.get(p, seq);
        h.recordValue(System.nanoTime() - t0);
        if (!found) {
          throw new IllegalStateException(engineName + " readwhilewriting missed " + p);
        }
      }
    } finally {
      stop.set(true);
      join(writer);
    }
    long nanos = System.nanoTime() - start;
    if (writerFailure.get() != null) {
      throw new IllegalStateException("readwhilewriting writer failed", writerFailure.get());
    }
    return reads("readwhilewriting", e, n, nanos, h, true)
        .withWriterOpsPerSec(written.get() * 1e9 / nanos);
  }

  /**
   * The queue pattern: per partition insert 1,000 rows, delete the oldest 990 (row by row, or with
   * one range tombstone), flush, then read the head: the 10 live rows behind the tombstones.
   */
  private Run queue(String name, boolean rangeDelete) {
    Path dir = BenchDirs.create(config.dataDir(), engineName + "-" + name + "-");
    probe = new PhaseProbe(HeapMeter.liveBytes());
    BenchEngine e = opener.apply(dir, BenchEngine.Layout.OLDEST_FIRST);
    try {
      int queues = config.queuePartitions();
      long v = 0;
      for (int q = 0; q < queues; q++) {
        for (int s = 0; s < QUEUE_ROWS; s++) {
          e.put(q, s, data.value(v++));
        }
        if (rangeDelete) {
          e.deleteRange(q, 0, QUEUE_DELETED);
        } else {
          for (int s = 0; s < QUEUE_DELETED; s++) {
            e.delete(q, s);
          }
        }
      }
      e.flush();
      int n = config.queueReads();
      SplittableRandom r = new SplittableRandom(config.seed() + 6);
      SplittableRandom wr = new SplittableRandom(config.seed() + 106);
      warm(n, () -> e.readFirst(wr.nextInt(queues), QUEUE_LIVE));
      probe.start(e);
      Histogram h = new Histogram(3);
      long start = System.nanoTime();
      for (int i = 0; i < n; i++) {
        int q = r.nextInt(queues);
        long t0 = System.nanoTime();
        int got = e.readFirst(q, QUEUE_LIVE);
        h.recordValue(System.nanoTime() - t0);
        check(got, QUEUE_LIVE, name, q);
      }
      return reads(name, e, n, System.nanoTime() - start, h, false);
    } finally {
      e.close();
      BenchDirs.delete(dir);
    }
  }

  /**
   * Before a timed read phase of {@code n} operations, {@code n / 2} of the same kind, untimed
   * (other keys, same distribution), unless warm-up is off: the phase then measures both engines
   * with their read code compiled and their caches holding what the phase reads, not the JIT
   * compiling Talus's read path (a JVM engine's warm-up) inside a phase of a second or less.
   */
  private void warm(int n, Runnable op) {
    if (!config.warmup()) {
      return;
    }
    for (int i = 0; i < n / 2; i++) {
      op.run();
    }
  }

  private Run reads(String name, BenchEngine e, long n, long nanos, Histogram h, boolean gets) {
    PhaseProbe.End end = probe.end(e, n, gets);
    return Run.of(
        name, engineName, n, nanos, h, Double.NaN, Double.NaN, Double.NaN, end, end.state());
  }

  private void check(int got, int want, String name, int partition) {
    if (got != want) {
      throw new IllegalStateException(
          engineName
              + " "
              + name
              + ": partition "
              + partition
              + " gave "
              + got
              + " rows, not "
              + want);
    }
  }

  private static Histogram merge(Histogram[] hs) {
    Histogram all = new Histogram(3);
    for (Histogram h : hs) {
      all.add(h);
    }
    return all;
  }

  /** Starts and joins the threads; rethrows the first failure of any of them. */
  private static void runAll(Thread[] threads) {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    for (Thread t : threads) {
      t.setUncaughtExceptionHandler((th, ex) -> failure.compareAndSet(null, ex));
      t.start();
    }
    for (Thread t : threads) {
      join(t);
    }
    if (failure.get() != null) {
      throw new IllegalStateException("a writer thread failed", failure.get());
    }
  }

  private static void join(Thread t) {
    try {
      t.join();
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for " + t.getName(), ex);
    }
  }
}
