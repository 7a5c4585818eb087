package dev.talus.bench;

/**
 * One engine under comparison, seen through the few operations the workloads need, over one
 * wide-column table {@code (p int, seq bigint, v blob, PRIMARY KEY (p, seq))}. Implementations are
 * thread-safe for concurrent reads and writes, and own their data directory until {@link #close()}.
 */
interface BenchEngine extends AutoCloseable {
  /** The order rows of a partition are stored and read in. */
  enum Layout {
    /** Newest (highest seq) first: "latest N" reads forward. */
    NEWEST_FIRST,
    /** Oldest (lowest seq) first: a queue's head reads forward. */
    OLDEST_FIRST
  }

  /** "talus" or "rocksdb". */
  String name();

  void put(int partition, long seq, byte[] value);

  /** Deletes one row. */
  void delete(int partition, long seq);

  /** Deletes rows {@code fromSeq <= seq < toSeq} of a partition with one range tombstone. */
  void deleteRange(int partition, long fromSeq, long toSeq);

  /** Reads one row; true if it exists. */
  boolean get(int partition, long seq);

  /** Reads the first {@code n} live rows of a partition in its layout order; returns how many. */
  int readFirst(int partition, int n);

  /** Writes memtables to files and waits, then waits for compactions to settle (both engines). */
  void flush();

  /** Bytes written to data files by flushes and compactions since open. */
  long bytesWrittenToFiles();

  /** Bytes of everything in the data directory now. */
  long diskBytes();

  /** Its SSTables per level and the memory it accounts for, now. */
  EngineState state();

  /** Starts counting the sources reads consult from zero. */
  void resetReadSources();

  /**
   * Sources consulted per read since {@link #resetReadSources()}, over {@code reads} reads of which
   * {@code gets} were point reads (the rest iterators or slices).
   */
  ReadSources readSources(long reads, boolean gets);

  @Override
  void close();
}
