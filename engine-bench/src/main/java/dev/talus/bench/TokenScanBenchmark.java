package dev.talus.bench;

import dev.talus.Compression;
import dev.talus.DataType;
import dev.talus.ResultRow;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * YCSB workload E's scan on its own: 100 partitions in token order from a random token, of a table
 * shaped like YCSB's {@code usertable} (a text key, ten 100-byte blob fields; 100,000 records, all
 * flushed into SSTables or all in the memtable). {@code scanAllFields} reads every field of every
 * row as the YCSB binding does; {@code scanKeysOnly} iterates the same rows and reads only the key,
 * so the difference is the cost of materializing the fields.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 5, time = 4)
@Measurement(iterations = 5, time = 3)
public class TokenScanBenchmark {
  private static final int RECORDS = 100_000;
  private static final int FIELDS = 10;
  private static final int SCAN = 100;

  /** Where the rows are: {@code sstables} (flushed) or {@code memtable}. */
  @Param({"sstables", "memtable"})
  public String source;

  private TalusFixture fixture;
  private Table table;
  private String[] fields;

  @Setup(Level.Trial)
  public void open() {
    fixture = new TalusFixture("tokenscan", 512L << 20);
    TableSchema.Builder b =
        TableSchema.builder("usertable")
            .partitionKey("ycsb_key", DataType.TEXT)
            .compression(Compression.LZ4)
            .bloomFilterFpChance(0.01);
    fields = new String[FIELDS];
    for (int i = 0; i < FIELDS; i++) {
      fields[i] = "field" + i;
      b.column(fields[i], DataType.BLOB);
    }
    table = fixture.db.createTable(b.build());
    for (int r = 0; r < RECORDS; r++) {
      var insert = table.insert().value("ycsb_key", "user" + r);
      for (int i = 0; i < FIELDS; i++) {
        insert.value(fields[i], fixture.data.value(r * 31L + i));
      }
      insert.execute();
    }
    if (source.equals("sstables")) {
      table.flush();
    }
  }

  @TearDown(Level.Trial)
  public void close() {
    fixture.close();
  }

  @Benchmark
  public void scanAllFields(Blackhole bh) {
    for (ResultRow row : scan()) {
      for (String f : fields) {
        bh.consume(row.getBytes(f));
      }
    }
  }

  @Benchmark
  public void scanKeysOnly(Blackhole bh) {
    for (ResultRow row : scan()) {
      bh.consume(row.getString("ycsb_key"));
    }
  }

  private Iterable<ResultRow> scan() {
    long from = ThreadLocalRandom.current().nextLong();
    return table.select().tokenGe(from).limit(SCAN).execute();
  }
}
