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
 * @param liveHeapBytes heap in use after a full GC at the end of the measured phase (before any
 *     flush), minus the same figure before the engine was opened: the engine's live set
 * @param poolPeakBytes the sum of the heap pools' peaks during the phase (garbage included)
 * @param atEnd the engine's own memory figures at the end of the phase, before any flush
 * @param settled the engine once its flush and compactions settled (the LSM shape)
 * @param sources sources consulted per read (read workloads)
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
    long liveHeapBytes,
    long poolPeakBytes,
    EngineState atEnd,
    EngineState settled,
    ReadSources sources,
    double writerOpsPerSec) {

  /** The timing of a phase and what {@link PhaseProbe} saw at its end. */
  static Run of(
      String workload,
      String engine,
      long ops,
      long nanos,
      Histogram latencyNanos,
      double mbPerSec,
      double writeAmp,
      double spaceAmp,
      PhaseProbe.End end,
      EngineState settled) {
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
        end.liveHeapBytes(),
        end.poolPeakBytes(),
        end.state(),
        settled,
        end.sources(),
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
        liveHeapBytes,
        poolPeakBytes,
        atEnd,
        settled,
        sources,
        v);
  }
}
