package dev.talus.table;

import dev.talus.Percentiles;
import dev.talus.metrics.Histogram;
import dev.talus.sstable.SSTableReader;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters and latency histograms of one table, as {@code nodetool tablestats} shows them: the
 * write path, the read path and the flusher record into them; {@link TableInspector} reads them.
 * Thread-safe.
 */
public final class TableMetrics {
  // Counters every read or write bumps are LongAdders: with several threads reading, one atomic
  // counter is a cache line they all fight over.
  final LongAdder writes = new LongAdder();
  final LongAdder reads = new LongAdder();
  final LongAdder sstablesRead = new LongAdder();
  final AtomicLong flushes = new AtomicLong();
  final AtomicLong bytesFlushed = new AtomicLong();
  private final AtomicInteger lastReadTombstones = new AtomicInteger();
  final LongAdder bloomLookups = new LongAdder();
  final LongAdder bloomFalsePositives = new LongAdder();
  final AtomicLong tombstoneWarnings = new AtomicLong();
  final Histogram writeLatency = new Histogram();
  final Histogram readLatency = new Histogram();
  final Histogram sourcesPerRead = new Histogram();
  final Histogram tombstonesPerRead = new Histogram();

  /** A write was applied to the memtable. */
  void written() {
    writes.increment();
  }

  /** Records a write's latency since {@code startNanos} ({@link Histogram#startTimer()}). */
  public long writeLatencySince(long startNanos) {
    return writeLatency.recordSinceMicros(startNanos);
  }

  /** A read started (counted before it runs, retries included). */
  public void readStarted() {
    reads.increment();
  }

  /** Records a read's latency since {@code startNanos}; returns it in microseconds. */
  public long readLatencySince(long startNanos) {
    return readLatency.recordSinceMicros(startNanos);
  }

  /** A read scanned {@code tombstones} tombstones in all. */
  public void readDone(int tombstones) {
    lastReadTombstones.set(tombstones);
    tombstonesPerRead.record(tombstones);
  }

  /** A read of one partition merged {@code n} sources. */
  public void sourcesRead(int n) {
    sstablesRead.add(n);
    sourcesPerRead.record(n);
  }

  /** A read crossed the tombstone warning threshold. */
  public void tombstoneWarning() {
    tombstoneWarnings.incrementAndGet();
  }

  /** An SSTable's Bloom filter was asked for a key. */
  public void bloomLookups(int n) {
    bloomLookups.add(n);
  }

  public void bloomLookup() {
    bloomLookups.increment();
  }

  private volatile Runnable onSeeksExhausted = () -> {};

  /** What to do when a read uses up an SSTable's seek allowance (the table asks for compaction). */
  void onSeeksExhausted(Runnable action) {
    this.onSeeksExhausted = action;
  }

  /**
   * A read that consulted several SSTables charges {@code first}, the first it consulted, one seek
   * (LevelDB's rule); the charge that uses up its allowance asks for a compaction.
   */
  public void chargeSeek(SSTableReader first) {
    if (first.stats().level() == 0 && first.seeks().charge()) {
      onSeeksExhausted.run();
    }
  }

  /** The Bloom filter said maybe, the index said no. */
  public void bloomFalsePositive() {
    bloomFalsePositives.increment();
  }

  void flushed(long sstableBytes) {
    bytesFlushed.addAndGet(sstableBytes);
  }

  public long writeCount() {
    return writes.sum();
  }

  public long readCount() {
    return reads.sum();
  }

  public long flushCount() {
    return flushes.get();
  }

  /** Tombstones the most recent read scanned. */
  public int lastReadTombstones() {
    return lastReadTombstones.get();
  }

  static Percentiles percentiles(Histogram h) {
    return new Percentiles(
        h.count(),
        h.percentile(50),
        h.percentile(75),
        h.percentile(95),
        h.percentile(98),
        h.percentile(99),
        h.max());
  }
}
