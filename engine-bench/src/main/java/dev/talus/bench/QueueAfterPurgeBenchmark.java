package dev.talus.bench;

import dev.talus.ClusteringOrder;
import dev.talus.CompactionOptions;
import dev.talus.DataType;
import dev.talus.ManualClock;
import dev.talus.ResultSet;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import java.time.Duration;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The queue pattern's read before and after its tombstones are purged: 100 partitions of 1,000
 * rows, the oldest 990 of each deleted row by row, flushed. {@code before}: read the 10 live rows
 * through 990 tombstones (compacted once, so one SSTable, tombstones kept: gc_grace has not
 * passed). {@code after}: the manual clock jumps past gc_grace and a major compaction purges them.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class QueueAfterPurgeBenchmark {
  private static final int QUEUES = 100;

  @Param({"before", "after"})
  public String purge;

  private Path dir;
  private TalusDb db;
  private Table table;

  @Setup(Level.Trial)
  public void open() {
    dir = BenchDirs.create("queue-purge-");
    ManualClock clock = ManualClock.startingAtDefault();
    db = TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
    table =
        db.createTable(
            TableSchema.builder("queue")
                .partitionKey("q", DataType.INT)
                .clusteringColumn("seq", DataType.INT, ClusteringOrder.ASC)
                .column("payload", DataType.BLOB)
                .gcGrace(Duration.ofDays(10))
                .compaction(CompactionOptions.sizeTiered().build())
                .build());
    byte[] payload = new byte[100];
    for (int q = 0; q < QUEUES; q++) {
      for (int s = 0; s < 1_000; s++) {
        table.insert().value("q", q).value("seq", s).value("payload", payload).execute();
      }
    }
    table.flush();
    for (int q = 0; q < QUEUES; q++) {
      for (int s = 0; s < 990; s++) {
        table.delete().eq("q", q).eq("seq", s).execute();
      }
    }
    table.flush();
    table.compact();
    if (purge.equals("after")) {
      clock.advance(Duration.ofDays(10).plusSeconds(1));
      table.compact();
    }
    table.select().eq("q", 0).execute();
    int expectedTombstones = purge.equals("after") ? 0 : 990;
    if (table.lastReadTombstoneCount() != expectedTombstones || read().size() != 10) {
      throw new IllegalStateException("unexpected queue state " + table.lastReadTombstoneCount());
    }
  }

  @TearDown(Level.Trial)
  public void close() {
    try {
      db.close();
    } finally {
      BenchDirs.delete(dir);
    }
  }

  @Benchmark
  public ResultSet read() {
    return table.select().eq("q", ThreadLocalRandom.current().nextInt(QUEUES)).execute();
  }
}
