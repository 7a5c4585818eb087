package dev.talus.bench;

import java.nio.file.Path;
import java.util.Locale;

/**
 * What {@link Compare} runs: the data sizes (the benchmark issue's figures times {@code scale}),
 * the budgets both engines get, repetitions and where files go. Immutable; parsed from the command
 * line by {@link #parse}.
 */
record CompareConfig(
    double scale,
    int repetitions,
    boolean warmup,
    long seed,
    Path outDir,
    Path dataDir,
    Compaction compaction,
    Durability durability,
    long writeBufferBytes,
    long cacheBytes) {

  /** The compaction strategy asked of both engines (RocksDB: LEVEL or UNIVERSAL). */
  enum Compaction {
    LEVELED,
    SIZE_TIERED
  }

  /** Durable-writes setting asked of both engines. */
  enum Durability {
    /** RocksDB: WAL on, sync=false. Talus: commit log in PERIODIC mode (fsync every 10 s). */
    WAL_NO_SYNC,
    /** Each acknowledged write is fsynced. RocksDB: sync=true. Talus: GROUP commit (2 ms). */
    PER_WRITE_SYNC
  }

  /** Rows per partition in the main table, as in the issue (10,000 partitions × 200 rows). */
  static final int ROWS_PER_PARTITION = 200;

  /** Partitions at scale 1. The 10,000 is scale 5; see docs/benchmarks.md. */
  static final int PARTITIONS_AT_SCALE_1 = 2_000;

  static final String USAGE =
      "usage: Compare [--scale N] [--out DIR] [--dir DIR] [--reps N] [--no-warmup] [--seed N]"
          + " [--compaction leveled|size_tiered] [--durability wal_no_sync|per_write_sync]\n"
          + "  --scale N   multiply the data and operation counts (default 1: 2,000 partitions x 200"
          + " rows;\n              5 = the issue's 10,000 x 200). Fractions are allowed.\n"
          + "  --out DIR   where results.json and ratios.png go (default engine-bench/target/compare)\n"
          + "  --dir DIR   where the engines' data goes (default -Dtalus.bench.dir, else temp)\n"
          + "  --reps N    measured repetitions per engine (default 3)\n";

  static CompareConfig parse(String... args) {
    double scale = 1;
    int reps = 3;
    boolean warmup = true;
    long seed = 42;
    Path out = Path.of("engine-bench", "target", "compare");
    Path data = BenchDirs.base();
    Compaction compaction = Compaction.LEVELED;
    Durability durability = Durability.WAL_NO_SYNC;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--scale" -> scale = Double.parseDouble(value(args, ++i, a));
        case "--out" -> out = Path.of(value(args, ++i, a));
        case "--dir" -> data = Path.of(value(args, ++i, a));
        case "--reps" -> reps = Integer.parseInt(value(args, ++i, a));
        case "--seed" -> seed = Long.parseLong(value(args, ++i, a));
        case "--no-warmup" -> warmup = false;
        case "--compaction" ->
            compaction = Compaction.valueOf(value(args, ++i, a).toUpperCase(Locale.ROOT));
        case "--durability" ->
            durability = Durability.valueOf(value(args, ++i, a).toUpperCase(Locale.ROOT));
        default -> throw new IllegalArgumentException("unknown argument " + a + "\n" + USAGE);
      }
    }
    if (!(scale > 0) || reps < 1) {
      throw new IllegalArgumentException("--scale must be > 0 and --reps >= 1\n" + USAGE);
    }
    return new CompareConfig(
        scale, reps, warmup, seed, out, data, compaction, durability, 64L << 20, 256L << 20);
  }

  private static String value(String[] args, int i, String flag) {
    if (i >= args.length) {
      throw new IllegalArgumentException(flag + " needs a value\n" + USAGE);
    }
    return args[i];
  }

  /** The same configuration at another scale (the warm-up pass runs smaller). */
  CompareConfig withScale(double s) {
    return new CompareConfig(
        s,
        repetitions,
        warmup,
        seed,
        outDir,
        dataDir,
        compaction,
        durability,
        writeBufferBytes,
        cacheBytes);
  }

  private int scaled(int base) {
    return (int) Math.max(1, Math.round(base * scale));
  }

  int partitions() {
    return Math.max(2, scaled(PARTITIONS_AT_SCALE_1));
  }

  int rowsPerPartition() {
    return ROWS_PER_PARTITION;
  }

  /** Operations of readrandom and readmissing. */
  int pointReads() {
    return scaled(100_000);
  }

  /** Reads of readwhilewriting (the writer runs until they are done). */
  int readWhileWritingReads() {
    return scaled(20_000);
  }

  int sliceReads() {
    return scaled(20_000);
  }

  int queuePartitions() {
    return scaled(100);
  }

  int queueReads() {
    return scaled(5_000);
  }
}
