package dev.talus.bench;

import dev.talus.ClusteringOrder;
import dev.talus.Table;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 * Inserting one row (100-byte value) into the memtable through the public API, rows spread over
 * {@code partitions}. Each iteration starts on an empty database whose memtable space (1 GiB,
 * flushing at half) is not reached in an iteration, so no flush runs while measuring; there is no
 * commit log yet, so this is the whole write path today.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class MemtableInsertBenchmark {
  @Param({"10000"})
  public int partitions;

  private TalusFixture fixture;
  private Table table;
  private final AtomicLong next = new AtomicLong();

  @Setup(Level.Iteration)
  public void open() {
    fixture = new TalusFixture("memtable-insert", 1L << 30);
    table = fixture.table("rows", ClusteringOrder.ASC);
    next.set(0);
  }

  @TearDown(Level.Iteration)
  public void close() {
    fixture.close();
  }

  @Benchmark
  public void insertRow() {
    long n = next.getAndIncrement();
    fixture.insert(table, (int) (n % partitions), n / partitions);
  }
}
