package dev.talus.bench;

import dev.talus.DataType;
import dev.talus.IndexDef;
import dev.talus.IndexStatus;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TableStats;
import java.util.SplittableRandom;
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
 * What storage-attached indexes cost flushes and compactions: a table {@code (p int, c int, a text,
 * b bigint, d text, v text)} — 100 partitions × 200 rows, {@code a} one of 100 values, {@code b}
 * random, {@code d} one of 10,000, {@code v} 100 bytes — with {@code indexes} = 0, 1 ({@code a}) or
 * 3 ({@code a}, {@code b}, {@code d}) indexes. {@code op = flush}: one flush of the 20,000 rows;
 * {@code op = compact}: one major compaction of 4 SSTables of 5,000 rows each. Each invocation gets
 * a new table, filled before the clock starts; {@code buffer} is the index write buffer ({@code -p
 * buffer=65536} makes every flush and compaction spill its index terms to runs). At the end of the
 * trial it prints the last table's data and index bytes ({@code [index-size]}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 3)
@Measurement(iterations = 10)
public class IndexMaintenanceBenchmark {
  private static final int PARTITIONS = 100;
  private static final int ROWS = 200;
  private static final String[] COLUMNS = {"a", "b", "d"};

  @Param({"0", "1", "3"})
  public int indexes;

  @Param({"flush", "compact"})
  public String op;

  /**
   * Heap for the index terms of each SSTable written ({@code indexWriteBufferBytes}): the default,
   * 32 MiB, holds this table's terms; 64 KiB spills them to runs about fifty times per SSTable.
   */
  @Param({"33554432"})
  public long buffer;

  private TalusFixture fixture;
  private Table table;
  private int round;
  private final SplittableRandom random = new SplittableRandom(42);
  private final String pad = "v".repeat(100);

  @Setup(Level.Trial)
  public void open() {
    fixture = new TalusFixture("index-cost", 256L << 20, buffer);
  }

  @Setup(Level.Invocation)
  public void newTable() {
    if (table != null) {
      fixture.db.dropTable(table.name());
    }
    table =
        fixture.db.createTable(
            TableSchema.builder("t" + round++)
                .partitionKey("p", DataType.INT)
                .clusteringColumn("c", DataType.INT)
                .column("a", DataType.TEXT)
                .column("b", DataType.BIGINT)
                .column("d", DataType.TEXT)
                .column("v", DataType.TEXT)
                .build());
    for (int i = 0; i < indexes; i++) {
      table.createIndex(IndexDef.sai(table.name() + "_" + COLUMNS[i], COLUMNS[i]));
    }
    int parts = op.equals("flush") ? 1 : 4;
    for (int part = 0; part < parts; part++) {
      for (int c = part; c < ROWS; c += parts) {
        for (int p = 0; p < PARTITIONS; p++) {
          table
              .insert()
              .value("p", p)
              .value("c", c)
              .value("a", "a" + random.nextInt(100))
              .value("b", random.nextLong(1_000_000))
              .value("d", "d" + random.nextInt(10_000))
              .value("v", pad)
              .execute();
        }
      }
      if (op.equals("compact")) {
        table.flush();
      }
    }
  }

  @Benchmark
  public void run() {
    if (op.equals("flush")) {
      table.flush();
    } else {
      table.compact();
    }
  }

  @TearDown(Level.Trial)
  public void close() {
    TableStats s = table.stats();
    long index = 0;
    long rowKeys = 0;
    for (IndexStatus i : s.indexes()) {
      index += i.diskBytes();
      rowKeys = i.rowKeyMapBytes();
    }
    System.out.printf(
        "[index-size] op=%s indexes=%d sstables=%d data=%d dictionaries=%d rowKeyMap=%d%n",
        op, indexes, s.sstableCount(), s.liveDiskBytes(), index, rowKeys);
    fixture.close();
  }
}
