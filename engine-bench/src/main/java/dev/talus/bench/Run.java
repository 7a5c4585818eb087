package dev.talus.bench;

import org.HdrHistogram.Histogram;

/**
 * One measured run of one workload on one engine. Figures that do not apply are {@code NaN}.
 * Immutable.
 *
 * @param opsPerSec operations per second of the measured phase (wall clock)
 * @param p50Us median latency of one operation, µs
 * @param mbPerSec user bytes (key + value) per second, ingest workloads only
 * @param writeAmp bytes written to data files by flush + compaction ÷ user bytes written
 * @param spaceAmp bytes in the data directory ÷ live user bytes
 * @param peakHeapBytes peak heap used during the workload (sum of the heap pools' peaks)
 * @param nativeBytes off-heap memory the engine reports at the end (RocksDB: memtables, block
 *     cache, table readers; Talus: none)
 * @param writerOpsPerSec readwhilewriting only: what the background writer achieved meanwhile
 */
record Run(
    String workload,
    String engine,
    long ops,
    double opsPerSec,
    double p50Us,
    double p99Us,
    double p999Us,
    double mbPerSec,
    double writeAmp,
    double spaceAmp,
    long peakHeapBytes,
    long nativeBytes,
    double writerOpsPerSec) {

  static Run of(
      String workload,
      String engine,
      long ops,
      long nanos,
      Histogram latencyNanos,
      double mbPerSec,
      double writeAmp,
      double spaceAmp,
      long peakHeap,
      long nativeBytes) {
    return new Run(
        workload,
        engine,
        ops,
        ops * 1e9 / nanos,
        latencyNanos.getValueAtPercentile(50) / 1e3,
        latencyNanos.getValueAtPercentile(99) / 1e3,
        latencyNanos.getValueAtPercentile(99.9) / 1e3,
        mbPerSec,
        writeAmp,
        spaceAmp,
        peakHeap,
        nativeBytes,
        Double.NaN);
  }

  Run withWriterOpsPerSec(double v) {
    return new Run(
        workload,
        engine,
        ops,
        opsPerSec,
        p50Us,
        p99Us,
        p999Us,
        mbPerSec,
        writeAmp,
        spaceAmp,
        peakHeapBytes,
        nativeBytes,
        v);
  }
}
