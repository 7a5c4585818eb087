package dev.talus.bench;

import dev.talus.ClusteringOrder;
import dev.talus.CommitLogSync;
import dev.talus.CompactionOptions;
import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Does group commit amortise the fsync? Measures this disk's single-writer fsync rate (4 KiB append
 * + force in a loop), then durable acknowledged writes/s in GROUP and BATCH mode with 1, 2, 4 and 8
 * writer threads, and prints each as a multiple of the fsync rate. Three repetitions; medians
 * reported.
 *
 * <p>{@code java -cp engine-bench/target/benchmarks.jar dev.talus.bench.GroupCommit [seconds]}
 */
public final class GroupCommit {
  private GroupCommit() {}

  public static void main(String[] args) throws Exception {
    double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 3;
    run(seconds, 3, System.out);
  }

  static void run(double seconds, int reps, PrintStream out) throws Exception {
    Path base = BenchDirs.create("group-commit-");
    try {
      List<Double> fsyncs = new ArrayList<>();
      for (int r = 0; r < reps; r++) {
        fsyncs.add(fsyncRate(base.resolve("probe-" + r), seconds));
      }
      double fsync = median(fsyncs);
      out.printf(
          "fsync rate (4 KiB append + force, 1 thread): median %.0f/s of %s%n", fsync, fsyncs);
      out.printf("%-6s %8s %14s %10s%n", "mode", "threads", "writes/s", "x fsync");
      for (CommitLogSync mode : new CommitLogSync[] {CommitLogSync.GROUP, CommitLogSync.BATCH}) {
        for (int threads : new int[] {1, 2, 4, 8}) {
          List<Double> rates = new ArrayList<>();
          for (int r = 0; r < reps; r++) {
            rates.add(
                durableWrites(
                    base.resolve(mode + "-" + threads + "-" + r), mode, threads, seconds));
          }
          double m = median(rates);
          out.printf("%-6s %8d %14.0f %9.1fx%n", mode, threads, m, m / fsync);
        }
      }
    } finally {
      BenchDirs.delete(base);
    }
  }

  static double median(List<Double> v) {
    List<Double> s = new ArrayList<>(v);
    s.sort(Double::compare);
    return s.get(s.size() / 2);
  }

  static double fsyncRate(Path file, double seconds) throws IOException {
    Files.createDirectories(file.getParent());
    ByteBuffer block = ByteBuffer.allocate(4096);
    long n = 0;
    long end = System.nanoTime() + (long) (seconds * 1e9);
    long start = System.nanoTime();
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
      while (System.nanoTime() < end) {
        block.clear();
        ch.write(block);
        ch.force(false);
        n++;
      }
    }
    Files.deleteIfExists(file);
    return n / ((System.nanoTime() - start) / 1e9);
  }

  static double durableWrites(Path dir, CommitLogSync mode, int threads, double seconds)
      throws InterruptedException {
    BenchData data = new BenchData(3);
    try (TalusDb db =
        TalusDb.open(
            TalusOptions.builder(dir)
                .commitLogSync(mode)
                .commitLogGroupWindow(Duration.ofMillis(2))
                .build())) {
      Table t =
          db.createTable(BenchData.schema("gc", ClusteringOrder.ASC, CompactionOptions.defaults()));
      LongAdder done = new LongAdder();
      AtomicBoolean stop = new AtomicBoolean();
      List<Thread> writers = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        Thread w =
            new Thread(
                () -> {
                  ThreadLocalRandom r = ThreadLocalRandom.current();
                  while (!stop.get()) {
                    long seq = r.nextLong(1 << 20);
                    t.insert()
                        .value("p", r.nextInt(1000))
                        .value("seq", seq)
                        .value("v", data.value(seq))
                        .execute();
                    done.increment();
                  }
                });
        writers.add(w);
      }
      long start = System.nanoTime();
      writers.forEach(Thread::start);
      Thread.sleep((long) (seconds * 1000));
      stop.set(true);
      for (Thread w : writers) {
        w.join();
      }
      return done.sum() / ((System.nanoTime() - start) / 1e9);
    } finally {
      BenchDirs.delete(dir);
    }
  }
}
