package dev.talus.table;

/**
 * What a table needs from the database that holds it, given to the table at open so that the table
 * never reaches up for it: commit-log positions for flushes, and where to report freed memory,
 * finished flushes and finished compactions (the database schedules follow-up work).
 * Implementations are thread-safe and never block.
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
}
