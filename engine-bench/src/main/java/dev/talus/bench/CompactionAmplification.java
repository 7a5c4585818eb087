package dev.talus.bench;

import dev.talus.ClusteringOrder;
import dev.talus.CompactionOptions;
import dev.talus.Table;
import dev.talus.TableStats;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/**
 * The same overwrite-heavy ingest under size-tiered, leveled and time-window compaction, printed as
 * one table: write amplification ((bytes flushed + bytes written by compaction) ÷ user bytes),
 * space amplification (live SSTable bytes ÷ bytes of the distinct live rows), SSTables (and
 * memtables) merged per point read (p50/p99), ingest rate and compaction work.
 *
 * <p>{@code java -cp engine-bench/target/benchmarks.jar dev.talus.bench.CompactionAmplification
 * [rows] [distinct rows]} — defaults 2,000,000 rows over 500,000 distinct rows. User bytes per row:
 * a 4-byte partition key, an 8-byte clustering key and a 100-byte value.
 */
public final class CompactionAmplification {
  static final int ROW_BYTES = 4 + 8 + 100;

  private CompactionAmplification() {}

  public static void main(String[] args) {
    long rows = args.length > 0 ? Long.parseLong(args[0]) : 2_000_000;
    int distinct = args.length > 1 ? Integer.parseInt(args[1]) : 500_000;
    run(rows, distinct, System.out);
  }

  static Map<String, CompactionOptions> strategies() {
    Map<String, CompactionOptions> s = new LinkedHashMap<>();
    s.put("STCS", CompactionOptions.sizeTiered().build());
    s.put("LCS", CompactionOptions.leveled().sstableSizeBytes(8L << 20).build());
    s.put("TWCS", CompactionOptions.timeWindow().windowUnit(ChronoUnit.MINUTES).build());
    return s;
  }

  static void run(long rows, int distinct, PrintStream out) {
    out.printf(
        "%d rows (%d distinct) of %d user bytes, memtable space 32 MiB, LZ4%n",
        rows, distinct, ROW_BYTES);
    out.printf(
        "%-5s %10s %9s %9s %12s %12s %10s %9s%n",
        "",
        "ingest/s",
        "write-amp",
        "space-amp",
        "reads p50",
        "reads p99",
        "compacted",
        "sstables");
    for (Map.Entry<String, CompactionOptions> e : strategies().entrySet()) {
      Path dir = BenchDirs.create("amp-" + e.getKey() + "-");
      try (TalusDb db =
          TalusDb.open(
              TalusOptions.builder(dir)
                  .memtableSpaceBytes(32L << 20)
                  .compactionThreads(1)
                  .build())) {
        Table t = db.createTable(BenchData.schema("amp", ClusteringOrder.ASC, e.getValue()));
        BenchData data = new BenchData(1);
        Random rnd = new Random(42);
        long start = System.nanoTime();
        for (long i = 0; i < rows; i++) {
          int k = rnd.nextInt(distinct);
          t.insert()
              .value("p", k / 50)
              .value("seq", (long) (k % 50))
              .value("v", data.value(i))
              .execute();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        t.flush();
        t.awaitCompactions();
        for (int i = 0; i < 20_000; i++) {
          int k = rnd.nextInt(distinct);
          t.select().eq("p", k / 50).eq("seq", (long) (k % 50)).execute();
        }
        TableStats s = t.stats();
        double user = (double) rows * ROW_BYTES;
        double writeAmp = (s.bytesFlushed() + s.bytesCompactedWritten()) / user;
        double spaceAmp = s.liveDiskBytes() / ((double) distinct * ROW_BYTES);
        out.printf(
            "%-5s %10.0f %9.2f %9.2f %12d %12d %10d %9d%n",
            e.getKey(),
            rows / seconds,
            writeAmp,
            spaceAmp,
            s.sstablesPerRead().p50(),
            s.sstablesPerRead().p99(),
            s.completedCompactions(),
            s.sstableCount());
      } finally {
        BenchDirs.delete(dir);
      }
    }
    out.println(
        "space-amp counts compressed bytes on disk against uncompressed user bytes, so values"
            + " below 1 mean compression won; reads = sources merged per partition read");
  }
}
