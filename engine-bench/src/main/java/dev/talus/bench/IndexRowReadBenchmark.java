package dev.talus.bench;

import dev.talus.DataType;
import dev.talus.IndexDef;
import dev.talus.ResultSet;
import dev.talus.Table;
import dev.talus.TableSchema;
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
 * One index hit in a wide partition: a partition of 10,000 rows (100-byte values), flushed and
 * compacted, in which one row has {@code a = 'needle'}. {@code candidateRows} is the indexed read
 * as it runs, reading only the row its key names; {@code wholePartition} is the same read with a
 * clustering restriction that matches every row ({@code c >= 0}), which makes the indexed read take
 * its whole-partition path (the partition read with the filter). Average time per query.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class IndexRowReadBenchmark {
  private static final int ROWS = 10_000;

  private TalusFixture fixture;
  private Table table;

  @Setup(Level.Trial)
  public void open() {
    fixture = new TalusFixture("index-rows", 256L << 20);
    table =
        fixture.db.createTable(
            TableSchema.builder("wide")
                .partitionKey("p", DataType.INT)
                .clusteringColumn("c", DataType.INT)
                .column("a", DataType.TEXT)
                .column("v", DataType.TEXT)
                .build());
    table.createIndex(IndexDef.sai("wide_a", "a"));
    String pad = "x".repeat(100);
    for (int c = 0; c < ROWS; c++) {
      String a = c == ROWS / 2 ? "needle" : "hay" + (c % 100);
      table.insert().value("p", 0).value("c", c).value("a", a).value("v", pad).execute();
    }
    table.flush();
    table.compact();
  }

  @TearDown(Level.Trial)
  public void close() {
    fixture.close();
  }

  @Benchmark
  public ResultSet candidateRows() {
    return table.select().eq("a", "needle").execute();
  }

  @Benchmark
  public ResultSet wholePartition() {
    return table.select().eq("a", "needle").ge("c", 0).allowFiltering().execute();
  }
}
