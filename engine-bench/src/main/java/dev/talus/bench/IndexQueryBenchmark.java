package dev.talus.bench;

import dev.talus.DataType;
import dev.talus.IndexDef;
import dev.talus.ResultSet;
import dev.talus.Table;
import dev.talus.TableSchema;
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
 * One query — the 100 rows of one category among 100,000 rows (1,000 categories), all flushed and
 * compacted — three ways: through a storage-attached index on {@code category}, as a filtering scan
 * of the same table without an index, and from a denormalised second table partitioned by category.
 * Average time per query.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class IndexQueryBenchmark {
  private static final int ROWS = 100_000;
  private static final int CATEGORIES = 1_000;

  private TalusFixture fixture;
  private Table indexed;
  private Table plain;
  private Table byCategory;

  private static TableSchema items(String name) {
    return TableSchema.builder(name)
        .partitionKey("id", DataType.INT)
        .column("category", DataType.TEXT)
        .column("price", DataType.BIGINT)
        .build();
  }

  @Setup(Level.Trial)
  public void open() {
    fixture = new TalusFixture("index", 256L << 20);
    indexed = fixture.db.createTable(items("items_indexed"));
    indexed.createIndex(IndexDef.sai("items_by_category", "category"));
    plain = fixture.db.createTable(items("items_plain"));
    byCategory =
        fixture.db.createTable(
            TableSchema.builder("items_by_category")
                .partitionKey("category", DataType.TEXT)
                .clusteringColumn("id", DataType.INT)
                .column("price", DataType.BIGINT)
                .build());
    for (int i = 0; i < ROWS; i++) {
      String c = "c" + (i % CATEGORIES);
      long price = i * 7L % 10_000;
      for (Table t : new Table[] {indexed, plain}) {
        t.insert().value("id", i).value("category", c).value("price", price).execute();
      }
      byCategory.insert().value("category", c).value("id", i).value("price", price).execute();
    }
    for (Table t : new Table[] {indexed, plain, byCategory}) {
      t.flush();
      t.compact();
    }
  }

  @TearDown(Level.Trial)
  public void close() {
    fixture.close();
  }

  private static String category() {
    return "c" + ThreadLocalRandom.current().nextInt(CATEGORIES);
  }

  @Benchmark
  public ResultSet indexedEquality() {
    return indexed.select().eq("category", category()).execute();
  }

  @Benchmark
  public ResultSet filteringScan() {
    return plain.select().eq("category", category()).allowFiltering().execute();
  }

  @Benchmark
  public ResultSet denormalisedTable() {
    return byCategory.select().eq("category", category()).execute();
  }
}
