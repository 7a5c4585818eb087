package dev.talus;

import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Objects;

/**
 * Options fixed when a {@link TalusDb} is opened. Built with {@link #builder(Path)}, validated at
 * {@code build()}; immutable, thread-safe and printable for logs.
 */
public final class TalusOptions {
  private final Path dataDirectory;
  private final InstantSource clock;
  private final long memtableSpaceBytes;
  private final int readThreads;
  private final long chunkCacheBytes;
  private final long indexWriteBufferBytes;
  private final java.time.Duration writeStallTimeout;
  private final java.time.Duration writeTimeout;
  private final int compactionThreads;
  private final double compactionThroughputMibPerSec;
  private final boolean backgroundCompaction;
  private final CommitLogSync commitLogSync;
  private final java.time.Duration commitLogSyncPeriod;
  private final java.time.Duration commitLogGroupWindow;
  private final int commitLogSegmentBytes;
  private final boolean skipCorruptCommitLogRecords;
  private final long commitLogTotalSpaceBytes;
  private final long partitionSizeWarnBytes;
  private final long partitionSizeFailBytes;
  private final long partitionRowsWarn;
  private final long partitionRowsFail;
  private final CollectionThresholds collectionThresholds;
  private final TalusMetricsListener metricsListener;
  private final DiskFailurePolicy diskFailurePolicy;
  private final String defaultKeyspace;
  private final boolean autoSnapshot;

  private TalusOptions(Builder b) {
    this.dataDirectory = b.dataDirectory;
    this.clock = b.clock;
    this.memtableSpaceBytes = b.memtableSpaceBytes;
    this.readThreads = b.readThreads;
    this.chunkCacheBytes = b.chunkCacheBytes;
    this.indexWriteBufferBytes = b.indexWriteBufferBytes;
    this.writeStallTimeout = b.writeStallTimeout;
    this.writeTimeout = b.writeTimeout;
    this.compactionThreads = b.compactionThreads;
    this.compactionThroughputMibPerSec = b.compactionThroughputMibPerSec;
    this.backgroundCompaction = b.backgroundCompaction;
    this.autoSnapshot = b.autoSnapshot;
    this.commitLogSync = b.commitLogSync;
    this.commitLogSyncPeriod = b.commitLogSyncPeriod;
    this.commitLogGroupWindow = b.commitLogGroupWindow;
    this.commitLogSegmentBytes = b.commitLogSegmentBytes;
    this.skipCorruptCommitLogRecords = b.skipCorruptCommitLogRecords;
    this.commitLogTotalSpaceBytes = b.commitLogTotalSpaceBytes;
    this.partitionSizeWarnBytes = b.partitionSizeWarnBytes;
    this.partitionSizeFailBytes = b.partitionSizeFailBytes;
    this.partitionRowsWarn = b.partitionRowsWarn;
    this.partitionRowsFail = b.partitionRowsFail;
    this.collectionThresholds = b.collectionThresholds;
    this.metricsListener = b.metricsListener;
    this.diskFailurePolicy = b.diskFailurePolicy;
    this.defaultKeyspace = b.defaultKeyspace;
  }

  /**
   * The keyspace of tables whose schema names none (default {@code "talus"}): {@link
   * TalusDb#createTable} puts them there, creating the keyspace (SimpleStrategy, one replica,
   * durable writes) the first time, and {@link TalusDb#table(String)} finds an unqualified name
   * there. Tables of a data directory written before keyspaces existed open in it too.
   */
  public String defaultKeyspace() {
    return defaultKeyspace;
  }

  /**
   * When the commit log's segments take more than this, the tables keeping its oldest segment alive
   * are flushed so it can be deleted (default 1 GiB; Cassandra's commitlog_total_space).
   */
  public long commitLogTotalSpaceBytes() {
    return commitLogTotalSpaceBytes;
  }

  /**
   * Engine default of the partition size warning threshold, for tables whose schema leaves it unset
   * (default 100 MiB; 0 = off). Checked where SSTables are written — every partition a flush or
   * compaction appends is measured (serialized, uncompressed bytes) — and logged once per partition
   * per open, counted in {@link TableStats#guardrailWarnings()}. A partition whose memtable
   * estimate crosses it on a write is warned about then too.
   */
  public long partitionSizeWarnBytes() {
    return partitionSizeWarnBytes;
  }

  /**
   * Engine default of the partition size failure threshold (default 0 = off). Checked on each
   * write, before anything is logged or applied, against an estimate: the bytes the memtables hold
   * for the partition plus the largest size an SSTable write of this open recorded for it. A write
   * that would cross it fails with {@link GuardrailViolationException}. The estimate can be low (a
   * partition spread over several SSTables not yet compacted together, or written before this open)
   * or high (overwrites counted twice), so set it with margin above the warning.
   */
  public long partitionSizeFailBytes() {
    return partitionSizeFailBytes;
  }

