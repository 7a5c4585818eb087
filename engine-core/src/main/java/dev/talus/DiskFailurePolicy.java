package dev.talus;

/**
 * What Talus does when an SSTable turns out to be corrupt (a checksum or format check fails at
 * open, during a read or during {@link Table#verify()}); like Cassandra's {@code
 * disk_failure_policy}, minus the policies that stop a node.
 */
public enum DiskFailurePolicy {
  /**
   * The default: every read touching the damaged SSTable, and {@code verify()}, fails with {@link
   * CorruptSSTableException} naming the file and offset; opening fails if the damage is found then.
   * Nothing is returned from data that failed a check, and nothing is removed.
   */
  FAIL,
  /**
   * The damaged SSTable is removed from the live set (a manifest edit), its files are moved to the
   * {@code quarantine/} subdirectory of the table's directory, the event is logged and counted
   * ({@link Table#quarantinedSSTables()}), and the read or verify goes on without it. Reads may
   * then return older data the quarantined SSTable had overwritten or deleted (Cassandra's {@code
   * best_effort}): choose it only where availability matters more than that.
   */
  QUARANTINE
}
