package dev.talus.write;

/**
 * What the write path asks of the database's background jobs when memory or the commit log fills
 * up. Implementations never block and never throw.
 */
public interface FlushTrigger {
  /** Queue a flush of the table whose memtable holds the most bytes. */
  void flushLargest();

  /**
   * Memtables fill more than half the space: queue a flush of the largest one if the memtables
   * taking writes fill half the space on their own. Memory held by memtables already being flushed
   * is about to be freed and does not call for another flush (Cassandra's memtable cleaner counts
   * used minus reclaiming the same way); counting it flushed a nearly empty memtable right after
   * every flush.
   */
  void memtablesOverHalf();

  /**
   * If the commit log outgrew its space, queue flushes of the tables keeping its oldest segment.
   */
  void checkCommitLogSpace();

  /**
   * Why flushes cannot free memtable space now (e.g. the disk is full), for the message of a write
   * refused after waiting for space; empty if there is no known reason.
   */
  default String stallReason() {
    return "";
  }
}
