package dev.talus.commitlog;

import static dev.talus.commitlog.SegmentFormat.HEADER_SIZE;
import static dev.talus.commitlog.SegmentFormat.MARKER_SIZE;
import static dev.talus.commitlog.SegmentFormat.SYNC_MARKER;

import dev.talus.CommitLogSync;
import dev.talus.io.CorruptFileException;
import dev.talus.io.StorageFs;
import dev.talus.io.WritableFile;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The commit log: appends framed, checksummed records to segment files and replays them at open.
 *
 * <p><b>Appending.</b> A writer reserves space in the active segment with a CAS on its offset and
 * writes its frame with a positional write, outside any lock; when a segment is full the writer
 * that notices creates the next one (under a lock taken only for the roll). When {@link #append}
 * returns depends on the {@link CommitLogSync}: PERIODIC once the write returned (survives kill
 * -9), GROUP and BATCH once an fsync covering the record completed (survives power loss).
 *
 * <p><b>Syncing.</b> One thread, {@code talus-commitlog-sync}, started by {@link #open} and stopped
 * by {@link #close}, runs sync passes: it reserves a sync marker in each segment with unsynced
 * data, waits (via {@link WriteBarrier}) for every writer that reserved space before the marker,
 * writes the marker and fsyncs. A marker therefore promises that everything before it in its
 * segment is complete, which is what lets replay tell corruption (before the last marker) from a
 * torn or holed tail (after it). See {@link SegmentReader} and {@code docs/durability.md}.
 *
 * <p><b>Failure.</b> The first failed write, fsync or segment creation puts the log in a failed
 * state: the failing append and every writer still waiting for an fsync get a {@link
 * CommitLogFailedException}, no further marker or fsync is issued (a later fsync could not vouch
 * for data a failed one lost), and every later append throws until the log is reopened.
 *
 * <p>Thread-safe. {@link #close} waits for appends in flight, seals the active segment with a final
 * fsync and stops the thread; it is idempotent, and appending after it throws {@link
 * IllegalStateException}.
 */
public final class CommitLog implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(CommitLog.class);

  private final StorageFs fs;
  private final Path dir;
  private final CommitLogConfig config;
  private final WriteBarrier barrier = new WriteBarrier();

  /** All kept segments in id order, the active one last. Guarded by itself. */
  private final List<Segment> segments = new ArrayList<>();

  /** Highest flushed-up-to position per table. Guarded by {@link #segments}. */
  private final Map<Integer, CommitLogPosition> flushed = new HashMap<>();

  private final Object rollMonitor = new Object();
  private volatile Segment active;

  /** Created ahead by the sync thread so that a roll does not wait for two fsyncs. */
  private Segment spare; // guarded by rollMonitor

  private long nextSegmentId; // guarded by rollMonitor

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition wake = lock.newCondition(); // the sync thread waits here
  private final Condition progress = lock.newCondition(); // writers, sync() and close() wait here
  // Guarded by lock:
  private int waiters;
  private boolean forceRequested;
  private boolean stopRequested;
  private long passesStarted;
  private long passesCompleted;

  private volatile Throwable failure;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final AtomicInteger inFlight = new AtomicInteger();
  private Thread syncThread;

  private final LongAdder appends = new LongAdder();
  private final LongAdder bytesAppended = new LongAdder();
  private final LongAdder syncs = new LongAdder();
  private final LongAdder segmentsCreated = new LongAdder();
  private final LongAdder segmentsDeleted = new LongAdder();
  private long recordsReplayed;
  private long recordsSkipped;
  private long tornTails;
  private long holesSkipped;

  private CommitLog(StorageFs fs, Path dir, CommitLogConfig config) {
    this.fs = Objects.requireNonNull(fs, "fs");
    this.dir = Objects.requireNonNull(dir, "dir");
    this.config = Objects.requireNonNull(config, "config");
  }

  /**
   * Replays every record of every segment in {@code dir} through {@code handler}, in log order, on
   * the calling thread; repairs a torn tail (truncate, log a warning); then creates a fresh active
   * segment and starts the sync thread.
   *
   * @throws CorruptFileException for damage in the synced part of a segment (unless {@link
   *     CommitLogConfig#skipCorruptRecords()}), naming the file and offset
   * @throws UncheckedIOException if the directory cannot be read or written
   */
  public static CommitLog open(
      StorageFs fs, Path dir, CommitLogConfig config, ReplayHandler handler) {
    Objects.requireNonNull(handler, "handler");
    CommitLog log = new CommitLog(fs, dir, config);
    try {
      log.recover(handler);
      log.start();
      return log;
    } catch (IOException e) {
      log.closeFilesQuietly();
      throw new UncheckedIOException("Cannot open the commit log in " + dir, e);
    } catch (RuntimeException | Error e) {
      log.closeFilesQuietly();
      throw e;
    }
  }

  // ------------------------------------------------------------------------------ appending

  /**
   * Appends one record and returns its position once it is as durable as the sync mode promises.
   *
   * @throws IllegalArgumentException if the payload is larger than {@link
   *     CommitLogConfig#maxMutationSize()}; nothing is written
   * @throws IllegalStateException after {@link #close}
   * @throws CommitLogFailedException if the log failed (now or earlier); the record is not
   *     acknowledged and may or may not be replayed after a restart
   */
  public CommitLogPosition append(byte[] payload, int[] tableIds) {
    Objects.requireNonNull(payload, "payload");
    Objects.requireNonNull(tableIds, "tableIds");
    if (payload.length > config.maxMutationSize()) {
      throw new IllegalArgumentException(
          "Mutation of "
              + payload.length
              + " bytes exceeds the maximum of "
              + config.maxMutationSize()
              + " bytes (half the commit log segment size); split it or raise segmentSize");
    }
    if (tableIds.length > SegmentFormat.MAX_TABLES_PER_RECORD
        || SegmentFormat.recordFrameSize(payload.length, tableIds.length)
            > config.segmentSize() - HEADER_SIZE - MARKER_SIZE) {
      throw new IllegalArgumentException(
          "Mutation touching " + tableIds.length + " tables does not fit in one segment");
    }
    inFlight.incrementAndGet();
    try {
      checkUsable();
      byte[] frame = SegmentFormat.recordFrame(payload, tableIds);
      Segment seg;
      long offset;
      WriteBarrier.Phase phase = barrier.enter();
      try {
        while (true) {
          seg = active;
          offset = seg.reserveRecord(frame.length);
          if (offset >= 0) {
            break;
          }
          roll(seg);
        }
        seg.markDirty(tableIds, offset);
        SegmentFormat.seal(frame, seg.id, offset);
        seg.file.write(ByteBuffer.wrap(frame), offset);
      } catch (IOException e) {
        throw fail(e, "write to the commit log failed");
      } finally {
        barrier.exit(phase);
      }
      appends.increment();
      bytesAppended.add(frame.length);
      if (config.syncMode() != CommitLogSync.PERIODIC) {
        awaitDurable(seg, offset + frame.length);
      }
      checkNotFailed();
      return new CommitLogPosition(seg.id, offset);
    } finally {
      inFlight.decrementAndGet();
    }
  }

  /** Whether {@code file} is named like a commit-log segment (any format version). */
  public static boolean isSegmentFile(Path file) {
    return file != null && file.getFileName() != null && SegmentFormat.parseName(file) != null;
  }

  /**
   * The end of everything reserved so far: every record appended before this call (and any append
   * still in flight that already reserved its space) lies before it. The engine passes such a
   * position to {@link #markFlushed} once the matching memtable is flushed; it must make sure that
   * appends racing with the memtable switch land in the memtable the position belongs to.
   */
  public CommitLogPosition currentPosition() {
    Segment seg = active;
    return new CommitLogPosition(seg.id, seg.end());
  }

  /** Forces an fsync of everything appended before this call and waits for it. */
  public void sync() {
    checkUsable();
    lock.lock();
    try {
      long target = passesStarted + 1;
      forceRequested = true;
      wake.signal();
      while (passesCompleted < target && failure == null) {
        progress.awaitUninterruptibly();
      }
    } finally {
      lock.unlock();
    }
    checkNotFailed();
  }

  private void awaitDurable(Segment seg, long end) {
    lock.lock();
    try {
      waiters++;
      wake.signal();
      while (seg.durableEnd < end && failure == null) {
        progress.awaitUninterruptibly();
      }
    } finally {
      waiters--;
      lock.unlock();
    }
  }

  private void roll(Segment full) {
    synchronized (rollMonitor) {
      if (active != full) {
        return;
      }
      checkNotFailed();
      Segment next = spare;
      spare = null;
      if (next == null) {
        try {
          next = createSegment(nextSegmentId++);
        } catch (IOException e) {
          throw fail(e, "cannot create a commit log segment");
        }
      }
      full.closeForRecords();
      active = next;
    }
    requestSync(); // seal the full segment soon, whatever the mode
  }

  /** Creates, syncs and registers a segment; its name is durable before any record goes in. */
  private Segment createSegment(long id) throws IOException {
    Path path = dir.resolve(SegmentFormat.fileName(id));
    WritableFile file = fs.create(path);
    try {
      file.write(SegmentFormat.header(id), 0);
      file.sync();
      fs.syncDirectory(dir);
    } catch (IOException e) {
      try {
        file.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    Segment seg = new Segment(id, path, file, config.segmentSize(), HEADER_SIZE);
    synchronized (segments) {
      segments.add(seg);
    }
    segmentsCreated.increment();
    return seg;
  }

  // ------------------------------------------------------------------------------ discarding

  /** Bytes of all segment files (live and waiting to be discarded). */
  public long totalBytes() {
    synchronized (segments) {
      return (long) segments.size() * config.segmentSize();
    }
  }

  /**
   * The tables that still have records in the oldest segment and have not flushed past them:
   * flushing them lets that segment go (what the engine does when the log grows too large).
   */
  public java.util.Set<Integer> tablesHoldingOldestSegment() {
    synchronized (segments) {
      for (Segment s : segments) {
        if (s == active) {
          return java.util.Set.of();
        }
        java.util.Set<Integer> holding = new java.util.HashSet<>();
        for (Map.Entry<Integer, Long> e : s.dirty.entrySet()) {
          CommitLogPosition done = flushed.get(e.getKey());
          if (done == null || done.compareTo(new CommitLogPosition(s.id, e.getValue())) <= 0) {
            holding.add(e.getKey());
          }
        }
        if (!holding.isEmpty()) {
          return holding;
        }
      }
      return java.util.Set.of();
    }
  }

  /**
   * Records that every record of {@code tableId} before {@code upTo} is in an SSTable, and deletes
   * the segments that no table needs any more (never the active one).
   */
  public void markFlushed(int tableId, CommitLogPosition upTo) {
    Objects.requireNonNull(upTo, "upTo");
    synchronized (segments) {
      flushed.merge(tableId, upTo, (a, b) -> a.compareTo(b) >= 0 ? a : b);
      discardCleanSegments();
    }
  }

  private void discardCleanSegments() {
    boolean deleted = false;
    try {
      for (Iterator<Segment> it = segments.iterator(); it.hasNext(); ) {
        Segment s = it.next();
        if (s != active && s.sealed && s.isClean(flushed)) {
          fs.delete(s.path);
          it.remove();
          segmentsDeleted.increment();
          deleted = true;
          LOG.debug("Deleted clean commit log segment {}", s.path);
        }
      }
      if (deleted) {
        fs.syncDirectory(dir);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete a flushed commit log segment in " + dir, e);
    }
  }

  // ------------------------------------------------------------------------------ syncing

  private void start() {
    syncThread = new Thread(this::syncLoop, "talus-commitlog-sync");
    syncThread.setDaemon(true);
    syncThread.start();
  }

  private void requestSync() {
    lock.lock();
    try {
      forceRequested = true;
      wake.signal();
    } finally {
      lock.unlock();
    }
  }

  private void syncLoop() {
    CommitLogSync mode = config.syncMode();
    long interval =
        mode == CommitLogSync.PERIODIC
            ? config.periodicInterval().toNanos()
            : mode == CommitLogSync.GROUP ? config.groupWindow().toNanos() : 0;
    long lastStart = System.nanoTime();
    lock.lock();
    try {
      while (true) {
        // Wait for a reason to sync: the period elapsed (PERIODIC), or someone is waiting and the
        // group window since the last pass is over (GROUP; BATCH has a zero window).
        while (!stopRequested) {
          boolean demand = forceRequested || waiters > 0;
          long due = lastStart + interval - System.nanoTime();
          // An explicit sync(), a roll or close goes at once; waiting writers respect the window.
          if (forceRequested
              || (mode == CommitLogSync.PERIODIC ? due <= 0 : waiters > 0 && due <= 0)) {
            break;
          }
          if (mode != CommitLogSync.PERIODIC && !demand) {
            wake.awaitUninterruptibly();
          } else {
            try {
              wake.awaitNanos(due);
            } catch (InterruptedException e) {
              stopRequested = true;
            }
          }
        }
        if (stopRequested) {
          return;
        }
        forceRequested = false;
        passesStarted++;
        lastStart = System.nanoTime();
        lock.unlock();
        try {
          syncPass(false);
        } finally {
          lock.lock();
        }
        passesCompleted++;
        progress.signalAll();
        lock.unlock();
        try {
          prepareSpare();
        } finally {
          lock.lock();
        }
      }
    } catch (RuntimeException | Error e) {
      fail(e, "the commit log sync thread died");
      throw e;
    } finally {
      lock.unlock();
    }
  }

  /** Pre-creates the next segment (header written and synced, name durable) if none is waiting. */
  private void prepareSpare() {
    synchronized (rollMonitor) {
      if (spare != null || closed.get() || failure != null) {
        return;
      }
      try {
        spare = createSegment(nextSegmentId++);
      } catch (IOException e) {
        fail(e, "cannot create a commit log segment");
      }
    }
  }

  /** Closes and deletes an unused spare; it holds no record and no position names its id. */
  private void dropSpare() {
    Segment s;
    synchronized (rollMonitor) {
      s = spare;
      spare = null;
    }
    if (s == null) {
      return;
    }
    synchronized (segments) {
      segments.remove(s);
    }
    try {
      s.file.close();
      fs.delete(s.path);
    } catch (IOException e) {
      LOG.warn("Could not delete the unused commit log segment {}", s.path, e);
    }
  }

  /**
   * Writes a sync marker into each segment with unsynced records and fsyncs it; seals segments that
   * take no more records. Sync thread only (or close, after that thread stopped).
   */
  private void syncPass(boolean closing) {
    if (failure != null) {
      return;
    }
    List<Segment> targets = new ArrayList<>();
    synchronized (segments) {
      for (Segment s : segments) {
        if (!s.sealed) {
          targets.add(s);
        }
      }
    }
    if (closing) {
      active.closeForRecords();
    }
    int n = targets.size();
    long[] markerAt = new long[n];
    boolean[] sealing = new boolean[n];
    for (int i = 0; i < n; i++) {
      Segment s = targets.get(i);
      sealing[i] = s.closedForRecords(); // read before reserving: no record can follow the marker
      markerAt[i] = s.end() > s.markedEnd ? s.reserveMarker() : -1;
    }
    barrier.awaitPrior();
    if (failure != null) {
      return; // a writer failed: a marker now could vouch for a hole
    }
    boolean synced = false;
    for (int i = 0; i < n; i++) {
      Segment s = targets.get(i);
      try {
        if (markerAt[i] >= 0) {
          // fsync first, marker after: a marker that reaches the disk then proves the bytes before
          // it did too, whatever order a power loss persists the blocks of one fsync in. The
          // marker itself becomes durable with the next fsync (or the second one when sealing).
          long m = markerAt[i];
          s.file.sync();
          synced = true;
          s.durableEnd = m;
          s.file.write(SegmentFormat.marker(SYNC_MARKER, 0, s.id, m), m);
          s.markedEnd = m + MARKER_SIZE;
        }
        if (sealing[i]) {
          s.file.sync(); // the final marker, or an earlier one still unsynced
          s.file.close();
          s.sealed = true;
        }
      } catch (IOException e) {
        fail(e, "commit log sync of " + s.path + " failed");
        return;
      }
    }
    if (synced) {
      syncs.increment();
    }
  }

  // ------------------------------------------------------------------------------ failure

  private CommitLogFailedException fail(Throwable cause, String what) {
    lock.lock();
    try {
      if (failure == null) {
        failure = cause;
        LOG.error(
            "Commit log in {} failed ({}); refusing all appends until it is reopened",
            dir,
            what,
            cause);
      }
      progress.signalAll();
      wake.signal();
    } finally {
      lock.unlock();
    }
    return failedException();
  }

  private CommitLogFailedException failedException() {
    return new CommitLogFailedException(
        "The commit log in "
            + dir
            + " failed after an I/O error and accepts no appends until it is reopened; writes"
            + " not acknowledged before the failure may be lost",
        failure);
  }

  private void checkNotFailed() {
    if (failure != null) {
      throw failedException();
    }
  }

  private void checkUsable() {
    if (closed.get()) {
      throw new IllegalStateException("The commit log in " + dir + " is closed");
    }
    checkNotFailed();
  }

  // ------------------------------------------------------------------------------ closing

  /**
   * Waits for in-flight appends, seals the active segment with a final fsync, stops the thread.
   *
   * @throws CommitLogFailedException if that final fsync failed (a failure reported earlier is not
   *     reported again)
   */
  /**
   * Stops the log as a crash would: no final sync, no marker, files closed as they are. For crash
   * simulations in tests (with {@code FaultInjectingFs}); waiting writers fail.
   */
  public void abandon() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    lock.lock();
    try {
      if (failure == null) {
        failure = new IllegalStateException("the commit log was abandoned (simulated crash)");
      }
      stopRequested = true;
      wake.signal();
      progress.signalAll();
    } finally {
      lock.unlock();
    }
    joinSyncThread();
    closeFilesQuietly();
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    lock.lock();
    try {
      while (inFlight.get() > 0 && syncThread != null && syncThread.isAlive()) {
        forceRequested = true;
        wake.signal();
        try {
          progress.awaitNanos(1_000_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      stopRequested = true;
      wake.signal();
    } finally {
      lock.unlock();
    }
    joinSyncThread();
    dropSpare();
    Throwable before = failure;
    try {
      syncPass(true);
    } finally {
      closeFilesQuietly();
    }
    if (before == null) {
      checkNotFailed(); // the final fsync failed: what was appended may not be durable
    }
  }

  private void joinSyncThread() {
    if (syncThread == null) {
      return;
    }
    boolean interrupted = false;
    while (syncThread.isAlive()) {
      try {
        syncThread.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void closeFilesQuietly() {
    synchronized (segments) {
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

  // ------------------------------------------------------------------------------ stats

  public CommitLogStats stats() {
    int count;
    synchronized (segments) {
      count = segments.size();
    }
    Segment a = active;
    return new CommitLogStats(
        count,
        a == null ? 0 : a.id,
        appends.sum(),
        bytesAppended.sum(),
        syncs.sum(),
        segmentsCreated.sum(),
        segmentsDeleted.sum(),
        recordsReplayed,
        recordsSkipped,
        tornTails,
        holesSkipped,
        failure != null);
  }

  public CommitLogConfig config() {
    return config;
  }

  // ------------------------------------------------------------------------------ replay

  private void recover(ReplayHandler handler) throws IOException {
    Recovery.Outcome o = new Recovery(fs, dir, config).run(handler);
    recordsReplayed = o.records();
    recordsSkipped = o.skipped();
    tornTails = o.tornTails();
    holesSkipped = o.holes();
    synchronized (segments) {
      segments.addAll(o.segments());
    }
    synchronized (rollMonitor) {
      nextSegmentId = o.maxId() + 1;
      active = createSegment(nextSegmentId++);
    }
    synchronized (segments) {
      discardCleanSegments(); // replayed segments without records
    }
  }
}
