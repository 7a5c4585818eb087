package dev.talus.table;

import dev.talus.StorageException;
import dev.talus.data.PartitionMerger;
import dev.talus.data.Slice;
import dev.talus.memtable.MemPartition;
import dev.talus.memtable.Memtable;
import dev.talus.runtime.DbContext;
import dev.talus.sstable.SSTableReader;
import dev.talus.sstable.SSTableWriter;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Flushes one table: under the write barrier for an instant it seals the memtable taking writes at
 * a commit-log position and swaps in a fresh one; then it writes each sealed memtable, oldest first
 * and one at a time, to an SSTable (merged first, so shadowed data is not written), makes it live
 * through the {@link ViewTracker}, and tells the database which commit-log records the table no
 * longer needs. Thread-safe.
 */
final class Flusher {
  private final TableStore table;
  private final DbContext ctx;
  private final TableHost host;

  /** Flushes of this table run one at a time so they complete in order. */
  private final ReentrantLock flushLock = new ReentrantLock();

  /** When (database clock) the SSTable write running now began; null while none runs. */
  private volatile Instant writingSince;

  Flusher(TableStore table, DbContext ctx, TableHost host) {
    this.table = table;
    this.ctx = ctx;
    this.host = host;
  }

  /**
   * Flushes the memtable taking writes now (and any earlier one still pending) into an SSTable.
   * Writes go on into a fresh memtable meanwhile; reads see both. Returns when the SSTable is live.
   */
  void flush() {
    ctx.checkWritable();
    ViewTracker tracker = table.tracker();
    table.lockMemtableSwitch();
    try {
      if (table.retired()) {
        return; // dropped or truncated: nothing is written any more
      }
      // A write whose record is logged but which is applied only when its fsync completes (its
      // writer timed out) must land in the memtable this switch seals: wait for it. The wait shows
      // in the stats like a stalled SSTable write: it lasts as long as the commit log's stall.
      if (table.pendingWrites().count() > 0) {
        writingSince = ctx.clock().instant();
        try {
          table.pendingWrites().awaitNone();
        } finally {
          writingSince = null;
        }
      }
      TableView v = tracker.current();
      if (v.active().isEmpty() && v.flushing().isEmpty()) {
        return;
      }
      Memtable sealed = v.active();
      if (!sealed.isEmpty()) {
        // No write of this table is in flight (we hold the barrier), and the log hands out
        // positions in order, so every later write of this table lands after this position.
        long position = host.commitLogPosition();
        sealed.setCommitLogUpper(position);
        Memtable fresh = new Memtable();
        fresh.setCommitLogLower(position);
        tracker.switchMemtable(fresh);
      }
    } finally {
      table.unlockMemtableSwitch();
    }
    flushPending();
  }

  /** Writes every sealed memtable, oldest first. */
  private void flushPending() {
    flushLock.lock();
    try {
      while (!table.retired()) {
        List<Memtable> pending = table.tracker().current().flushing();
        if (pending.isEmpty()) {
          return;
        }
        writingSince = ctx.clock().instant();
        try {
          flushOne(pending.get(0));
        } finally {
          writingSince = null;
        }
      }
    } finally {
      flushLock.unlock();
    }
  }

  /**
   * When (database clock) the flush writing an SSTable of this table now began (or began waiting
   * for writes held up by a stalled commit-log fsync), or empty if none is: a flush held up by a
   * slow or stalled disk shows here for as long as it lasts.
   */
  Optional<Instant> runningSince() {
    return Optional.ofNullable(writingSince);
  }

  /** Runs {@code action} once no flush of this table runs, holding off the next ones meanwhile. */
  void excluding(Runnable action) {
    flushLock.lock();
    try {
      action.run();
    } finally {
      flushLock.unlock();
    }
  }

  private void flushOne(Memtable m) {
    SSTableReader reader = null;
    String name = table.schema().name();
    if (!m.isEmpty()) {
      try {
        long gen = table.manifest().newGeneration();
        long rows = 0;
        for (MemPartition p : m.partitions()) {
          rows += p.rowCount();
        }
        try (SSTableWriter w =
            SSTableWriter.create(
                ctx.fs(),
                table.directory(),
                gen,
                Math.max(1, m.partitionCount()),
                Math.max(1, rows),
                table.sstableOptions(0).toBuilder()
                    .commitLogInterval(Math.max(0, m.commitLogLower()), m.commitLogUpper())
                    .attachedWriters(table.indexes().componentWriters(table.keys()))
                    .build())) {
          for (MemPartition p : m.partitions()) {
            PartitionMerger.Merged merged =
                PartitionMerger.merge(p.key(), List.of(p), Slice.ALL, false);
            w.append(
                p.key(),
                merged.partitionDeletion(),
                merged.rangeDeletions().intervals(),
                merged.rows());
          }
          w.prepareToCommit();
          w.commit();
        }
        reader = SSTableReader.open(ctx.fs(), table.directory(), gen, ctx.chunkCache());
        // written with the SSTable; completed (an index created meanwhile) before it goes live
        table.indexes().writeFor(reader, table.keys());
        table.tracker().flushCommitted(reader);
        ctx.metrics().flush(name, reader.onDiskSize());
      } catch (IOException e) {
        if (reader != null) {
          reader.release();
        }
        host.writeFailed(table, false, "flush of table " + name, e); // a full disk: retried
        throw new StorageException(
            "flush of table "
                + name
                + " failed: "
                + e.getMessage()
                + " (in "
                + table.directory()
                + ")"
                + ctx.stopNotice(),
            e);
      }
    }
    SSTableReader result = reader;
    table.tracker().flushed(m, result);
    host.memoryFreed(m.liveBytes());
    table.metrics().flushes.incrementAndGet();
    host.markFlushed(table.id(), m.commitLogUpper());
    if (result != null) {
      table.metrics().flushed(result.onDiskSize());
      table.compactions().checkOutOfOrder(result);
      host.flushed(table);
    }
  }
}