  /**
   * Engine default of the partition rows warning threshold (default 100,000; 0 = off). Checked like
   * {@link #partitionSizeWarnBytes()}: rows counted at SSTable writes, and memtable rows on writes.
   */
  public long partitionRowsWarn() {
    return partitionRowsWarn;
  }

  /**
   * Engine default of the partition rows failure threshold (default 0 = off). Checked on each write
   * like {@link #partitionSizeFailBytes()}: memtable rows (each distinct clustering counted once)
   * plus the most rows an SSTable write of this open recorded for the partition.
   */
  public long partitionRowsFail() {
    return partitionRowsFail;
  }

  /**
   * The collection size guardrails: elements and bytes per collection (default {@link
   * CollectionThresholds#DEFAULT}: warn past 1,000 elements or 1 MiB, refuse nothing).
   */
  public CollectionThresholds collectionThresholds() {
    return collectionThresholds;
  }

  /** Receives metric events (default {@link TalusMetricsListener#NO_OP}). */
  public TalusMetricsListener metricsListener() {
    return metricsListener;
  }

  /** What a corrupt SSTable does to reads and verify (default {@link DiskFailurePolicy#FAIL}). */
  public DiskFailurePolicy diskFailurePolicy() {
    return diskFailurePolicy;
  }

  /** When writes are acknowledged relative to the commit log's fsync (default PERIODIC). */
  public CommitLogSync commitLogSync() {
    return commitLogSync;
  }

  /** PERIODIC: how often the commit log is fsynced (default 10 s). */
  public java.time.Duration commitLogSyncPeriod() {
    return commitLogSyncPeriod;
  }

  /** GROUP: the longest a writer waits for the shared fsync (default 2 ms). */
  public java.time.Duration commitLogGroupWindow() {
    return commitLogGroupWindow;
  }

  /** Size of a commit-log segment (default 32 MiB); a write may use at most half of one. */
  public int commitLogSegmentBytes() {
    return commitLogSegmentBytes;
  }

  /**
   * Whether opening skips commit-log records that fail their checksum before the tail (counted and
   * logged) instead of failing with {@link CorruptCommitLogException} (default false).
   */
  public boolean skipCorruptCommitLogRecords() {
    return skipCorruptCommitLogRecords;
  }

  /** Threads running background compactions (default 1). */
  public int compactionThreads() {
    return compactionThreads;
  }

  /** Compaction read throughput limit in MiB/s; 0 means unlimited (the default). */
  public double compactionThroughputMibPerSec() {
    return compactionThroughputMibPerSec;
  }

  /** Whether compactions start by themselves after flushes (default true). */
  public boolean backgroundCompaction() {
    return backgroundCompaction;
  }

  /**
   * Whether {@link TalusDb#dropTable} and {@link Table#truncate} take a snapshot of the table first
   * (Cassandra's {@code auto_snapshot}), named {@code dropped-<epoch ms>-<table>} or {@code
   * truncated-<epoch ms>-<table>}. Default false, where Cassandra's is true: an embedded database
   * (and every test that drops or truncates) would otherwise keep every dropped table's data on
   * disk until its snapshots are cleared.
   */
  public boolean autoSnapshot() {
    return autoSnapshot;
  }

  /** Options for the database stored in {@code dataDirectory} (created if missing). */
  public static Builder builder(Path dataDirectory) {
    return new Builder(dataDirectory);
  }

  public Path dataDirectory() {
    return dataDirectory;
  }

  /** The one source of "now": write timestamps, TTL expiry, gc_grace, compaction windows. */
  public InstantSource clock() {
    return clock;
  }

  /** Memtable space for all tables together. */
  public long memtableSpaceBytes() {
    return memtableSpaceBytes;
  }

  /** Threads that read the partitions of a multi-partition (IN) query in parallel. */
  public int readThreads() {
    return readThreads;
  }

  /** Cache of decompressed SSTable chunks shared by all tables (0 disables it). */
  public long chunkCacheBytes() {
    return chunkCacheBytes;
  }

  /**
   * Heap for the index terms of one SSTable being written (a flush or compaction output, or an
   * index build), over all its storage-attached indexes: past it the terms are spilled to sorted
   * runs on disk and merged when the SSTable's components are finished (docs/indexes.md, "Memory
   * while writing").
   */
  public long indexWriteBufferBytes() {
    return indexWriteBufferBytes;
  }

  /** How long a writer waits for memtable space before {@link WriteRejectedException}. */
  public java.time.Duration writeStallTimeout() {
    return writeStallTimeout;
  }

