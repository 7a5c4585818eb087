package dev.talus.bench;

/**
 * What a workload measures around its timed phase besides time and latency: heap (live set after a
 * GC, and pool peaks), the engine's own memory figures and the sources its reads consulted. The
 * collections happen outside the timed phase. Not thread-safe.
 */
final class PhaseProbe {
  private final long baselineLiveBytes;

  /**
   * @param baselineLiveBytes {@link HeapMeter#liveBytes()} before the engine was opened
   */
  PhaseProbe(long baselineLiveBytes) {
    this.baselineLiveBytes = baselineLiveBytes;
  }

  /** The phase's figures, taken at its end. */
  record End(long liveHeapBytes, long poolPeakBytes, EngineState state, ReadSources sources) {}

  /** Call just before the timed phase. */
  void start(BenchEngine e) {
    HeapMeter.reset();
    e.resetReadSources();
  }

  /**
   * Call just after the timed phase (before any flush): {@code reads} reads, point reads or not.
   */
  End end(BenchEngine e, long reads, boolean gets) {
    long peaks = HeapMeter.peakBytes();
    ReadSources sources = reads > 0 ? e.readSources(reads, gets) : ReadSources.NONE;
    EngineState state = e.state();
    long live = Math.max(0, HeapMeter.liveBytes() - baselineLiveBytes);
    return new End(live, peaks, state, sources);
  }
}
