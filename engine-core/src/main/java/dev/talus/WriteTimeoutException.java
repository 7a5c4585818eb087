package dev.talus;

/**
 * A write waited longer than {@link TalusOptions#writeTimeout()} for the commit log — a stalling
 * disk. Two cases, told apart by {@link #logged()}:
 *
 * <ul>
 *   <li><b>not logged</b>: the write gave up before its commit-log record was written (it waited
 *       for the table's write barrier, or for an earlier write to the same partition that itself
 *       waits for the disk). Nothing was written; retrying later may succeed.
 *   <li><b>logged</b> (GROUP and BATCH): its record is in the commit log, but the fsync that would
 *       make it durable did not complete in time. It is not acknowledged and reads do not see it.
 *       It is applied, as a whole (every row of a batch), once that fsync completes — or not at all
 *       if the fsync fails (the database then stops, and after a reopen it is there or not, as the
 *       disk kept it). Like Cassandra's write timeout, its outcome is unknown to the caller: a
 *       retry is safe for writes that are idempotent (an explicit timestamp makes one so), not for
 *       a list append or a counter increment.
 * </ul>
 *
 * <p>Meanwhile reads of memtables and SSTables go on, and {@link TalusDb#commitLogSyncStats()}
 * shows how long the commit log's current fsync has been running.
 */
public class WriteTimeoutException extends TalusException {
  private static final long serialVersionUID = 1L;

  private final boolean logged;

  public WriteTimeoutException(String message, boolean logged) {
    super(message);
    this.logged = logged;
  }

  /**
   * True if the write's commit-log record was written and the write will be applied once its fsync
   * completes; false if nothing was written.
   */
  public boolean logged() {
    return logged;
  }
}
