package dev.talus.write;

/**
 * What the write path asks of the database's background jobs when memory or the commit log fills
 * up. Implementations never block and never throw.
 */
public interface FlushTrigger {
  /** Queue a flush of the table whose memtable holds the most bytes. */
  void flushLargest();

  /**
   * If the commit log outgrew its space, queue flushes of the tables keeping its oldest segment.
   */
  void checkCommitLogSpace();
}