  /**
   * How long a write waits for the commit log (default 60 s): in {@link CommitLogSync#GROUP} and
   * {@link CommitLogSync#BATCH}, for the fsync that makes its record durable, and in every mode for
   * the table's write barrier and for earlier writes to the same partition (counter and conditional
   * writes) that still wait for theirs. Past it the write throws {@link WriteTimeoutException}: a
   * stalling disk makes writes fail cleanly instead of hanging. Must be positive.
   */
  public java.time.Duration writeTimeout() {
    return writeTimeout;
  }

  @Override
  public String toString() {
    return "TalusOptions{"
        + String.join(
            ", ",
            "dataDirectory=" + dataDirectory,
            "clock=" + clock,
            "memtableSpaceBytes=" + memtableSpaceBytes,
            "readThreads=" + readThreads,
            "chunkCacheBytes=" + chunkCacheBytes,
            "indexWriteBufferBytes=" + indexWriteBufferBytes,
            "writeStallTimeout=" + writeStallTimeout,
            "writeTimeout=" + writeTimeout,
            "compactionThreads=" + compactionThreads,
            "compactionThroughputMibPerSec=" + compactionThroughputMibPerSec,
            "backgroundCompaction=" + backgroundCompaction,
            "autoSnapshot=" + autoSnapshot,
            "commitLogSync=" + commitLogSync,
            "commitLogSyncPeriod=" + commitLogSyncPeriod,
            "commitLogGroupWindow=" + commitLogGroupWindow,
            "commitLogSegmentBytes=" + commitLogSegmentBytes,
            "skipCorruptCommitLogRecords=" + skipCorruptCommitLogRecords,
            "commitLogTotalSpaceBytes=" + commitLogTotalSpaceBytes,
            "partitionSizeThresholds=" + partitionSizeWarnBytes + "/" + partitionSizeFailBytes,
            "partitionRowsThresholds=" + partitionRowsWarn + "/" + partitionRowsFail,
            "collectionThresholds=" + collectionThresholds,
            "metricsListener="
                + (metricsListener == TalusMetricsListener.NO_OP ? "none" : metricsListener),
            "diskFailurePolicy=" + diskFailurePolicy,
            "defaultKeyspace=" + defaultKeyspace)
        + "}";
  }

  /** Collects options. Not thread-safe. */
  public static final class Builder {
    private final Path dataDirectory;
    private InstantSource clock = InstantSource.system();
    private long memtableSpaceBytes = Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 4);
    private int readThreads = 2;
    private long chunkCacheBytes = 64L << 20;
    private long indexWriteBufferBytes = 32L << 20;
    private java.time.Duration writeStallTimeout = java.time.Duration.ofSeconds(60);
    private java.time.Duration writeTimeout = java.time.Duration.ofSeconds(60);
    private int compactionThreads = 1;
    private double compactionThroughputMibPerSec;
    private boolean backgroundCompaction = true;
    private boolean autoSnapshot;
    private CommitLogSync commitLogSync = CommitLogSync.PERIODIC;
    private java.time.Duration commitLogSyncPeriod = java.time.Duration.ofSeconds(10);
    private java.time.Duration commitLogGroupWindow = java.time.Duration.ofMillis(2);
    private int commitLogSegmentBytes = 32 << 20;
    private boolean skipCorruptCommitLogRecords;
    private long commitLogTotalSpaceBytes = 1L << 30;
    private long partitionSizeWarnBytes = 100L << 20;
    private long partitionSizeFailBytes;
    private long partitionRowsWarn = 100_000;
    private long partitionRowsFail;
    private CollectionThresholds collectionThresholds = CollectionThresholds.DEFAULT;
    private TalusMetricsListener metricsListener = TalusMetricsListener.NO_OP;
    private DiskFailurePolicy diskFailurePolicy = DiskFailurePolicy.FAIL;
    private String defaultKeyspace = "talus";

    private Builder(Path dataDirectory) {
      this.dataDirectory = Objects.requireNonNull(dataDirectory, "dataDirectory");
    }

    /** The clock; use a {@link ManualClock} in tests. Default: the system clock. */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Memtable space for all tables (default min(256 MiB, max heap / 4)). */
    public Builder memtableSpaceBytes(long bytes) {
      this.memtableSpaceBytes = bytes;
      return this;
    }

    /** Threads for parallel multi-partition reads (default 2). */
    public Builder readThreads(int threads) {
      this.readThreads = threads;
      return this;
    }

    /** Decompressed-chunk cache size shared by all tables (default 64 MiB; 0 disables it). */
    public Builder chunkCacheBytes(long bytes) {
      this.chunkCacheBytes = bytes;
      return this;
    }

    /**
     * Heap for the index terms of each SSTable being written, over all its indexes (default 32 MiB;
     * at least 1 KiB — values that small are for tests, which want spills). See {@link
     * TalusOptions#indexWriteBufferBytes()}.
     */
    public Builder indexWriteBufferBytes(long bytes) {
      this.indexWriteBufferBytes = bytes;
      return this;
    }

