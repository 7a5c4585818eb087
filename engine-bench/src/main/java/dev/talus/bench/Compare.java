package dev.talus.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the same workloads on Talus and on RocksDB in one process, alternating engines, with the
 * same data from the same seed, and writes a console table, {@code <out>/results.json} and {@code
 * <out>/ratios.png}.
 *
 * <pre>
 * java -cp engine-bench/target/benchmarks.jar dev.talus.bench.Compare [--scale N] [--reps N]
 *     [--workloads W,...] [--durability D] [--compaction C] [--dir DIR [--create-dir]]
 *     [--out DIR] [--seed N] [--no-warmup]
 * java -cp engine-bench/target/benchmarks.jar dev.talus.bench.Compare --help
 * </pre>
 *
 * <p>Not thread-safe; one run per process is the intended use.
 */
public final class Compare {
  /** Known differences between the two set-ups, printed and written with every result. */
  static final List<String> KNOWN_DIFFERENCES =
      List.of(
          "Durability: WAL_NO_SYNC = RocksDB WAL with sync=false vs Talus commit log PERIODIC"
              + " (fsync every 10 s); PER_WRITE_SYNC = RocksDB sync=true vs Talus GROUP commit"
              + " (2 ms window, which a lone writer waits out); PER_WRITE_SYNC_BATCH = RocksDB"
              + " sync=true vs Talus BATCH (an fsync as soon as the last ends). All survive a"
              + " killed process; only the per-write ones survive power loss.",
          "Compaction: leveled on both (Talus LCS with 160 MiB SSTables, L0 trigger 4, levels"
              + " sized from the bottom with a 256 MiB base; RocksDB level style with its"
              + " defaults, which are the same rules), or Talus size-tiered vs RocksDB universal;"
              + " both run in the background. Both engines' flush() waits for compactions to"
              + " settle, so each ingest workload's write amplification includes the compactions"
              + " its data caused.",
          "Write amplification counts the same on both: bytes of table files written by flushes"
              + " and compactions (Talus: every SSTable component; RocksDB: FLUSH_WRITE_BYTES +"
              + " COMPACT_WRITE_BYTES, whole SST files) over user bytes (4 + 8 + 100 per row);"
              + " neither counts its commit log / WAL.",
          "Memtable budget: Talus gets 128 MiB of memtable space and flushes at half of it"
              + " (64 MiB), measured as the heap it counts from the JVM's object layout; RocksDB"
              + " gets write_buffer_size"
              + " 64 MiB x 2 buffers, measured in its arena. memtable-footprint shows what each"
              + " holds per user byte.",
          "Talus keeps memtables and its chunk cache on the Java heap (live heap); RocksDB keeps"
              + " them off-heap (native = size-all-mem-tables + block-cache-usage +"
              + " estimate-table-readers-mem, at the end of each phase before its flush). Readers:"
              + " Talus's SSTable heap (Bloom filters, index samples, chunk offsets) vs RocksDB's"
              + " estimate-table-readers-mem.",
          "Sources per read: Talus counts memtables + SSTables merged per partition read (after"
              + " its partition and row Bloom filters, clustering ranges and index); RocksDB counts SST"
              + " files whose whole-key Bloom filter let a Get through; its iterators merge every"
              + " L0 file and one file per non-empty level.",
          "Talus is driven through its typed public API (builders, result rows); RocksDB"
              + " through byte[] keys and values.",
          "RocksDB's Bloom filter is on whole keys (partition + sequence, no prefix extractor);"
              + " Talus has one on partition keys and one on rows (partition + clustering).");

  private Compare() {}

  public static void main(String[] args) throws IOException {
    System.setProperty("java.awt.headless", "true");
    CommandLine cl = commandLine(args, System.out, System.err);
    if (cl.config() == null) {
      if (cl.exitCode() != 0) {
        System.exit(cl.exitCode());
      }
      return;
    }
    run(cl.config());
  }

  /**
   * What the command line asks: a configuration to run, or nothing to run and the exit code.
   *
   * @param config the run to do, or null to stop with {@code exitCode}
   * @param exitCode 0 after {@code --help}, 2 after a bad argument
   */
  record CommandLine(CompareConfig config, int exitCode) {}

  /**
   * Parses {@code args}: {@code --help} prints the usage to {@code out}; a bad argument (unknown
   * flag, bad number, a {@code --dir} that does not exist without {@code --create-dir}) prints why
   * to {@code err}. Runs nothing.
   */
  static CommandLine commandLine(String[] args, PrintStream out, PrintStream err) {
    try {
      return new CommandLine(CompareConfig.parse(args), 0);
    } catch (CompareConfig.HelpRequested e) {
      out.print(CompareConfig.USAGE);
      return new CommandLine(null, 0);
    } catch (IllegalArgumentException e) {
      err.println(e.getMessage());
      return new CommandLine(null, 2);
    }
  }

