package dev.talus.bench;

import dev.talus.ClusteringOrder;
import dev.talus.CompactionOptions;
import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import java.time.temporal.ChronoUnit;
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
 * Compaction throughput per strategy: each invocation builds 8 SSTables of overlapping data ({@code
 * mib} MiB of user data in all; half of it overwritten), then times one major compaction. The
 * {@code mibRead}/{@code mibWritten} counters divided by the score give MB/s in and out.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
public class CompactionBenchmark {
  @Param({"STCS", "LCS", "TWCS"})
  public String strategy;

  /** User data per invocation; raise for NVMe runs (-p mib=1024). */
  @Param({"64"})
  public int mib;

  private Path dir;
  private TalusDb db;
  private Table table;

  /** Bytes moved by the measured compaction, reported per invocation. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Moved {
    public double mibRead;
    public double mibWritten;
  }

  private CompactionOptions options() {
    return switch (strategy) {
      case "LCS" -> CompactionOptions.leveled().sstableSizeBytes(16L << 20).build();
      case "TWCS" -> CompactionOptions.timeWindow().windowUnit(ChronoUnit.DAYS).build();
      default -> CompactionOptions.sizeTiered().build();
    };
  }

  @Setup(Level.Invocation)
  public void fill() {
    dir = BenchDirs.create("compaction-" + strategy + "-");
    db =
        TalusDb.open(
            TalusOptions.builder(dir)
                .backgroundCompaction(false)
                .memtableSpaceBytes(512L << 20)
                .build());
    table = db.createTable(BenchData.schema("c", ClusteringOrder.ASC, options()));
    BenchData data = new BenchData(5);
    long rows = ((long) mib << 20) / 112;
    long perTable = rows / 8;
    for (int f = 0; f < 8; f++) {
      for (long i = 0; i < perTable; i++) {
        long k = (f % 2 == 0) ? f * perTable + i : (f - 1) * perTable + i; // odd files overwrite
        table
            .insert()
            .value("p", (int) (k / 100))
            .value("seq", k % 100)
            .value("v", data.value(k))
            .execute();
      }
      table.flush();
    }
  }

  @TearDown(Level.Invocation)
  public void close() {
    try {
      db.close();
    } finally {
      BenchDirs.delete(dir);
    }
  }

  @Benchmark
  public void majorCompaction(Moved moved) {
    long read0 = table.stats().bytesCompactedRead();
    long written0 = table.stats().bytesCompactedWritten();
    table.compact();
    moved.mibRead += (table.stats().bytesCompactedRead() - read0) / (double) (1 << 20);
    moved.mibWritten += (table.stats().bytesCompactedWritten() - written0) / (double) (1 << 20);
  }
}
