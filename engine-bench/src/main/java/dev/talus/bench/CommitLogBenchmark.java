package dev.talus.bench;

import dev.talus.ClusteringOrder;
import dev.talus.CommitLogSync;
import dev.talus.CompactionOptions;
import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Acknowledged writes (one 100-byte row each) through the commit log per sync mode, with 1, 2 and 4
 * writer threads. Throughput mode gives writes/s; run with {@code -bm sample} for latency
 * percentiles. Data goes under {@code -Dtalus.bench.dir} (point it at the disk you care about).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class CommitLogBenchmark {
  @Param({"PERIODIC", "GROUP", "BATCH"})
  public String sync;

  private Path dir;
  private TalusDb db;
  private Table table;
  private final BenchData data = new BenchData(7);

  @Setup(Level.Trial)
  public void open() {
    dir = BenchDirs.create("commitlog-" + sync + "-");
    db =
        TalusDb.open(
            TalusOptions.builder(dir)
                .commitLogSync(CommitLogSync.valueOf(sync))
                .memtableSpaceBytes(256L << 20)
                .build());
    table =
        db.createTable(BenchData.schema("log", ClusteringOrder.ASC, CompactionOptions.defaults()));
  }

  @TearDown(Level.Trial)
  public void close() {
    try {
      db.close();
    } finally {
      BenchDirs.delete(dir);
    }
  }

  private void write() {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    int p = r.nextInt(10_000);
    long seq = r.nextLong(1_000_000);
    table.insert().value("p", p).value("seq", seq).value("v", data.value(seq)).execute();
  }

  @Benchmark
  @Threads(1)
  public void append1Thread() {
    write();
  }

  @Benchmark
  @Threads(2)
  public void append2Threads() {
    write();
  }

  @Benchmark
  @Threads(4)
  public void append4Threads() {
    write();
  }
}
