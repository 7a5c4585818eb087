package dev.talus.bench;

import dev.talus.ClusteringOrder;
import dev.talus.Table;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * Flushing a memtable of {@code shape} = partitions × rows (100-byte values) to an SSTable: LZ4
 * chunks, index, Bloom filter, fsync and rename. Before each flush (not timed) the memtable is
 * refilled with new rows. The {@code userBytes} counter is user data (4 + 8 + 100 bytes a row)
 * flushed per second: divide by 2^20 for MB/s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class FlushBenchmark {
  @Param({"100x1000", "10000x10"})
  public String shape;

  private TalusFixture fixture;
  private Table table;
  private int partitions;
  private int rows;
  private long round;

  /** Bytes of user data flushed, reported per second. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Flushed {
    public long userBytes;
  }

  @Setup(Level.Trial)
  public void open() {
    String[] pr = shape.split("x");
    partitions = Integer.parseInt(pr[0]);
    rows = Integer.parseInt(pr[1]);
    fixture = new TalusFixture("flush", 1L << 30);
    table = fixture.table("rows", ClusteringOrder.ASC);
  }

  @Setup(Level.Invocation)
  public void fillMemtable() {
    long base = round++ * rows;
    for (int r = 0; r < rows; r++) {
      for (int p = 0; p < partitions; p++) {
        fixture.insert(table, p, base + r);
      }
    }
  }

  @TearDown(Level.Trial)
  public void close() {
    fixture.close();
  }

  @Benchmark
  public void flushMemtable(Flushed flushed) {
    table.flush();
    flushed.userBytes += (long) partitions * rows * BenchData.ROW_BYTES;
  }
}
