package dev.talus.bench;

import dev.talus.ClusteringOrder;
import dev.talus.ResultRow;
import dev.talus.Table;
import java.util.Optional;
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
 * Reading one row by full primary key from SSTables (1,000 partitions × 100 rows, flushed, memtable
 * empty): a row that exists ({@code hit}) and a row of a partition that does not ({@code
 * missingPartition}, which the Bloom filter should answer). {@code cacheMiB} sizes the chunk cache:
 * 256 holds every chunk; 4 holds about a third of the 12 MB of rows, so most reads decompress.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class PointReadBenchmark {
  private static final int PARTITIONS = 1_000;
  private static final int ROWS = 100;

  @Param({"256", "4"})
  public int cacheMiB;

  private TalusFixture fixture;
  private Table table;

  @Setup(Level.Trial)
  public void open() {
    fixture = TalusFixture.withCache("point-read", 256L << 20, (long) cacheMiB << 20);
    table = fixture.table("rows", ClusteringOrder.ASC);
    fixture.fill(table, PARTITIONS, ROWS);
    table.flush();
  }

  @TearDown(Level.Trial)
  public void close() {
    fixture.close();
  }

  @Benchmark
  public Optional<ResultRow> hit() {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    return table.select().eq("p", r.nextInt(PARTITIONS)).eq("seq", (long) r.nextInt(ROWS)).one();
  }

  @Benchmark
  public Optional<ResultRow> missingPartition() {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    return table
        .select()
        .eq("p", PARTITIONS + r.nextInt(PARTITIONS))
        .eq("seq", (long) r.nextInt(ROWS))
        .one();
  }
}
