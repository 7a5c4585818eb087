package dev.talus.commitlog;

import dev.talus.io.StorageFs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The segments a commit log keeps, in id order with the active one last, and how far each table has
 * flushed: a segment is deleted once it is sealed and every table with a record in it has flushed
 * past its last one (never the active segment). Thread-safe; guarded by this object's monitor.
 */
final class SegmentSet {
  private static final Logger LOG = LoggerFactory.getLogger(SegmentSet.class);

  private final StorageFs fs;
  private final Path dir;
  private final List<Segment> segments = new ArrayList<>();

  /** Highest flushed-up-to position per table. */
  private final Map<Integer, CommitLogPosition> flushed = new HashMap<>();

  private final LongAdder deleted = new LongAdder();

  /** A deleted segment whose directory entry is not yet synced (a directory sync failed). */
  private boolean deletionsNotSynced;

  SegmentSet(StorageFs fs, Path dir) {
    this.fs = fs;
    this.dir = dir;
  }

  synchronized void add(Segment s) {
    segments.add(s);
  }

  synchronized void addAll(Collection<Segment> replayed) {
    segments.addAll(replayed);
  }

  synchronized void remove(Segment s) {
    segments.remove(s);
  }

  synchronized int count() {
    return segments.size();
  }

  long deletedCount() {
    return deleted.sum();
  }

  /** The segments that are not sealed yet, in id order. */
  synchronized List<Segment> unsealed() {
    List<Segment> out = new ArrayList<>();
    for (Segment s : segments) {
      if (!s.sealed) {
        out.add(s);
      }
    }
    return out;
  }

  /**
   * The tables that still have records in the oldest segment and have not flushed past them:
   * flushing them lets that segment go.
   */
  synchronized Set<Integer> tablesHoldingOldest(Segment active) {
    for (Segment s : segments) {
      if (s == active) {
        return Set.of();
      }
      Set<Integer> holding = new HashSet<>();
      for (Map.Entry<Integer, Long> e : s.dirtyTables().entrySet()) {
        CommitLogPosition done = flushed.get(e.getKey());
        if (done == null || done.compareTo(new CommitLogPosition(s.id, e.getValue())) <= 0) {
          holding.add(e.getKey());
        }
      }
      if (!holding.isEmpty()) {
        return holding;
      }
    }
    return Set.of();
  }

  /** Table {@code tableId} flushed everything before {@code upTo}; clean segments go. */
  synchronized void markFlushed(int tableId, CommitLogPosition upTo, Segment active) {
    flushed.merge(tableId, upTo, (a, b) -> a.compareTo(b) >= 0 ? a : b);
    discardClean(active);
  }

  /** Deletes the sealed segments no table needs any more, never {@code active}. */
  synchronized void discardClean(Segment active) {
    boolean any = deletionsNotSynced;
    try {
      for (Iterator<Segment> it = segments.iterator(); it.hasNext(); ) {
        Segment s = it.next();
        if (s != active && s.sealed && s.isClean(flushed)) {
          fs.delete(s.path);
          it.remove();
          deleted.increment();
          any = true;
          deletionsNotSynced = true;
          LOG.debug("Deleted clean commit log segment {}", s.path);
        }
      }
      if (any) {
        fs.syncDirectory(dir);
        deletionsNotSynced = false;
      }
    } catch (IOException e) {
      // Harmless to the flush that called this: every record in the segment is in an SSTable, and
      // replay skips such records. The segment stays listed, so a later call tries again, and the
      // directory is synced then.
      LOG.warn("Cannot delete a flushed commit log segment in {}; will retry", dir, e);
    }
  }

  /** Closes the file of every segment that is still open, logging failures. */
  synchronized void closeFilesQuietly() {
    for (Segment s : segments) {
      if (s.file != null && !s.sealed) {
        try {
          s.file.close();
        } catch (IOException e) {
          LOG.warn("Closing commit log segment {} failed", s.path, e);
        }
      }
    }
  }
}
