package dev.talus.table;

/**
 * What a table needs from the database that holds it, given to the table at open so that the table
 * never reaches up for it: commit-log positions for flushes, and where to report freed memory,
 * finished flushes and finished compactions (the database schedules follow-up work), and failed
 * ones. Implementations are thread-safe and never block.
 */
public interface TableHost {
  /** The commit log's position now, encoded as one long (segment id high, offset low). */
  long commitLogPosition();

  /** Every record of table {@code tableId} before {@code upTo} (encoded) is in an SSTable. */
  void markFlushed(int tableId, long upTo);

  /** A flush freed {@code bytes} of memtable space. */
  void memoryFreed(long bytes);

  /** A flush of {@code table} made a new SSTable live. */
  void flushed(TableStore table);

  /** A compaction of {@code table} ended (done, failed or cancelled). */
  void compacted(TableStore table);

  /** Reads of {@code table} used up an SSTable's seek allowance: its strategy may have work. */
  default void readsWantCompaction(TableStore table) {}

  /**
   * A flush ({@code compaction} false) or a compaction of {@code table}, described by {@code what},
   * failed with {@code cause}; its partial files are removed and its memtable or inputs kept. The
   * database retries it by itself if the disk was full, and then returns true.
   */
  boolean writeFailed(TableStore table, boolean compaction, String what, java.io.IOException cause);
}
