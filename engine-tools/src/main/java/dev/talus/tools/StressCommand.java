package dev.talus.tools;

import dev.talus.CommitLogSync;
import dev.talus.DataType;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TableStats;
import dev.talus.TalusDb;
import dev.talus.TalusException;
import dev.talus.TalusOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code talus stress DIR}: a cassandra-stress-like workload against a table {@code stress(key
 * bigint, row int, value blob, PRIMARY KEY ((key), row))}.
 *
 * <p>With a rate, each thread runs on a fixed schedule and latency is measured from the time an
 * operation was due, not when it started, so a stall is not hidden by the operations it delayed
 * (coordinated omission). Without a rate, latency is the service time.
 */
@Command(
    name = "stress",
    mixinStandardHelpOptions = true,
    version = TalusCli.VERSION,
    description = {
      "Run a write, read or mixed workload and print ops/s and latency percentiles each second,"
          + " then a summary.",
      "Table: stress(key bigint, row int, value blob, PRIMARY KEY ((key), row)). Creates the"
          + " directory and table for write/mixed; read needs a previous write run.",
      "Writes first fill every row of the key space once, in key order, then overwrite random"
          + " rows; a read run then chooses among the rows the table holds (so a short write run"
          + " is followed by reads that find their rows)."
    })
public final class StressCommand implements Callable<Integer> {
  /** What each operation is. */
  public enum Mode {
    WRITE,
    READ,
    MIXED
  }

  @Parameters(index = "0", paramLabel = "DIR", description = "The data directory.")
  Path dir;

  @Option(names = "--mode", defaultValue = "write", description = "write, read or mixed.")
  Mode mode;

  @Option(
      names = "--rate",
      defaultValue = "0",
      description = "Target operations per second over all threads; 0 = unlimited.")
  long rate;

  @Option(
      names = "--duration",
      defaultValue = "30s",
      converter = DurationConverter.class,
      description = "How long to run, e.g. 30s, 2m (default 30s).")
  Duration duration;

  @Option(
      names = "--ops",
      defaultValue = "0",
      description = "Stop after this many operations; 0 = only the duration limits the run.")
  long maxOps;

  @Option(names = "--threads", defaultValue = "4", description = "Client threads (default 4).")
  int threads;

  @Option(
      names = "--partitions",
      description =
          "Distinct partition keys (write and mixed: default 10000; read: default what the table"
              + " holds).")
  Long partitionsOption;

  @Option(
      names = "--rows-per-partition",
      description =
          "Clustering rows per partition (write and mixed: default 10; read: default what the"
              + " table holds).")
  Integer rowsOption;

  private long partitions;
  private int rowsPerPartition;

  @Option(
      names = "--value-size",
      defaultValue = "100",
      description = "Bytes per value (default 100).")
  int valueSize;

  @Option(
      names = "--read-ratio",
      defaultValue = "0.5",
      description = "Mixed mode: fraction of reads (default 0.5).")
  double readRatio;

  @Option(
      names = "--sync",
      defaultValue = "periodic",
      description = "Commit-log sync mode: periodic, group or batch (default periodic).")
  CommitLogSync sync;

  @Option(names = "--seed", defaultValue = "42", description = "Random seed (default 42).")
  long seed;

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  private final AtomicLong issued = new AtomicLong();
  private final AtomicLong errors = new AtomicLong();
  private final AtomicLong misses = new AtomicLong();
  private final AtomicLong written = new AtomicLong();
  private final AtomicReference<String> firstError = new AtomicReference<>();
  private volatile boolean stop;

  @Override
  public Integer call() throws InterruptedException {
    partitions = partitionsOption == null ? 10_000 : partitionsOption;
    rowsPerPartition = rowsOption == null ? 10 : rowsOption;
    validate();
    PrintWriter out = spec.commandLine().getOut();
    if (mode == Mode.READ) {
      DataDirs.requireExisting(dir);
    } else if (!java.nio.file.Files.exists(dir)) {
      out.println("creating " + dir);
    }
    TalusOptions options = TalusOptions.builder(dir).commitLogSync(sync).build();
    out.println("opening " + dir + " (replaying its commit log, if any)");
    out.flush();
    long opening = System.nanoTime();
    try (TalusDb db = open(options)) {
      out.printf(Locale.ROOT, "opened in %.1f s%n", (System.nanoTime() - opening) / 1e9);
      Table table;
      if (mode == Mode.READ) {
        table =
            db.findTable("stress")
                .orElseThrow(
                    () ->
                        new CliException(
                            ExitCodes.ERROR,
                            "no table 'stress' in "
                                + dir
                                + ": run 'talus stress "
                                + dir
                                + " --mode write' first"));
        readKeySpace(table, out);
      } else {
        table = db.createTableIfNotExists(schema());
      }
      out.printf(
          Locale.ROOT,
          "stress: mode=%s threads=%d rate=%s duration=%s ops=%s partitions=%d"
              + " rows/partition=%d value=%d B sync=%s%n",
          mode.name().toLowerCase(Locale.ROOT),
          threads,
          rate == 0 ? "unlimited" : rate + "/s",
          duration,
          maxOps == 0 ? "unlimited" : maxOps,
          partitions,
          rowsPerPartition,
          valueSize,
          sync.name().toLowerCase(Locale.ROOT));
      run(table, out);
    }
    out.flush();
    return errors.get() == 0 ? ExitCodes.OK : ExitCodes.ERROR;
  }

