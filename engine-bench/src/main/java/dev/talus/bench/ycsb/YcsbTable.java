package dev.talus.bench.ycsb;

import dev.talus.bench.ycsb.RunYcsb.Config;
import dev.talus.bench.ycsb.RunYcsb.Engine;
import dev.talus.bench.ycsb.RunYcsb.Phase;
import dev.talus.bench.ycsb.RunYcsb.Result;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * The Markdown table of a {@link RunYcsb} run: per workload and engine, the median [min–max] of
 * load and run throughput over the repetitions, the median of each latency percentile, failed
 * operations summed, and the ratio of the Talus and RocksDB run medians. Stateless.
 */
final class YcsbTable {
  private YcsbTable() {}

  static void print(Config c, List<Result> results, PrintStream out) {
    out.println(
        "| workload | engine | load ops/s | run ops/s med [min–max] | talus/rocksdb | read p50 µs"
            + " | read p99 µs | update p50 µs | update p99 µs | insert p99 µs | scan p50 µs"
            + " | scan p99 µs | failed ops |");
    out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
    for (char w : c.workloads()) {
      for (Engine e : c.engines()) {
        List<Result> runs = find(results, w, e);
        if (runs.isEmpty()) {
          continue;
        }
        if (runs.get(0).skipped() != null) {
          out.printf(
              "| %s | %s | %s |||||||||||%n", RunYcsb.upper(w), e.label, runs.get(0).skipped());
          continue;
        }
        double[] run = values(runs, r -> r.run().opsPerSecond());
        out.printf(
            Locale.ROOT,
            "| %s | %s | %,.0f | %,.0f [%,.0f–%,.0f] | %s | %s | %s | %s | %s | %s | %s | %s | %s"
                + " |%n",
            RunYcsb.upper(w),
            e.label,
            median(values(runs, r -> r.load().opsPerSecond())),
            median(run),
            run[0],
            run[run.length - 1],
            e == Engine.TALUS ? ratio(runs, find(results, w, Engine.ROCKSDB)) : "",
            micros(runs, TimedDb.Op.READ, 50),
            micros(runs, TimedDb.Op.READ, 99),
            micros(runs, TimedDb.Op.UPDATE, 50),
            micros(runs, TimedDb.Op.UPDATE, 99),
            micros(runs, TimedDb.Op.INSERT, 99),
            micros(runs, TimedDb.Op.SCAN, 50),
            micros(runs, TimedDb.Op.SCAN, 99),
            failures(runs));
      }
    }
    out.println();
    out.println(
        "talus/rocksdb = Talus median run ops/s ÷ RocksDB median run ops/s. Latencies are of the"
            + " run phase, successful operations only, the median over repetitions of each"
            + " percentile; in F, read and update are the two halves of each read-modify-write"
            + " plus the plain reads. '-' = no such operation.");
    if (c.workloads().contains('e') && c.engines().contains(Engine.TALUS)) {
      out.println(
          "Workload E scans in key order on RocksDB and in token order on Talus (as YCSB's"
              + " Cassandra binding does): the same work per scan, not the same records.");
    }
  }

  private static List<Result> find(List<Result> results, char w, Engine e) {
    List<Result> out = new ArrayList<>();
    for (Result r : results) {
      if (r.workload() == w && r.engine() == e) {
        out.add(r);
      }
    }
    return out;
  }

  /** Sorted values of {@code f} over the runs. */
  private static double[] values(List<Result> runs, ToDoubleFunction<Result> f) {
    double[] v = runs.stream().mapToDouble(f).toArray();
    Arrays.sort(v);
    return v;
  }

  private static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  private static String ratio(List<Result> talus, List<Result> rocks) {
    if (rocks.isEmpty() || rocks.get(0).skipped() != null) {
      return "-";
    }
    return String.format(
        Locale.ROOT,
        "%.2f×",
        median(values(talus, r -> r.run().opsPerSecond()))
            / median(values(rocks, r -> r.run().opsPerSecond())));
  }

  private static String failures(List<Result> runs) {
    long load = 0;
    long run = 0;
    for (Result r : runs) {
      load += r.load().failures();
      run += r.run().failures();
    }
    if (load + run == 0) {
      return "0";
    }
    List<String> parts = new ArrayList<>();
    for (Result r : runs) {
      for (Phase phase : List.of(r.load(), r.run())) {
        String name = phase == r.load() ? "load" : "run";
        phase
            .failed()
            .forEach(
                (op, n) -> {
                  if (n > 0) {
                    parts.add(name + " " + op.name().toLowerCase(Locale.ROOT) + " " + n);
                  }
                });
      }
    }
    return String.join(", ", parts);
  }

  private static String micros(List<Result> runs, TimedDb.Op op, double percentile) {
    List<Double> us = new ArrayList<>();
    for (Result r : runs) {
      Histogram h = r.run().latency().get(op);
      if (h != null && h.getTotalCount() > 0) {
        us.add(h.getValueAtPercentile(percentile) / 1000.0);
      }
    }
    if (us.isEmpty()) {
      return "-";
    }
    double m = median(us.stream().mapToDouble(Double::doubleValue).sorted().toArray());
    return String.format(Locale.ROOT, m < 100 ? "%.1f" : "%,.0f", m);
  }
}
