package dev.talus.bench;

import dev.talus.CollectionThresholds;
import dev.talus.DataType;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Writing to a non-frozen {@code set<text>} of 10,000 partitions: adding one element ({@code
 * appendElement}, an UPDATE {@code tags = tags + {…}}: one cell, no tombstone) against replacing
 * the whole value with 10 elements ({@code overwriteWhole}, an INSERT: a collection tombstone at
 * the write's timestamp − 1 plus ten cells, so every overwrite leaves one tombstone behind that
 * reads scan until gc_grace has passed and a compaction purges it). A fresh database per iteration,
 * the collection guardrails off; nothing is flushed while measuring (512 MiB of memtable).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class CollectionWriteBenchmark {
  static final int PARTITIONS = 10_000;
  static final Set<String> TEN = Set.of("t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9");

  private Path dir;
  private TalusDb db;
  private Table table;

  @Setup(Level.Iteration)
  public void open() {
    dir = BenchDirs.create("collection-write-");
    db =
        TalusDb.open(
            TalusOptions.builder(dir)
                .memtableSpaceBytes(512L << 20)
                .collectionThresholds(CollectionThresholds.OFF)
                .build());
    table =
        db.createTable(
            TableSchema.builder("videos")
                .partitionKey("video_id", DataType.INT)
                .column("tags", DataType.set(DataType.TEXT))
                .build());
  }

  @TearDown(Level.Iteration)
  public void close() {
    try {
      db.close();
    } finally {
      BenchDirs.delete(dir);
    }
  }

  @Benchmark
  public void appendElement() {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    table
        .update()
        .where("video_id", r.nextInt(PARTITIONS))
        .add("tags", Set.of("t" + r.nextInt(1_000)))
        .execute();
  }

  @Benchmark
  public void overwriteWhole() {
    table
        .insert()
        .value("video_id", ThreadLocalRandom.current().nextInt(PARTITIONS))
        .value("tags", TEN)
        .execute();
  }
}
