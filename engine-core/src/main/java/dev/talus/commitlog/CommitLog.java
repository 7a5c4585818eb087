package dev.talus.commitlog;

import static dev.talus.commitlog.SegmentFormat.HEADER_SIZE;

import dev.talus.CommitLogSync;
import dev.talus.io.CorruptFileException;
import dev.talus.io.StorageFs;
import dev.talus.io.WritableFile;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
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
 * <p><b>Syncing.</b> One thread, {@code talus-commitlog-sync} ({@link SyncThread}), started by
 * {@link #open} and stopped by {@link #close}, runs sync passes: it reserves a sync marker in each
 * segment with unsynced data, waits (via {@link WriteBarrier}) for every writer that reserved space
 * before the marker, writes the marker and fsyncs. A marker therefore promises that everything
 * before it in its segment is complete, which is what lets replay tell corruption (before the last
 * marker) from a torn or holed tail (after it). See {@link SegmentReader} and {@code
 * docs/durability.md}. The kept segments and how far each table has flushed are a {@link
 * SegmentSet}.
 *
 * <p><b>Giving up.</b> A GROUP or BATCH writer may stop waiting for its fsync ({@link
 * #appendAsync}, {@link #awaitDurable} with a timeout): it then hands the record over ({@link
 * #whenDurable}) with what to do once it is durable, which the sync thread runs after that pass.
 * {@link #stats()} shows since when the running sync has been running: the stall indicator.
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
  private final SegmentSet segments;
  private final SyncThread syncer;

  private final Object rollMonitor = new Object();
  private volatile Segment active;

  /** Created ahead by the sync thread so that a roll does not wait for two fsyncs. */
  private Segment spare; // guarded by rollMonitor

  private long nextSegmentId; // guarded by rollMonitor

  private final AtomicBoolean closed = new AtomicBoolean();
  private final AtomicInteger inFlight = new AtomicInteger();

  private final LongAdder appends = new LongAdder();
  private final LongAdder bytesAppended = new LongAdder();
  private final LongAdder segmentsCreated = new LongAdder();
  private final LongAdder lateRecords = new LongAdder();

  /** When the segment being created began (its header's fsync), or null: the stall indicator. */
  private volatile java.time.Instant creatingSince;

  private long recordsReplayed;
  private long recordsSkipped;
  private long tornTails;
  private long holesSkipped;

  private CommitLog(StorageFs fs, Path dir, CommitLogConfig config) {
    this.fs = Objects.requireNonNull(fs, "fs");
    this.dir = Objects.requireNonNull(dir, "dir");
    this.config = Objects.requireNonNull(config, "config");
    this.segments = new SegmentSet(fs, dir);
    this.syncer = new SyncThread(this, config, segments, barrier);
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
      log.syncer.start();
      return log;
    } catch (IOException e) {
      log.segments.closeFilesQuietly();
      throw new UncheckedIOException("Cannot open the commit log in " + dir, e);
    } catch (RuntimeException | Error e) {
      log.segments.closeFilesQuietly();
      throw e;
    }
  }

  /** Whether {@code file} is named like a commit-log segment (any format version). */
  public static boolean isSegmentFile(Path file) {
    return file != null && file.getFileName() != null && SegmentFormat.parseName(file) != null;
  }

  Path directory() {
    return dir;
  }

  Segment active() {
    return active;
  }

  java.time.InstantSource clock() {
    return config.clock();
  }

  // ------------------------------------------------------------------------------ appending

  /** {@link #append(Payload, int[])} of bytes already serialized. */
  public CommitLogPosition append(byte[] payload, int[] tableIds) {
    return append(Payload.of(payload), tableIds);
  }

  /**
   * Appends one record and returns its position once it is as durable as the sync mode promises.
   *
   * @throws IllegalArgumentException if the payload is larger than {@link
   *     CommitLogConfig#maxMutationSize()}; nothing is written
   * @throws IllegalStateException after {@link #close}
   * @throws CommitLogFailedException if the log failed (now or earlier); the record is not
   *     acknowledged and may or may not be replayed after a restart
   */
  public CommitLogPosition append(Payload payload, int[] tableIds) {
    Appended a = appendAsync(payload, tableIds);
    try {
      if (config.syncMode() != CommitLogSync.PERIODIC) {
        syncer.awaitDurable(a.segment(), a.end());
      }
      checkNotFailed();
      return a.position();
    } finally {
      a.release();
    }
  }

  /**
   * Appends one record and returns once it is written (not yet synced). The caller then waits for
   * it with {@link #awaitDurable} (GROUP and BATCH) and, if it stops waiting, hands it to {@link
   * #whenDurable}; either way it must end with {@link Appended#release} or {@link #whenDurable}, so
   * that {@link #close} knows when no append is in flight.
   *
   * @throws IllegalArgumentException as {@link #append}
   * @throws IllegalStateException after {@link #close}
   * @throws CommitLogFailedException if the log failed (now or earlier)
   */
  public Appended appendAsync(Payload payload, int[] tableIds) {
    int length = Objects.requireNonNull(payload, "payload").size();
    config.checkRecord(length, Objects.requireNonNull(tableIds, "tableIds").length);
    inFlight.incrementAndGet();
    boolean appended = false;
    try {
      checkUsable();
      byte[] frame = SegmentFormat.recordFrame(payload, length, tableIds);
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
      appended = true;
      return new Appended(
          new CommitLogPosition(seg.id, offset), seg, offset + frame.length, inFlight);
    } finally {
      if (!appended) {
        inFlight.decrementAndGet();
      }
    }
  }

  /**
   * Waits at most {@code timeout} until {@code a}'s record is durable; returns false if the time
   * ran out first (the record stays in flight: release it, or hand it to {@link #whenDurable}).
   *
   * @throws CommitLogFailedException if the log failed (the record is not acknowledged)
   */
  public boolean awaitDurable(Appended a, java.time.Duration timeout) {
    boolean durable = syncer.awaitDurable(a.segment(), a.end(), Math.max(1, timeout.toNanos()));
    checkNotFailed();
    return durable;
  }

  /**
   * Hands over a record whose writer stopped waiting for its fsync: {@code action} runs with null
   * once the record is durable (on the sync thread, after the pass that synced it; at once if it
   * already is), or with the cause if the log fails, is abandoned or is closed without making it
   * durable. Releases {@code a} after the action. {@link #close} waits for it like for an append in
   * flight.
   */
  public void whenDurable(Appended a, java.util.function.Consumer<Throwable> action) {
    lateRecords.increment();
    syncer.whenDurable(
        a.segment(),
        a.end(),
        cause -> {
          try {
            action.accept(cause);
          } finally {
            a.release();
          }
        });
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
    syncer.syncNow();
    checkNotFailed();
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
    syncer.requestSync(); // seal the full segment soon, whatever the mode
  }

  /** Creates, syncs and registers a segment; its name is durable before any record goes in. */
  private Segment createSegment(long id) throws IOException {
    Path path = dir.resolve(SegmentFormat.fileName(id));
    creatingSince = config.clock().instant();
    WritableFile file;
    try {
      file = fs.create(path);
    } catch (IOException e) {
      creatingSince = null;
      throw e;
    }
    try {
      file.write(SegmentFormat.header(id), 0);
      file.sync();
      fs.syncDirectory(dir);
    } catch (IOException e) {
      creatingSince = null;
      try {
        file.close();
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    creatingSince = null;
    Segment seg = new Segment(id, path, file, config.segmentSize(), HEADER_SIZE);
    segments.add(seg);
    segmentsCreated.increment();
    return seg;
  }

  /** Pre-creates the next segment (header written and synced, name durable) if none is waiting. */
  void prepareSpare() {
    synchronized (rollMonitor) {
      if (spare != null || closed.get() || syncer.failure() != null) {
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
    segments.remove(s);
    try {
      s.file.close();
      fs.delete(s.path);
    } catch (IOException e) {
      LOG.warn("Could not delete the unused commit log segment {}", s.path, e);
    }
  }

  // ------------------------------------------------------------------------------ discarding

  /** Bytes of all segment files (live and waiting to be discarded). */
  public long totalBytes() {
    return (long) segments.count() * config.segmentSize();
  }

  /**
   * The tables that still have records in the oldest segment and have not flushed past them:
   * flushing them lets that segment go (what the engine does when the log grows too large).
   */
  public java.util.Set<Integer> tablesHoldingOldestSegment() {
    return segments.tablesHoldingOldest(active);
  }

  /**
   * Records that every record of {@code tableId} before {@code upTo} is in an SSTable, and deletes
   * the segments that no table needs any more (never the active one).
   */
  public void markFlushed(int tableId, CommitLogPosition upTo) {
    Objects.requireNonNull(upTo, "upTo");
    segments.markFlushed(tableId, upTo, active);
  }

  // ------------------------------------------------------------------------------ failure

  private CommitLogFailedException fail(Throwable cause, String what) {
    syncer.fail(cause, what);
    return failedException();
  }

  private CommitLogFailedException failedException() {
    return new CommitLogFailedException(
        "The commit log in "
            + dir
            + " failed after an I/O error and accepts no appends until it is reopened; writes"
            + " not acknowledged before the failure may be lost",
        syncer.failure());
  }

  private void checkNotFailed() {
    if (syncer.failure() != null) {
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
   * Stops the log as a crash would: no final sync, no marker, files closed as they are. For crash
   * simulations in tests (with {@code FaultInjectingFs}); waiting writers fail.
   */
  public void abandon() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    syncer.abandon(new IllegalStateException("the commit log was abandoned (simulated crash)"));
    segments.closeFilesQuietly();
  }

  /**
   * Waits for in-flight appends, seals the active segment with a final fsync, stops the thread.
   *
   * @throws CommitLogFailedException if that final fsync failed (a failure reported earlier is not
   *     reported again)
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    syncer.stopAfter(inFlight);
    dropSpare();
    Throwable before = syncer.failure();
    try {
      syncer.pass(true);
      syncer.closeLate(new IllegalStateException("The commit log in " + dir + " was closed"));
    } finally {
      segments.closeFilesQuietly();
    }
    if (before == null) {
      checkNotFailed(); // the final fsync failed: what was appended may not be durable
    }
  }

  // ------------------------------------------------------------------------------ stats

  public CommitLogStats stats() {
    int count = segments.count();
    Segment a = active;
    return new CommitLogStats(
        count,
        a == null ? 0 : a.id,
        appends.sum(),
        bytesAppended.sum(),
        syncer.syncCount(),
        segmentsCreated.sum(),
        segments.deletedCount(),
        recordsReplayed,
        recordsSkipped,
        tornTails,
        holesSkipped,
        syncer.failure() != null,
        syncRunningSince(),
        lateRecords.sum(),
        syncer.lateCount());
  }

  /** The earlier of the running sync pass's and segment creation's start, or null if none runs. */
  private java.time.Instant syncRunningSince() {
    java.time.Instant pass = syncer.passSince();
    java.time.Instant creating = creatingSince;
    if (pass == null) {
      return creating;
    }
    return creating == null || pass.isBefore(creating) ? pass : creating;
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
    segments.addAll(o.segments());
    synchronized (rollMonitor) {
      nextSegmentId = o.maxId() + 1;
      active = createSegment(nextSegmentId++);
    }
    segments.discardClean(active); // replayed segments without records
  }
}