    /** How long writers wait for memtable space before being refused (default 60 s). */
    public Builder writeStallTimeout(java.time.Duration timeout) {
      this.writeStallTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /** See {@link TalusOptions#writeTimeout()} (default 60 s). */
    public Builder writeTimeout(java.time.Duration timeout) {
      this.writeTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    /** Threads for background compactions (default 1). */
    public Builder compactionThreads(int threads) {
      this.compactionThreads = threads;
      return this;
    }

    /** Limit compaction reads to this many MiB/s; 0 (the default) means unlimited. */
    public Builder compactionThroughputMibPerSec(double mib) {
      this.compactionThroughputMibPerSec = mib;
      return this;
    }

    /**
     * Whether compactions start by themselves after flushes (default true). Tests of compaction
     * behaviour turn it off and drive compaction with {@link Table#compact()}.
     */
    public Builder backgroundCompaction(boolean enabled) {
      this.backgroundCompaction = enabled;
      return this;
    }

    /** When writes are acknowledged relative to the commit log's fsync (default PERIODIC). */
    public Builder commitLogSync(CommitLogSync mode) {
      this.commitLogSync = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /** PERIODIC mode's fsync interval (default 10 s). */
    public Builder commitLogSyncPeriod(java.time.Duration period) {
      this.commitLogSyncPeriod = Objects.requireNonNull(period, "period");
      return this;
    }

    /** GROUP mode's window between shared fsyncs (default 2 ms). */
    public Builder commitLogGroupWindow(java.time.Duration window) {
      this.commitLogGroupWindow = Objects.requireNonNull(window, "window");
      return this;
    }

    /** Commit-log segment size (default 32 MiB). */
    public Builder commitLogSegmentBytes(int bytes) {
      this.commitLogSegmentBytes = bytes;
      return this;
    }

    /** Skip (count and log) corrupt commit-log records at open instead of failing. */
    public Builder skipCorruptCommitLogRecords(boolean skip) {
      this.skipCorruptCommitLogRecords = skip;
      return this;
    }

    /** Flush to free the oldest commit-log segment past this much log (default 1 GiB). */
    public Builder commitLogTotalSpaceBytes(long bytes) {
      this.commitLogTotalSpaceBytes = bytes;
      return this;
    }

    /** What a corrupt SSTable does to reads and verify (default FAIL: they fail loudly). */
    public Builder diskFailurePolicy(DiskFailurePolicy policy) {
      this.diskFailurePolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** Shorthand for {@code diskFailurePolicy(quarantine ? QUARANTINE : FAIL)}. */
    public Builder quarantineCorruptSSTables(boolean quarantine) {
      return diskFailurePolicy(quarantine ? DiskFailurePolicy.QUARANTINE : DiskFailurePolicy.FAIL);
    }

    /**
     * Engine-wide partition size guardrail in bytes for tables that leave theirs unset (default
     * warn 100 MiB, fail 0 = off). See {@link TalusOptions#partitionSizeWarnBytes()} and {@link
     * TalusOptions#partitionSizeFailBytes()} for where each is checked.
     */
    public Builder partitionSizeThresholds(long warnBytes, long failBytes) {
      this.partitionSizeWarnBytes = warnBytes;
      this.partitionSizeFailBytes = failBytes;
      return this;
    }

    /**
     * Engine-wide partition rows guardrail for tables that leave theirs unset (default warn
     * 100,000, fail 0 = off).
     */
    public Builder partitionRowsThresholds(long warnRows, long failRows) {
      this.partitionRowsWarn = warnRows;
      this.partitionRowsFail = failRows;
      return this;
    }

    /** The collection size guardrails (default {@link CollectionThresholds#DEFAULT}). */
    public Builder collectionThresholds(CollectionThresholds thresholds) {
      this.collectionThresholds = Objects.requireNonNull(thresholds, "thresholds");
      return this;
    }

    /** Receives metric events; its exceptions are caught and logged (default: none). */
    public Builder metricsListener(TalusMetricsListener listener) {
      this.metricsListener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** See {@link TalusOptions#autoSnapshot()} (default false). */
    public Builder autoSnapshot(boolean enabled) {
      this.autoSnapshot = enabled;
      return this;
    }

    /** The keyspace of tables whose schema names none (default {@code "talus"}). */
    public Builder defaultKeyspace(String keyspace) {
      this.defaultKeyspace = Objects.requireNonNull(keyspace, "keyspace");
      return this;
    }

    /** The options; {@link InvalidSchemaException} if one is out of range. */
    public TalusOptions build() {
      TalusOptions o = new TalusOptions(this);
      OptionChecks.check(o);
      return o;
    }
  }
}
