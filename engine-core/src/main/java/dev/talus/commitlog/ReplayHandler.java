package dev.talus.commitlog;

/**
 * Receives the records found in the commit log when it is opened, in log order, on the thread that
 * calls {@link CommitLog#open}. The handler decides, per table, whether to apply a record (it knows
 * what each table has already flushed). An exception thrown by the handler aborts the open.
 */
@FunctionalInterface
public interface ReplayHandler {
  /**
   * @param position where the record starts; pass a later position to {@link CommitLog#markFlushed}
   *     once the record is in an SSTable
   * @param payload the bytes given to {@link CommitLog#append}; the handler may keep the array
   */
  void replay(CommitLogPosition position, byte[] payload);
}