  private TalusDb open(TalusOptions options) {
    try {
      return TalusDb.open(options);
    } catch (dev.talus.DirectoryLockedException e) {
      throw new CliException(ExitCodes.LOCKED, e.getMessage());
    }
  }

  /**
   * Read mode: the key space defaults to what the table holds — write runs fill keys 0, 1, 2, … in
   * order, so the highest key present is found by a search, and partition 0 shows the rows per
   * partition. Then a sample of reads checks the key space and warns, with the flags, if most reads
   * would find nothing.
   */
  private void readKeySpace(Table table, PrintWriter out) {
    if (partitionsOption == null || rowsOption == null) {
      int rows0 = table.select().eq("key", 0L).execute().size();
      if (rows0 == 0) {
        throw new CliException(
            ExitCodes.ERROR,
            "the stress table in "
                + dir
                + " holds no rows: run 'talus stress "
                + dir
                + " --mode write' first");
      }
      if (rowsOption == null) {
        rowsPerPartition = rows0;
      }
      if (partitionsOption == null) {
        partitions = highestKey(table) + 1;
      }
      out.printf(
          Locale.ROOT,
          "read key space (found in the table): %d partition(s) x %d row(s)%n",
          partitions,
          rowsPerPartition);
    }
    SplittableRandom random = new SplittableRandom(seed - 1);
    int sample = 100;
    int missing = 0;
    for (int i = 0; i < sample; i++) {
      if (table
          .select()
          .eq("key", random.nextLong(partitions))
          .eq("row", random.nextInt(rowsPerPartition))
          .one()
          .isEmpty()) {
        missing++;
      }
    }
    if (missing > sample / 20) {
      out.println(missingWarning(missing * 100 / sample));
    }
  }

  private String missingWarning(long percent) {
    return "warning: about "
        + percent
        + "% of reads find no row: the table does not hold every row of the key space read"
        + " (--partitions "
        + partitions
        + " --rows-per-partition "
        + rowsPerPartition
        + "). Fill it first with 'talus stress "
        + dir
        + " --mode write --partitions "
        + partitions
        + " --rows-per-partition "
        + rowsPerPartition
        + " --ops "
        + partitions * rowsPerPartition
        + "', or read a smaller key space (leave out --partitions and --rows-per-partition to"
        + " read what the table holds)";
  }

  /** The highest partition key present, for tables filled in key order from 0 (0 is present). */
  private static long highestKey(Table table) {
    long present = 0;
    long absent = 1;
    while (!table.select().eq("key", absent).limit(1).execute().isEmpty()) {
      present = absent;
      absent = absent * 2;
    }
    while (absent - present > 1) {
      long mid = present + (absent - present) / 2;
      if (table.select().eq("key", mid).limit(1).execute().isEmpty()) {
        absent = mid;
      } else {
        present = mid;
      }
    }
    return present;
  }

  private void validate() {
    if (threads < 1
        || partitions < 1
        || rowsPerPartition < 1
        || valueSize < 0
        || rate < 0
        || maxOps < 0
        || !(readRatio >= 0 && readRatio <= 1)
        || duration.isNegative()
        || duration.isZero()) {
      throw new CliException(
          ExitCodes.USAGE,
          "stress needs threads, partitions and rows-per-partition >= 1, value-size, rate and ops"
              + " >= 0, read-ratio in [0, 1] and a positive duration");
    }
  }

  static TableSchema schema() {
    return TableSchema.builder("stress")
        .partitionKey("key", DataType.BIGINT)
        .clusteringColumn("row", DataType.INT)
        .column("value", DataType.BLOB)
        .build();
  }

