package dev.talus.db;

import dev.talus.commitlog.CommitLog;
import dev.talus.table.TableHost;
import dev.talus.table.TableStore;
import dev.talus.write.MemtableBudget;
import java.util.function.Supplier;

/**
 * What a table asks of its database: the commit-log position a flush covers, marking it flushed,
 * returning memtable memory, and scheduling compactions. Thread-safe as its parts are.
 */
final class DatabaseHost implements TableHost {
  private final Supplier<CommitLog> commitLog;
  private final MemtableBudget budget;
  private final BackgroundJobs jobs;

  /** {@code commitLog} is read at each call: the log is opened after the tables are loaded. */
  DatabaseHost(Supplier<CommitLog> commitLog, MemtableBudget budget, BackgroundJobs jobs) {
    this.commitLog = commitLog;
    this.budget = budget;
    this.jobs = jobs;
  }

  @Override
  public long commitLogPosition() {
    return CommitLogReplay.encode(commitLog.get().currentPosition());
  }

  @Override
  public void markFlushed(int tableId, long upTo) {
    commitLog.get().markFlushed(tableId, CommitLogReplay.decode(upTo));
  }

  @Override
  public void memoryFreed(long bytes) {
    budget.freed(bytes);
  }

  @Override
  public void flushed(TableStore table) {
    jobs.scheduleCompaction(table);
  }

  @Override
  public void compacted(TableStore table) {
    jobs.scheduleCompaction(table);
  }

  @Override
  public void readsWantCompaction(TableStore table) {
    jobs.scheduleCompaction(table);
  }

  @Override
  public boolean writeFailed(
      TableStore table, boolean compaction, String what, java.io.IOException cause) {
    jobs.diskFull().failed(table, compaction, what, cause);
    return DiskFullRetries.isDiskFull(cause);
  }
}
