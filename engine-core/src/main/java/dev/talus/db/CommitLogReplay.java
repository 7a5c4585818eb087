package dev.talus.db;

import dev.talus.CorruptCommitLogException;
import dev.talus.StorageException;
import dev.talus.TalusOptions;
import dev.talus.commitlog.CommitLog;
import dev.talus.commitlog.CommitLogConfig;
import dev.talus.commitlog.CommitLogPosition;
import dev.talus.runtime.DbContext;
import dev.talus.table.TableStore;
import dev.talus.write.MemtableBudget;
import dev.talus.write.Mutation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opening the commit log of a database: replays every record not yet covered by its table's
 * SSTables into the memtables, then ({@link #finish}) flushes what it replayed and lets the log
 * drop the segments no table needs any more. Damage in the log surfaces as the file layer's {@code
 * CorruptFileException}, which the database maps. Single use, on the opening thread.
 */
final class CommitLogReplay {
  private static final Logger LOG = LoggerFactory.getLogger(CommitLogReplay.class);

  private final DbContext ctx;
  private final Map<Integer, TableStore> tables;
  private final Set<Integer> setAside;
  private final MemtableBudget budget;
  private final Set<Integer> seen = new HashSet<>();
  private final Set<TableStore> replayedInto = new LinkedHashSet<>();
  private long records;

  CommitLogReplay(
      DbContext ctx,
      Map<Integer, TableStore> tables,
      Set<Integer> setAside,
      MemtableBudget budget) {
    this.ctx = ctx;
    this.tables = tables;
    this.setAside = setAside;
    this.budget = budget;
  }

  /** Commit-log positions as one long: segment id in the high half, offset in the low half. */
  static long encode(CommitLogPosition p) {
    return (p.segmentId() << 32) | p.offset();
  }

  static CommitLogPosition decode(long p) {
    return new CommitLogPosition(p >>> 32, p & 0xFFFF_FFFFL);
  }

  private static CommitLogConfig config(TalusOptions options) {
    return CommitLogConfig.builder()
        .segmentSize(options.commitLogSegmentBytes())
        .syncMode(options.commitLogSync())
        .periodicInterval(options.commitLogSyncPeriod())
        .groupWindow(options.commitLogGroupWindow())
        .skipCorruptRecords(options.skipCorruptCommitLogRecords())
        .clock(options.clock())
        .build();
  }

  /** Opens the log in {@code commitlog/}, replaying its records into the tables' memtables. */
  CommitLog open() {
    Path logDir = ctx.directory().resolve("commitlog");
    try {
      ctx.fs().createDirectories(logDir);
      return CommitLog.open(
          ctx.fs(),
          logDir,
          config(ctx.options()),
          (position, payload) -> {
            Mutation m;
            try {
              m = Mutation.deserialize(payload);
            } catch (IOException e) {
              throw new CorruptCommitLogException(
                  "commit-log record at "
                      + position
                      + " passed its checksum but cannot be decoded: "
                      + e.getMessage(),
                  logDir,
                  position.offset(),
                  e);
            }
            long at = encode(position);
            for (Mutation.Entry entry : m.entries()) {
              seen.add(entry.tableId());
              TableStore t = tables.get(entry.tableId());
              if (t != null && at >= t.replayFrom()) {
                budget.added(t.applyReplayed(entry.update()));
                replayedInto.add(t);
              }
            }
            records++;
          });
    } catch (UncheckedIOException e) {
      throw new StorageException("cannot open the commit log in " + logDir, e);
    } catch (IOException e) {
      throw new StorageException("cannot open the commit log in " + logDir, e);
    }
  }

  /** The highest table id among the records read (0 if none). */
  int highestTableId() {
    int max = 0;
    for (int id : seen) {
      max = Math.max(max, id);
    }
    return max;
  }

  /** Records replayed. */
  long records() {
    return records;
  }

  /**
   * Flushes the tables that got replayed records, and tells {@code log} that the other tables it
   * saw records of need none of them (they are in SSTables, or the table no longer exists) — except
   * tables set aside at open, whose records stay until the table is restored.
   */
  void finish(CommitLog log) {
    if (!replayedInto.isEmpty()) {
      LOG.info(
          "Replayed {} commit-log records into {} table(s) of {}",
          records,
          replayedInto.size(),
          ctx.directory());
    }
    for (TableStore t : replayedInto) {
      t.flush();
    }
    CommitLogPosition now = log.currentPosition();
    for (int id : seen) {
      TableStore t = tables.get(id);
      if (setAside.contains(id)) {
        continue;
      }
      if (t == null || !replayedInto.contains(t)) {
        log.markFlushed(id, now);
      }
    }
  }
}
