package dev.talus.bench;

import dev.talus.ClusteringOrder;
import dev.talus.ResultRow;
import dev.talus.Table;
import dev.talus.cql.CqlResult;
import dev.talus.cql.PreparedCql;
import dev.talus.cql.TalusSession;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What CQL costs over the builder API, on the same table {@code rows(p int, seq bigint, v blob)}
 * (1,000 partitions × 100 rows, in the memtable, so that the engine's own work is small and the
 * layer's share shows): a point read and an insert through a prepared statement against the same
 * operation through the builder, and the preparation of a point-read statement (parse, name
 * resolution, typing: {@code prepareSelect} alternates two texts in a session that caches one
 * statement, so every call prepares).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class CqlBenchmark {
  private static final int PARTITIONS = 1_000;
  private static final int ROWS = 100;
  private static final String READ_A = "SELECT v FROM rows WHERE p = ? AND seq = ?";
  private static final String READ_B = "SELECT v FROM rows WHERE seq = ? AND p = ?";

  private TalusFixture fixture;
  private Table table;
  private PreparedCql read;
  private PreparedCql insert;
  private TalusSession uncached;
  private boolean flip;
  private long nextSeq = ROWS;

  @Setup(Level.Trial)
  public void open() {
    fixture = new TalusFixture("cql", 256L << 20);
    table = fixture.table("rows", ClusteringOrder.ASC);
    fixture.fill(table, PARTITIONS, ROWS);
    TalusSession cql = TalusSession.on(fixture.db);
    read = cql.prepare(READ_A);
    insert = cql.prepare("INSERT INTO rows (p, seq, v) VALUES (?, ?, ?)");
    uncached = TalusSession.builder(fixture.db).preparedCacheSize(1).build();
  }

  @TearDown(Level.Trial)
  public void close() {
    fixture.close();
  }

  @Benchmark
  public Optional<ResultRow> builderPointRead() {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    return table.select().eq("p", r.nextInt(PARTITIONS)).eq("seq", (long) r.nextInt(ROWS)).one();
  }

  @Benchmark
  public CqlResult cqlPreparedPointRead() {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    return read.execute(r.nextInt(PARTITIONS), (long) r.nextInt(ROWS));
  }

  @Benchmark
  public void builderInsert() {
    long seq = nextSeq++;
    int p = (int) (seq % PARTITIONS);
    table.insert().value("p", p).value("seq", seq).value("v", fixture.data.value(seq)).execute();
  }

  @Benchmark
  public CqlResult cqlPreparedInsert() {
    long seq = nextSeq++;
    return insert.execute((int) (seq % PARTITIONS), seq, fixture.data.value(seq));
  }

  @Benchmark
  public PreparedCql prepareSelect() {
    flip = !flip;
    return uncached.prepare(flip ? READ_A : READ_B);
  }
}
