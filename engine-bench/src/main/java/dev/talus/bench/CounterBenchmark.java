package dev.talus.bench;

import dev.talus.DataType;
import dev.talus.Table;
import dev.talus.TableSchema;
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
 * Counter increments per second with 1, 2 and 4 writer threads, each incrementing a random counter
 * among {@code counters} (1: every thread on one counter, serialised by its partition's lock;
 * 10,000: little contention). An increment reads the current total, logs and applies the new one
 * under the partition's lock (docs/data-modeling.md, counters); PERIODIC commit-log sync.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class CounterBenchmark {
  @Param({"1", "10000"})
  public int counters;

  private Path dir;
  private TalusDb db;
  private Table table;

  @Setup(Level.Trial)
  public void open() {
    dir = BenchDirs.create("counter-");
    db = TalusDb.open(TalusOptions.builder(dir).memtableSpaceBytes(256L << 20).build());
    table =
        db.createTable(
            TableSchema.builder("video_views")
                .partitionKey("video_id", DataType.INT)
                .column("views", DataType.COUNTER)
                .build());
  }

  @TearDown(Level.Trial)
  public void close() {
    try {
      db.close();
    } finally {
      BenchDirs.delete(dir);
    }
  }

  private void increment() {
    int video = counters == 1 ? 0 : ThreadLocalRandom.current().nextInt(counters);
    table.update().where("video_id", video).increment("views", 1).execute();
  }

  @Benchmark
  @Threads(1)
  public void increment1Thread() {
    increment();
  }

  @Benchmark
  @Threads(2)
  public void increment2Threads() {
    increment();
  }

  @Benchmark
  @Threads(4)
  public void increment4Threads() {
    increment();
  }
}
