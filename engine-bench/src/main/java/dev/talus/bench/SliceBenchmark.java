package dev.talus.bench;

import dev.talus.ClusteringOrder;
import dev.talus.ResultSet;
import dev.talus.Table;
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
 * Reading 50 rows of one partition from SSTables (all flushed): the latest 50 of a DESC-clustered
 * partition of 200 rows (1,000 partitions), a 50-row slice in the middle of one 100,000-row
 * partition, and the same slice reversed.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class SliceBenchmark {
  private static final int PARTITIONS = 1_000;
  private static final int ROWS = 200;
  private static final int WIDE_ROWS = 100_000;
  private static final int SLICE = 50;

  private TalusFixture fixture;
  private Table latest;
  private Table wide;

  @Setup(Level.Trial)
  public void open() {
    fixture = new TalusFixture("slice", 256L << 20);
    latest = fixture.table("latest", ClusteringOrder.DESC);
    wide = fixture.table("wide", ClusteringOrder.ASC);
    fixture.fill(latest, PARTITIONS, ROWS);
    fixture.fill(wide, 1, WIDE_ROWS);
    latest.flush();
    wide.flush();
  }

  @TearDown(Level.Trial)
  public void close() {
    fixture.close();
  }

  @Benchmark
  public ResultSet latest50() {
    return latest
        .select()
        .eq("p", ThreadLocalRandom.current().nextInt(PARTITIONS))
        .limit(SLICE)
        .execute();
  }

  @Benchmark
  public ResultSet middleSlice50Of100k() {
    long from = middle();
    return wide.select().eq("p", 0).ge("seq", from).lt("seq", from + SLICE).execute();
  }

  @Benchmark
  public ResultSet reversedMiddleSlice50Of100k() {
    long from = middle();
    return wide.select().eq("p", 0).ge("seq", from).lt("seq", from + SLICE).reversed().execute();
  }

  private static long middle() {
    return WIDE_ROWS / 2 - 5_000 + ThreadLocalRandom.current().nextInt(10_000);
  }
}