  private void run(Table table, PrintWriter out) throws InterruptedException {
    Recorder recorder = new Recorder(3);
    Histogram total = new Histogram(3);
    long start = System.nanoTime();
    long deadline = start + duration.toNanos();
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      int id = i;
      Thread t = new Thread(() -> work(table, recorder, id, start, deadline), "talus-stress-" + i);
      t.setDaemon(true);
      workers.add(t);
      t.start();
    }
    out.printf(
        "%8s %10s %10s %10s %10s %10s %8s%n",
        "time(s)", "ops/s", "p50(µs)", "p95(µs)", "p99(µs)", "max(µs)", "errors");
    Histogram interval = null;
    long lastTick = start;
    int second = 0;
    while (workers.stream().anyMatch(Thread::isAlive)) {
      long nextTick = start + (second + 1) * 1_000_000_000L;
      while (System.nanoTime() < nextTick && workers.stream().anyMatch(Thread::isAlive)) {
        Thread.sleep(10);
      }
      if (System.nanoTime() < nextTick) {
        break; // finished mid-second: the summary covers the rest
      }
      second++;
      interval = recorder.getIntervalHistogram(interval);
      total.add(interval);
      long now = System.nanoTime();
      line(out, Integer.toString(second), interval, (now - lastTick) / 1e9);
      lastTick = now;
      out.flush();
    }
    for (Thread t : workers) {
      t.join();
    }
    long end = System.nanoTime();
    interval = recorder.getIntervalHistogram(interval);
    total.add(interval);
    double secs = (end - start) / 1e9;
    out.println();
    out.println("Summary");
    out.printf(Locale.ROOT, "  operations:  %d (errors: %d", total.getTotalCount(), errors.get());
    out.printf(mode == Mode.WRITE ? ")%n" : ", reads that found no row: %d)%n", misses.get());
    out.printf(Locale.ROOT, "  elapsed:     %.2f s%n", secs);
    out.printf(Locale.ROOT, "  throughput:  %.0f ops/s%n", total.getTotalCount() / secs);
    out.printf(
        Locale.ROOT,
        "  latency µs:  p50 %d, p95 %d, p99 %d, p99.9 %d, max %d%n",
        total.getValueAtPercentile(50),
        total.getValueAtPercentile(95),
        total.getValueAtPercentile(99),
        total.getValueAtPercentile(99.9),
        total.getMaxValue());
    TableStats s = table.stats();
    out.printf(
        "  table:       %d SSTable(s), %s on disk, %s in memtables, %d flushes, %d compactions%n",
        s.sstableCount(),
        Fmt.bytes(s.liveDiskBytes()),
        Fmt.bytes(s.memtableBytes()),
        s.flushes(),
        s.completedCompactions());
    if (firstError.get() != null) {
      out.println("  first error: " + firstError.get());
    }
    long reads = mode == Mode.READ ? total.getTotalCount() : 0;
    if (reads > 0 && misses.get() * 20 > reads) {
      out.println(missingWarning(misses.get() * 100 / reads));
    }
  }

  private void line(PrintWriter out, String label, Histogram h, double secs) {
    out.printf(
        Locale.ROOT,
        "%8s %10.0f %10d %10d %10d %10d %8d%n",
        label,
        h.getTotalCount() / secs,
        h.getValueAtPercentile(50),
        h.getValueAtPercentile(95),
        h.getValueAtPercentile(99),
        h.getMaxValue(),
        errors.get());
  }

  private void work(Table table, Recorder recorder, int id, long start, long deadline) {
    SplittableRandom random = new SplittableRandom(seed + id);
    byte[] value = new byte[valueSize];
    long intervalNanos = rate == 0 ? 0 : Math.max(1, threads * 1_000_000_000L / rate);
    long due = start + (rate == 0 ? 0 : random.nextLong(intervalNanos));
    while (!stop) {
      if (rate > 0) {
        long wait = due - System.nanoTime();
        if (wait > 0) {
          LockSupport.parkNanos(wait);
        }
      }
      long begin = System.nanoTime();
      if (begin >= deadline || (maxOps > 0 && issued.getAndIncrement() >= maxOps)) {
        stop = true;
        return;
      }
      boolean read = mode == Mode.READ || (mode == Mode.MIXED && random.nextDouble() < readRatio);
      long key = random.nextLong(partitions);
      int row = random.nextInt(rowsPerPartition);
      if (!read) {
        long seq = written.getAndIncrement(); // the first pass fills every row once, in order
        if (seq < partitions * rowsPerPartition) {
          key = seq / rowsPerPartition;
          row = (int) (seq % rowsPerPartition);
        }
      }
      try {
        if (read) {
          if (table.select().eq("key", key).eq("row", row).one().isEmpty()) {
            misses.incrementAndGet();
          }
        } else {
          random.nextBytes(value);
          table.insert().value("key", key).value("row", row).value("value", value).execute();
        }
      } catch (TalusException e) {
        errors.incrementAndGet();
        firstError.compareAndSet(null, e.toString());
      }
      long endNanos = System.nanoTime();
      long from = rate > 0 ? due : begin;
      recorder.recordValue(Math.max(1, (endNanos - from) / 1000));
      due += intervalNanos;
    }
  }
}
