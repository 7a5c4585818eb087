package dev.talus;

/**
 * When a write is acknowledged relative to the commit log's fsync. In every mode an acknowledged
 * write survives the process being killed (the record reached the operating system before the write
 * returned). See docs/durability.md.
 */
public enum CommitLogSync {
  /**
   * Acknowledge once the record is written; fsync at a fixed interval (default 10 s). A power loss
   * may lose up to one interval of acknowledged writes. The default, as in Cassandra.
   */
  PERIODIC,
  /**
   * Writers wait for the next fsync, which runs at most every group window (default 2 ms), so
   * concurrent writers share one fsync. Acknowledged writes survive power loss.
   */
  GROUP,
  /**
   * Each writer waits for an fsync covering its record; writers that arrive together share it.
   * Acknowledged writes survive power loss.
   */
  BATCH
}
