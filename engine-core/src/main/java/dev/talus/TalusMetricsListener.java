package dev.talus;

/**
 * Receives the engine's metric events, so an application can bridge them to Micrometer, JMX or its
 * own registry without Talus depending on any of them. Set it with {@link
 * TalusOptions.Builder#metricsListener}; the default does nothing.
 *
 * <p>Methods are called on the thread doing the work (writers, readers, the flush and compaction
 * threads), concurrently, so implementations must be thread-safe and fast: record and return. Every
 * method has an empty default. An exception thrown by a listener is caught and logged by the
 * engine; it never fails the write, read, flush or compaction that reported it.
 */
public interface TalusMetricsListener {
  /** Which guardrail a {@link #onGuardrail} event is about. */
  enum GuardrailKind {
    /** A partition crossed the partition size warning threshold (logged, not refused). */
    PARTITION_SIZE_WARN,
    /** A write was refused: it would push a partition past the partition size failure threshold. */
    PARTITION_SIZE_FAIL,
    /** A partition crossed the partition rows warning threshold (logged, not refused). */
    PARTITION_ROWS_WARN,
    /** A write was refused: it would push a partition past the partition rows failure threshold. */
    PARTITION_ROWS_FAIL,
    /** A collection crossed the elements-per-collection warning threshold (logged, not refused). */
    COLLECTION_ITEMS_WARN,
    /** A write was refused: it puts more elements in one collection than the failure threshold. */
    COLLECTION_ITEMS_FAIL,
    /**
     * A collection crossed the collection size warning threshold in bytes (logged, not refused).
     */
    COLLECTION_SIZE_WARN,
    /** A write was refused: it puts more bytes in one collection than the failure threshold. */
    COLLECTION_SIZE_FAIL
  }

  /** What an {@link #onWarning} event is about. */
  enum WarningKind {
    /**
     * A data-model finding of {@link TableSchema#lint()}, reported when a table is created (and
     * each time {@code createTableIfNotExists} returns it).
     */
    DATA_MODEL,
    /** A read scanned more tombstones than the table's warning threshold. */
    TOMBSTONES,
    /**
     * A partition crossed a partition size or rows warning threshold, or a collection a collection
     * size warning threshold (see {@link #onGuardrail}).
     */
    GUARDRAIL
  }

  /** The listener that ignores everything (the default). */
  TalusMetricsListener NO_OP = new TalusMetricsListener() {};

  /** A single write (insert, update or delete) was applied, taking {@code micros}. */
  default void onWrite(String table, long micros) {}

  /**
   * A read finished in {@code micros}, having merged {@code sstablesTouched} sources (memtables and
   * SSTables, summed over the partitions read) and scanned {@code tombstonesScanned} tombstones.
   */
  default void onRead(String table, long micros, int sstablesTouched, int tombstonesScanned) {}

  /** A memtable was flushed to an SSTable of {@code bytes} on disk. */
  default void onFlush(String table, long bytes) {}

  /** A compaction read {@code bytesIn} and wrote {@code bytesOut} on-disk bytes. */
  default void onCompaction(String table, long bytesIn, long bytesOut) {}

  /**
   * A compaction of {@code table} failed for a reason other than a full disk (an I/O error, a
   * corrupt input SSTable; {@code cause} says which compaction and the error), the {@code
   * inARow}-th failure since its last compaction went through; no background compaction of the
   * table starts for {@code retryAfter} of the database clock (1 s, doubling up to 5 min). See
   * {@link TableStats#failedCompactions()}.
   */
  default void onCompactionFailure(
      String table, int inARow, java.time.Duration retryAfter, String cause) {}

  /**
   * The disk under {@code directory} filled up ({@code full} true: a flush or compaction failed
   * with "No space left on device", {@code detail} says which and the error) or has room again
   * ({@code full} false: the automatic retries all went through). See {@link
   * TalusDb#diskFullStats()}.
   */
  default void onDiskFull(String directory, boolean full, String detail) {}

  /**
   * A guardrail fired for the partition described by {@code partitionKey} (column=value pairs, as
   * in log messages).
   */
  default void onGuardrail(String table, GuardrailKind kind, String partitionKey) {}

  /**
   * The engine logged a warning about {@code table} at WARN through SLF4J; {@code message} is the
   * logged text. Talus ships no SLF4J binding, so without one in the application these warnings go
   * nowhere — this event lets a test (engine-testkit captures them) or an application see them
   * anyway.
   */
  default void onWarning(String table, WarningKind kind, String message) {}
}