  /** Runs everything {@code config} asks and returns the summaries, Talus then RocksDB each. */
  static List<Summary> run(CompareConfig config) throws IOException {
    Files.createDirectories(config.outDir());
    Path data = BenchDirs.create(config.dataDir(), "talus-compare-");
    CompareConfig c =
        new CompareConfig(
            config.scale(),
            config.repetitions(),
            config.warmup(),
            config.seed(),
            config.outDir(),
            data,
            config.compaction(),
            config.durability(),
            config.writeBufferBytes(),
            config.cacheBytes(),
            config.workloads());
    printHeader(c);
    try {
      if (c.warmup()) {
        // at scale 1 and above, a pass of scale 1: the JIT keeps compiling Talus's paths for more
        // than a fifth of a repetition, and the first repetition measured that (1/5 until 2026-12)
        CompareConfig w = c.withScale(Math.min(c.scale(), 1));
        System.out.printf("warm-up pass at scale %.3g (discarded)%n", w.scale());
        workloads("talus", w).runAll();
        workloads("rocksdb", w).runAll();
      }
      Map<String, List<Run>> runs = new LinkedHashMap<>();
      Map<String, List<MemtableFootprint.Result>> footprints = new LinkedHashMap<>();
      for (int rep = 0; rep < c.repetitions(); rep++) {
        // Alternate which engine goes first, so slow drift of the machine hits both alike.
        List<String> order =
            rep % 2 == 0 ? List.of("talus", "rocksdb") : List.of("rocksdb", "talus");
        for (String engine : order) {
          System.out.printf("repetition %d/%d: %s%n", rep + 1, c.repetitions(), engine);
          Workloads w = workloads(engine, c);
          for (Run r : w.runAll()) {
            runs.computeIfAbsent(r.workload() + "/" + r.engine(), k -> new ArrayList<>()).add(r);
            System.out.printf(
                "  %-20s %12.0f ops/s  p50 %8.1f us  %s%n",
                r.workload(), r.opsPerSec(), r.p50Us(), r.settled().shape());
          }
          MemtableFootprint.Result f = w.footprint();
          footprints.computeIfAbsent(engine, k -> new ArrayList<>()).add(f);
          System.out.printf(
              "  %-20s %12.2f heap bytes per user byte (engine's figure %.2f)%n",
              "memtable-footprint", f.heapPerUserByte(), f.enginePerUserByte());
        }
      }
      List<Summary> summaries = new ArrayList<>();
      for (String w : c.workloads()) {
        summaries.add(Summary.of(runs.get(w + "/talus")));
        summaries.add(Summary.of(runs.get(w + "/rocksdb")));
      }
      List<MemtableFootprint.Result> footprint =
          List.of(
              MemtableFootprint.median(footprints.get("talus")),
              MemtableFootprint.median(footprints.get("rocksdb")));
      CompareReport report = new CompareReport(c, summaries, footprint);
      System.out.println();
      System.out.print(report.table());
      Path json = c.outDir().resolve("results.json");
      Files.writeString(json, report.json());
      Path png = c.outDir().resolve("ratios.png");
      RatioChart.write(report.ratios(), "Talus vs RocksDB, scale " + c.scale(), png);
      System.out.println("wrote " + json + " and " + png);
      return summaries;
    } finally {
      BenchDirs.delete(data);
    }
  }

  private static Workloads workloads(String engine, CompareConfig c) {
    return engine.equals("talus")
        ? new Workloads(engine, (dir, layout) -> new TalusBenchEngine(dir, layout, c), c)
        : new Workloads(engine, (dir, layout) -> new RocksBenchEngine(dir, layout, c), c);
  }

  private static void printHeader(CompareConfig c) {
    System.out.println("Talus vs RocksDB side by side");
    System.out.println("  machine: " + CompareReport.machine());
    System.out.printf(
        "  data: %,d partitions x %d rows x %d-byte values (scale %s), seed %d, %d repetitions%n",
        c.partitions(),
        c.rowsPerPartition(),
        BenchData.VALUE_BYTES,
        c.scale(),
        c.seed(),
        c.repetitions());
    System.out.println("  data directory: " + c.dataDir());
    System.out.println("  talus:   " + CompareReport.talusOptions(c));
    System.out.println("  rocksdb: " + RocksBenchEngine.describe(c));
    System.out.println("  durability: " + c.durability() + "; compaction asked: " + c.compaction());
    System.out.println("  known differences:");
    for (String d : KNOWN_DIFFERENCES) {
      System.out.println("   - " + d);
    }
    System.out.println();
  }
}
