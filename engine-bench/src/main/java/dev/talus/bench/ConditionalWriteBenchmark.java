package dev.talus.bench;

import dev.talus.ClusteringOrder;
import dev.talus.Condition;
import dev.talus.Table;
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
 * What a conditional write costs over a plain one, on one table of 1,000 partitions × 10 rows held
 * in the memtable: a plain update of a row's value, the same update under {@code IF EXISTS}, and
 * under a condition on the value ({@code IF v != null}); both conditions hold, so every call
 * writes. The conditional ones add the partition lock, the read of the current row and the read of
 * its newest timestamp. Single-threaded ({@code Scope.Benchmark} state used by one thread).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class ConditionalWriteBenchmark {
  private static final int PARTITIONS = 1_000;
  private static final int ROWS = 10;

  private TalusFixture fixture;
  private Table table;
  private long next;
  private byte[] value;

  @Setup(Level.Trial)
  public void open() {
    fixture = new TalusFixture("conditional-write", 1L << 30);
    table = fixture.table("rows", ClusteringOrder.ASC);
    fixture.fill(table, PARTITIONS, ROWS);
    value = fixture.data.value(7);
  }

  @TearDown(Level.Trial)
  public void close() {
    fixture.close();
  }

  private long nextRow() {
    return next++;
  }

  @Benchmark
  public void plainUpdate() {
    long n = nextRow();
    table
        .update()
        .where("p", (int) (n % PARTITIONS))
        .where("seq", (n / PARTITIONS) % ROWS)
        .set("v", value)
        .execute();
  }

  @Benchmark
  public boolean updateIfExists() {
    long n = nextRow();
    return table
        .update()
        .where("p", (int) (n % PARTITIONS))
        .where("seq", (n / PARTITIONS) % ROWS)
        .set("v", value)
        .ifExists()
        .executeConditional()
        .applied();
  }

  @Benchmark
  public boolean compareAndSet() {
    long n = nextRow();
    return table
        .update()
        .where("p", (int) (n % PARTITIONS))
        .where("seq", (n / PARTITIONS) % ROWS)
        .set("v", value)
        .onlyIf(Condition.ne("v", null))
        .executeConditional()
        .applied();
  }
}
