package dev.talus.bench;

import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The repetitions of one workload on one engine, reduced: min / median / max of throughput, the
 * median of each latency percentile, amplification figure, live heap and source count, the largest
 * pool-peak heap, and the last repetition's engine state at the end of its phase and once settled.
 * Immutable.
 */
record Summary(
    String workload,
    String engine,
    int repetitions,
    Stat opsPerSec,
    Stat mbPerSec,
    double p50Us,
    double p99Us,
    double p999Us,
    double writeAmp,
    double spaceAmp,
    long liveHeapBytes,
    long poolPeakBytes,
    long memtableBytes,
    long nativeBytes,
    EngineState endState,
    EngineState settled,
    double sourcesPerRead,
    ReadSources lastSources,
    double writerOpsPerSec) {

  /** Min, median and max of one figure over the repetitions ({@code NaN} if it does not apply). */
  record Stat(double min, double median, double max) {
    static Stat of(List<Run> runs, ToDoubleFunction<Run> f) {
      double[] v = runs.stream().mapToDouble(f).sorted().toArray();
      return new Stat(v[0], Summary.median(v), v[v.length - 1]);
    }
  }

  static Summary of(List<Run> runs) {
    Run first = runs.get(0);
    Run last = runs.get(runs.size() - 1);
    return new Summary(
        first.workload(),
        first.engine(),
        runs.size(),
        Stat.of(runs, Run::opsPerSec),
        Stat.of(runs, Run::mbPerSec),
        median(runs, Run::p50Us),
        median(runs, Run::p99Us),
        median(runs, Run::p999Us),
        median(runs, Run::writeAmp),
        median(runs, Run::spaceAmp),
        (long) median(runs, r -> r.liveHeapBytes()),
        runs.stream().mapToLong(Run::poolPeakBytes).max().orElse(0),
        (long) median(runs, r -> r.atEnd().memtableBytes()),
        (long) median(runs, r -> r.atEnd().nativeBytes()),
        last.atEnd(),
        last.settled(),
        median(runs, r -> r.sources().mean()),
        last.sources(),
        median(runs, Run::writerOpsPerSec));
  }

  private static double median(List<Run> runs, ToDoubleFunction<Run> f) {
    return median(runs.stream().mapToDouble(f).toArray());
  }

  static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
}
