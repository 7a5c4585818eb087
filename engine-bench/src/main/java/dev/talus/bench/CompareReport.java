package dev.talus.bench;

import dev.talus.TableSchema;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The console table and the JSON of one {@link Compare} run. Immutable. */
final class CompareReport {
  private final CompareConfig config;
  private final List<Summary> summaries;
  private final List<MemtableFootprint.Result> footprint;
  private final String date =
      OffsetDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME);

  CompareReport(
      CompareConfig config, List<Summary> summaries, List<MemtableFootprint.Result> footprint) {
    this.config = config;
    this.summaries = List.copyOf(summaries);
    this.footprint = List.copyOf(footprint);
  }

  static String machine() {
    Runtime rt = Runtime.getRuntime();
    return rt.availableProcessors()
        + " cpus, max heap "
        + (rt.maxMemory() >> 20)
        + " MiB, "
        + System.getProperty("java.vm.name")
        + " "
        + System.getProperty("java.runtime.version")
        + ", "
        + System.getProperty("os.name")
        + " "
        + System.getProperty("os.arch");
  }

  static String talusOptions(CompareConfig c) {
    return TalusBenchEngine.options(c.dataDir(), c)
            .toString()
            .replace("dataDirectory=" + c.dataDir() + ", ", "")
        + ", table: LZ4 chunks of "
        + TableSchema.DEFAULT_CHUNK_LENGTH_KB
        + " KiB, bloom_filter_fp_chance=0.01, compaction="
        + TalusBenchEngine.compaction(c);
  }

  /** Both engines' configured memory: two memtables' worth of write buffer plus the cache. */
  private long budgetBytes() {
    return 2 * config.writeBufferBytes() + config.cacheBytes();
  }

  /** The budget and Talus's largest live heap (after GC) against it, over every workload. */
  private String budgetLine() {
    Summary worst = null;
    for (String w : config.workloads()) {
      Summary s = find(w, "talus");
      if (worst == null || s.liveHeapBytes() > worst.liveHeapBytes()) {
        worst = s;
      }
    }
    return String.format(
        Locale.ROOT,
        "budget: memtables %d MiB + cache %d MiB = %d MiB; Talus's largest live heap after GC %d"
            + " MiB (%.2f x budget, %s); its pool-peak sum counts garbage too%n",
        (2 * config.writeBufferBytes()) >> 20,
        config.cacheBytes() >> 20,
        budgetBytes() >> 20,
        worst == null ? 0 : worst.liveHeapBytes() >> 20,
        worst == null ? 0 : (double) worst.liveHeapBytes() / budgetBytes(),
        worst == null ? "-" : worst.workload());
  }

  private Summary find(String workload, String engine) {
    for (Summary s : summaries) {
      if (s.workload().equals(workload) && s.engine().equals(engine)) {
        return s;
      }
    }
    throw new IllegalArgumentException("no summary for " + workload + "/" + engine);
  }

  /** Workload → Talus median ops/s ÷ RocksDB median ops/s, in run order. */
  Map<String, Double> ratios() {
    Map<String, Double> out = new LinkedHashMap<>();
    for (String w : config.workloads()) {
      out.put(w, find(w, "talus").opsPerSec().median() / find(w, "rocksdb").opsPerSec().median());
    }
    return out;
  }

  String table() {
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "%-20s %-30s %-30s %7s  %-24s %-24s%n",
            "workload",
            "talus ops/s med [min-max]",
            "rocksdb ops/s med [min-max]",
            "T/R",
            "talus p50/p99/p99.9 us",
            "rocksdb p50/p99/p99.9 us"));
    Map<String, Double> ratios = ratios();
    for (String w : config.workloads()) {
      Summary t = find(w, "talus");
      Summary r = find(w, "rocksdb");
      b.append(
          String.format(
              Locale.ROOT,
              "%-20s %-30s %-30s %6.2fx  %-24s %-24s%n",
              w,
              ops(t.opsPerSec()),
              ops(r.opsPerSec()),
              ratios.get(w),
              lat(t),
              lat(r)));
    }
    b.append(
        String.format(
            Locale.ROOT,
            "%n%-20s %-8s %8s %6s %6s %10s %10s %10s %10s %10s %10s %10s%n",
            "memory / ingest",
            "engine",
            "MB/s",
            "w-amp",
            "s-amp",
            "live heap",
            "pool peak",
            "memtables",
            "readers",
            "cache",
            "pinned",
            "native"));
    for (String w : config.workloads()) {
      for (String e : List.of("talus", "rocksdb")) {
        Summary s = find(w, e);
        b.append(
            String.format(
                Locale.ROOT,
                "%-20s %-8s %8s %6s %6s %6d MiB %6d MiB %6d MiB %6d KiB %6d MiB %6d MiB %6d MiB%n",
                w,
                e,
                fixed(s.mbPerSec().median(), 1),
                fixed(s.writeAmp(), 2),
                fixed(s.spaceAmp(), 2),
                s.liveHeapBytes() >> 20,
                s.poolPeakBytes() >> 20,
                s.memtableBytes() >> 20,
                s.endState().tableReaderBytes() >> 10,
                s.endState().cacheBytes() >> 20,
                s.endState().pinnedCacheBytes() >> 20,
                s.nativeBytes() >> 20));
      }
    }
    b.append(budgetLine());
    b.append(
        String.format(
            Locale.ROOT,
            "%n%-20s %-36s %-36s %-30s%n",
            "LSM after / reads",
            "talus SSTables per level",
            "rocksdb SST files per level",
            "sources per read: talus | rocksdb"));
    for (String w : config.workloads()) {
      Summary t = find(w, "talus");
      Summary r = find(w, "rocksdb");
      b.append(
          String.format(
              Locale.ROOT,
              "%-20s %-36s %-36s %s | %s%n",
              w,
              t.settled().shape(),
              r.settled().shape(),
              t.lastSources().brief(),
              r.lastSources().reads() > 0
                  ? String.format(Locale.ROOT, "%.2f files searched/get", r.sourcesPerRead())
                  : r.lastSources().brief()));
    }
    b.append("\n");
    for (MemtableFootprint.Result f : footprint) {
      b.append(
          String.format(
              Locale.ROOT,
              "memtable footprint %-8s %,d rows (%.1f MB of user data, nothing flushed%s): live heap"
                  + " %+.2f bytes per user byte; the engine's memtable figure %.2f bytes per user"
                  + " byte%n",
              f.engine(),
              f.rows(),
              f.userBytes() / 1e6,
              f.flushed() ? " - BUT IT FLUSHED: figures undercount" : "",
              f.heapPerUserByte(),
              f.enginePerUserByte()));
    }
    if (config.workloads().contains("readwhilewriting")) {
      b.append(
          String.format(
              Locale.ROOT,
              "readwhilewriting background writer: talus %,.0f writes/s, rocksdb %,.0f writes/s%n",
              find("readwhilewriting", "talus").writerOpsPerSec(),
              find("readwhilewriting", "rocksdb").writerOpsPerSec()));
    }
    return b.toString();
  }

  private static String fixed(double v, int decimals) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%." + decimals + "f", v) : "-";
  }

  private static String ops(Summary.Stat s) {
    return String.format(Locale.ROOT, "%,.0f [%,.0f-%,.0f]", s.median(), s.min(), s.max());
  }

  private static String lat(Summary s) {
    return String.format(Locale.ROOT, "%.1f/%.1f/%.1f", s.p50Us(), s.p99Us(), s.p999Us());
  }

  String json() {
    Json j = new Json();
    j.open('{');
    j.field("date", date);
    j.field("machine", machine());
    j.key("config").open('{');
    j.field("scale", config.scale());
    j.field("partitions", config.partitions());
    j.field("rows_per_partition", config.rowsPerPartition());
    j.field("value_bytes", BenchData.VALUE_BYTES);
    j.field("repetitions", config.repetitions());
    j.field("warmup", config.warmup());
    j.field("seed", config.seed());
    j.field("compaction", config.compaction().name());
    j.field("durability", config.durability().name());
    j.field("workloads", String.join(",", config.workloads()));
    j.field("memory_budget_bytes", budgetBytes());
    j.field("talus_options", talusOptions(config));
    j.field("rocksdb_options", RocksBenchEngine.describe(config));
    j.close('}');
    j.key("known_differences").open('[');
    for (String d : Compare.KNOWN_DIFFERENCES) {
      j.value(d);
    }
    j.close(']');
    j.key("memtable_footprint").open('[');
    for (MemtableFootprint.Result f : footprint) {
      j.open('{');
      j.field("engine", f.engine());
      j.field("rows", f.rows());
      j.field("user_bytes", f.userBytes());
      j.field("live_heap_delta_bytes", f.liveHeapDelta());
      j.field("engine_memtable_bytes", f.engineFigure());
      j.field("flushed", f.flushed());
      j.close('}');
    }
    j.close(']');
    j.key("ratios_talus_over_rocksdb").open('{');
    ratios().forEach(j::field);
    j.close('}');
    j.key("records").open('[');
    for (Summary s : summaries) {
      j.open('{');
      j.field("workload", s.workload());
      j.field("engine", s.engine());
      j.field("repetitions", s.repetitions());
      stat(j, "ops_per_sec", s.opsPerSec());
      j.key("latency_us").open('{');
      j.field("p50", s.p50Us());
      j.field("p99", s.p99Us());
      j.field("p999", s.p999Us());
      j.close('}');
      stat(j, "mb_per_sec", s.mbPerSec());
      j.field("write_amplification", s.writeAmp());
      j.field("space_amplification", s.spaceAmp());
      j.field("live_heap_bytes", s.liveHeapBytes());
      j.field("heap_pool_peak_bytes", s.poolPeakBytes());
      j.field("memtable_bytes", s.memtableBytes());
      j.field("native_bytes", s.nativeBytes());
      j.field("memtable_unflushed_bytes", s.endState().unflushedMemtableBytes());
      j.field("table_reader_bytes", s.endState().tableReaderBytes());
      j.field("cache_bytes", s.endState().cacheBytes());
      j.field("cache_pinned_bytes", s.endState().pinnedCacheBytes());
      j.field("live_heap_over_budget", (double) s.liveHeapBytes() / budgetBytes());
      j.field("lsm_shape", s.settled().shape());
      j.key("sstables_per_level").open('[');
      for (int n : s.settled().sstablesPerLevel()) {
        j.value(n);
      }
      j.close(']');
      j.key("bytes_per_level").open('[');
      for (long n : s.settled().bytesPerLevel()) {
        j.value(n);
      }
      j.close(']');
      j.field("sources_per_read", s.sourcesPerRead());
      j.field("sources_per_read_detail", s.lastSources().brief() + "; " + s.lastSources().what());
      j.field("writer_ops_per_sec", s.writerOpsPerSec());
      j.close('}');
    }
    j.close(']');
    j.close('}');
    return j.toString();
  }

  private static void stat(Json j, String name, Summary.Stat s) {
    j.key(name).open('{');
    j.field("median", s.median());
    j.field("min", s.min());
    j.field("max", s.max());
    j.close('}');
  }

  /** Just enough of a JSON writer for the report; NaN is written as null. Not thread-safe. */
  private static final class Json {
    private final StringBuilder b = new StringBuilder();
    private int depth;
    private boolean first = true;

    Json key(String k) {
      comma();
      b.append(quote(k)).append(": ");
      first = true; // the value follows without a comma
      return this;
    }

    Json open(char c) {
      if (!first) {
        comma();
      }
      b.append(c);
      depth++;
      first = true;
      return this;
    }

    void close(char c) {
      depth--;
      b.append('\n').append("  ".repeat(depth)).append(c);
      first = false;
    }

    void value(String v) {
      comma();
      b.append(quote(v));
    }

    void value(long v) {
      comma();
      b.append(v);
    }

    void field(String k, Object v) {
      key(k);
      first = false;
      if (v instanceof Double d) {
        b.append(Double.isFinite(d) ? String.format(Locale.ROOT, "%.4f", d) : "null");
      } else if (v instanceof Number || v instanceof Boolean) {
        b.append(v);
      } else {
        b.append(quote(String.valueOf(v)));
      }
    }

    @Override
    public String toString() {
      return b + "\n";
    }

    private void comma() {
      if (!first) {
        b.append(',');
      }
      b.append('\n').append("  ".repeat(depth));
      first = false;
    }

    private static String quote(String s) {
      StringBuilder q = new StringBuilder("\"");
      for (char ch : s.toCharArray()) {
        switch (ch) {
          case '"' -> q.append("\\\"");
          case '\\' -> q.append("\\\\");
          case '\n' -> q.append("\\n");
          default -> {
            if (ch < 0x20) {
              q.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
            } else {
              q.append(ch);
            }
          }
        }
      }
      return q.append('"').toString();
    }
  }
}
