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
 * The queue pattern: each of 100 partitions got 1,000 rows, then its oldest 990 were deleted; read
 * the 10 live rows from SSTables (flushed; no compaction yet, so the tombstones are all there).
 * Deleted row by row ({@code behind990RowTombstones}) or with one range tombstone ({@code
 * behindOneRangeTombstone}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class TombstoneReadBenchmark {
  private static final int QUEUES = 100;
  private static final int ROWS = 1_000;
  private static final int DELETED = 990;

  private TalusFixture fixture;
  private Table rowDeletes;
  private Table rangeDelete;

  @Setup(Level.Trial)
  public void open() {
    fixture = new TalusFixture("tombstone-read", 256L << 20);
    rowDeletes = fixture.table("row_deletes", ClusteringOrder.ASC);
    rangeDelete = fixture.table("range_delete", ClusteringOrder.ASC);
    fixture.fill(rowDeletes, QUEUES, ROWS);
    fixture.fill(rangeDelete, QUEUES, ROWS);
    for (int q = 0; q < QUEUES; q++) {
      for (long s = 0; s < DELETED; s++) {
        rowDeletes.delete().eq("p", q).eq("seq", s).execute();
      }
      rangeDelete.delete().eq("p", q).lt("seq", (long) DELETED).execute();
    }
    rowDeletes.flush();
    rangeDelete.flush();
    if (behind990RowTombstones().size() != ROWS - DELETED
        || behindOneRangeTombstone().size() != ROWS - DELETED) {
      throw new IllegalStateException("the queue does not hold 10 live rows");
    }
  }

  @TearDown(Level.Trial)
  public void close() {
    fixture.close();
  }

  @Benchmark
  public ResultSet behind990RowTombstones() {
    return rowDeletes.select().eq("p", ThreadLocalRandom.current().nextInt(QUEUES)).execute();
  }

  @Benchmark
  public ResultSet behindOneRangeTombstone() {
    return rangeDelete.select().eq("p", ThreadLocalRandom.current().nextInt(QUEUES)).execute();
  }
}
