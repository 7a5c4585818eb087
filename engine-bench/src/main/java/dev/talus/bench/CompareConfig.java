package dev.talus.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@link Compare} runs: the data sizes (2,000 partitions × 200 rows times {@code scale}), the
 * budgets both engines get, repetitions and where files go. Immutable; parsed from the command line
 * by {@link #parse}.
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
    long cacheBytes,
    List<String> workloads) {

  CompareConfig {
    workloads = List.copyOf(workloads);
  }

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
    PER_WRITE_SYNC,
    /**
     * Each acknowledged write is fsynced, the next fsync starting as soon as the last ends, and
     * writers arriving meanwhile sharing it: RocksDB sync=true (its write groups), Talus BATCH.
     */
    PER_WRITE_SYNC_BATCH
  }

  /** Rows per partition in the main table. */
  static final int ROWS_PER_PARTITION = 200;

  /** Partitions at scale 1 (scale 5 is 10,000; see docs/benchmarks.md). */
  static final int PARTITIONS_AT_SCALE_1 = 2_000;

  static final String USAGE =
      "usage: Compare [--scale N] [--reps N] [--workloads W,...] [--durability D]"
          + " [--compaction C] [--dir DIR [--create-dir]] [--out DIR] [--seed N] [--no-warmup]\n"
          + "  --scale N        multiply the data and operation counts (default 1: 2,000 partitions"
          + " x 200 rows;\n"
          + "                   5 = 10,000 x 200, 25 = 50,000 x 200). Fractions are allowed.\n"
          + "  --reps N         measured repetitions per engine (default 3)\n"
          + "  --workloads W,.. run only these (default all): "
          + String.join(",", Workloads.NAMES)
          + "\n"
          + "  --durability D   wal_no_sync (default: RocksDB WAL sync=false, Talus PERIODIC) or\n"
          + "                   per_write_sync (RocksDB sync=true, Talus GROUP commit, 2 ms window)\n"
          + "                   or per_write_sync_batch (RocksDB sync=true, Talus BATCH)\n"
          + "  --compaction C   leveled (default; RocksDB level style) or size_tiered (universal)\n"
          + "  --dir DIR        where the engines' data goes (default -Dtalus.bench.dir, else the\n"
          + "                   temp directory); it must exist unless --create-dir is given\n"
          + "  --out DIR        where results.json and ratios.png go (default"
          + " engine-bench/target/compare)\n"
          + "  --seed N         data and operation seed (default 42)\n"
          + "  --no-warmup      skip the discarded warm-up pass (at the scale, at most 1) and the\n"
          + "                   untimed half-length warm-up before each read phase\n"
          + "  --help           print this and exit\n";

  /** Thrown by {@link #parse} for {@code --help}: print {@link #USAGE} and exit successfully. */
  static final class HelpRequested extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    HelpRequested() {
      super(USAGE);
    }
  }

  static CompareConfig parse(String... args) {
    double scale = 1;
    int reps = 3;
    boolean warmup = true;
    long seed = 42;
    Path out = Path.of("engine-bench", "target", "compare");
    Path data = BenchDirs.base();
    boolean dirGiven = false;
    boolean createDir = false;
    Compaction compaction = Compaction.LEVELED;
    Durability durability = Durability.WAL_NO_SYNC;
    List<String> workloads = Workloads.NAMES;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--help", "-h" -> throw new HelpRequested();
        case "--scale" -> scale = number(value(args, ++i, a), a, Double::parseDouble);
        case "--out" -> out = Path.of(value(args, ++i, a));
        case "--dir" -> {
          data = Path.of(value(args, ++i, a));
          dirGiven = true;
        }
        case "--create-dir" -> createDir = true;
        case "--reps" -> reps = number(value(args, ++i, a), a, Integer::parseInt);
        case "--seed" -> seed = number(value(args, ++i, a), a, Long::parseLong);
        case "--no-warmup" -> warmup = false;
        case "--compaction" -> compaction = choice(Compaction.class, value(args, ++i, a), a);
        case "--durability" -> durability = choice(Durability.class, value(args, ++i, a), a);
        case "--workloads" -> workloads = workloads(value(args, ++i, a));
        default -> throw new IllegalArgumentException("unknown argument " + a + "\n" + USAGE);
      }
    }
    if (!(scale > 0) || reps < 1) {
      throw new IllegalArgumentException("--scale must be > 0 and --reps >= 1\n" + USAGE);
    }
    if (dirGiven && !createDir && !Files.isDirectory(data)) {
      throw new IllegalArgumentException(
          "--dir "
              + data
              + " does not exist (or is not a directory): create it, or add --create-dir to let"
              + " Compare create it");
    }
    return new CompareConfig(
        scale,
        reps,
        warmup,
        seed,
        out,
        data,
        compaction,
        durability,
        64L << 20,
        256L << 20,
        workloads);
  }

  private static List<String> workloads(String list) {
    List<String> out = new ArrayList<>();
    for (String w : list.split(",")) {
      String name = w.trim();
      if (!Workloads.NAMES.contains(name)) {
        throw new IllegalArgumentException(
            "unknown workload "
                + name
                + "; the workloads are "
                + String.join(", ", Workloads.NAMES));
      }
      out.add(name);
    }
    // keep the run order, whatever order they were given in
    List<String> ordered = new ArrayList<>(Workloads.NAMES);
    ordered.retainAll(out);
    return ordered;
  }

  private static <E extends Enum<E>> E choice(Class<E> type, String v, String flag) {
    try {
      return Enum.valueOf(type, v.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          flag
              + " must be one of "
              + java.util.Arrays.stream(type.getEnumConstants())
                  .map(c -> c.name().toLowerCase(Locale.ROOT))
                  .toList()
              + ", got "
              + v);
    }
  }

  private static <N> N number(String v, String flag, java.util.function.Function<String, N> f) {
    try {
      return f.apply(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(flag + " needs a number, got " + v);
    }
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
        cacheBytes,
        workloads);
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
