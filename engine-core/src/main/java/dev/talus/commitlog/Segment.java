package dev.talus.commitlog;

import dev.talus.io.WritableFile;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One segment file of a live commit log: its space reservation counter, how far it is durable, and
 * which tables have records in it. Thread-safe: writers reserve with a CAS on {@link #allocated};
 * only the sync thread (or close, after that thread stopped) writes markers and syncs.
 */
final class Segment {
  /** Set in {@link #allocated} once the segment takes no more records (rolled or closing). */
  private static final long CLOSED = 1L << 62;

  final long id;
  final Path path;

  /** Null for segments found at open: they are complete and only wait to be discarded. */
  final WritableFile file;

  private final int limit;

  /** Next free offset, plus the CLOSED bit. */
  private final AtomicLong allocated;

  /** Table id -> offset of its last record here (raised without a lock: one per table). */
  private final Map<Integer, AtomicLong> dirty = new ConcurrentHashMap<>();

  /** Offset up to which the segment is synced; acknowledged GROUP/BATCH writers wait on it. */
  volatile long durableEnd;

  /** End of the last sync marker written; sync thread only. */
  long markedEnd;

  /** Final marker written and synced, file closed; no more writes of any kind. */
  volatile boolean sealed;

  /** A new, empty segment whose header has been written at [0, headerSize). */
  Segment(long id, Path path, WritableFile file, int limit, long headerSize) {
    this.id = id;
    this.path = path;
    this.file = file;
    this.limit = limit;
    this.allocated = new AtomicLong(headerSize);
    this.durableEnd = headerSize;
    this.markedEnd = headerSize;
  }

  /** A complete segment found at open. */
  static Segment replayed(long id, Path path, Map<Integer, Long> dirty, long end) {
    Segment s = new Segment(id, path, null, 0, end);
    s.allocated.set(end | CLOSED);
    dirty.forEach((table, offset) -> s.dirty.put(table, new AtomicLong(offset)));
    s.sealed = true;
    return s;
  }

  /** Reserves {@code size} bytes for a record; -1 if it does not fit or the segment is closed. */
  long reserveRecord(int size) {
    while (true) {
      long cur = allocated.get();
      if ((cur & CLOSED) != 0 || cur + size > limit) {
        return -1;
      }
      if (allocated.compareAndSet(cur, cur + size)) {
        return cur;
      }
    }
  }

  /** Reserves a sync marker; markers may go past the segment size and into a closed segment. */
  long reserveMarker() {
    return allocated.getAndAdd(SegmentFormat.MARKER_SIZE) & ~CLOSED;
  }

  /** Stops record reservations; returns nothing, later reservations fail. */
  void closeForRecords() {
    allocated.getAndUpdate(v -> v | CLOSED);
  }

  boolean closedForRecords() {
    return (allocated.get() & CLOSED) != 0;
  }

  /** The end of everything reserved so far. */
  long end() {
    return allocated.get() & ~CLOSED;
  }

  void markDirty(int[] tableIds, long offset) {
    for (int t : tableIds) {
      AtomicLong last = dirty.get(t);
      if (last == null) {
        last = dirty.computeIfAbsent(t, k -> new AtomicLong(-1));
      }
      long seen = last.get();
      while (seen < offset && !last.compareAndSet(seen, offset)) {
        seen = last.get();
      }
    }
  }

  /** The tables with records here, each with the offset of its last one. */
  Map<Integer, Long> dirtyTables() {
    Map<Integer, Long> out = new HashMap<>();
    dirty.forEach((table, last) -> out.put(table, last.get()));
    return out;
  }

  /** Whether every table with a record here has flushed past its last one. */
  boolean isClean(Map<Integer, CommitLogPosition> flushed) {
    for (Map.Entry<Integer, AtomicLong> e : dirty.entrySet()) {
      CommitLogPosition f = flushed.get(e.getKey());
      if (f == null || f.compareTo(new CommitLogPosition(id, e.getValue().get())) <= 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return path.getFileName().toString();
  }
}
