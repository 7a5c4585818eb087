package dev.talus.testkit;

import dev.talus.StorageException;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.db.StorageHook;
import dev.talus.io.NioStorageFs;
import dev.talus.testfs.FaultInjectingFs;
import java.io.IOException;
import java.util.Objects;
import java.util.Random;

/**
 * Fault injection for crash tests: open a database with {@link #open} and every file operation of
 * that database goes through this injector. It can fail the n-th write, fsync, rename, delete or
 * directory fsync (an I/O error, a full disk, a torn write), or the next one on a file whose name
 * matches a pattern ({@link #failNext}, e.g. the next fsync of {@code MANIFEST.db}), fill the disk
 * until it is freed ({@link #fillDisk}), stall writes or fsyncs until released ({@link #stall}),
 * and simulate a crash followed by a power loss: everything not fsynced is lost, including file
 * creations and renames whose directory was not fsynced.
 *
 * <pre>{@code
 * FaultInjector faults = new FaultInjector(42);
 * TalusOptions options = TalusOptions.builder(dir).commitLogSync(CommitLogSync.GROUP).build();
 * TalusDb db = faults.open(options);
 * ... write ...
 * faults.crashAndLosePower(db);          // the process "dies" and the machine loses power
 * try (TalusDb reopened = faults.open(options)) { ... every acknowledged write is there ... }
 * }</pre>
 *
 * <p>Keep using the same injector for the reopened database: it holds what "the disk" kept. Like
 * Lucene's {@code MockDirectoryWrapper}, it lives in the test support, never in a production jar.
 * Thread-safe. For tests only: it costs memory for every unsynced byte.
 */
public final class FaultInjector {
  /** What an injected failure looks like to the engine. */
  public enum Fault {
    /** An I/O error (EIO). */
    IO_ERROR,
    /** No space left on the device (ENOSPC). */
    DISK_FULL,
    /** Only part of the data is written, then an I/O error. */
    TORN_WRITE
  }

  /** The file operations that can be counted and failed. */
  public enum Operation {
    /** A write to a file. */
    WRITE(FaultInjectingFs.Op.WRITE),
    /** An fsync of a file. */
    FSYNC(FaultInjectingFs.Op.SYNC),
    /** A rename (matched on the source name). */
    RENAME(FaultInjectingFs.Op.RENAME),
    /** A delete. */
    DELETE(FaultInjectingFs.Op.DELETE),
    /** An fsync of a directory (matched on the directory's name). */
    DIRECTORY_FSYNC(FaultInjectingFs.Op.DIRECTORY_SYNC);

    private final FaultInjectingFs.Op op;

    Operation(FaultInjectingFs.Op op) {
      this.op = op;
    }
  }

  private final FaultInjectingFs fs;
  private final Random random;

  /** An injector whose random choices (torn-write lengths, kept tails) come from {@code seed}. */
  public FaultInjector(long seed) {
    this.random = new Random(seed);
    this.fs = new FaultInjectingFs(new NioStorageFs(), new Random(seed + 1));
  }

  /**
   * Opens the database in {@code options.dataDirectory()} (like {@link TalusDb#open}) with every
   * file operation going through this injector.
   */
  public TalusDb open(TalusOptions options) {
    return StorageHook.open(TalusDb.class, Objects.requireNonNull(options, "options"), fs);
  }

  private static FaultInjectingFs.Fault map(Fault f) {
    return switch (f) {
      case IO_ERROR -> FaultInjectingFs.Fault.EIO;
      case DISK_FULL -> FaultInjectingFs.Fault.DISK_FULL;
      case TORN_WRITE -> FaultInjectingFs.Fault.TORN_WRITE;
    };
  }

  /**
   * Fails the {@code nth} operation of kind {@code operation} from now (1 = the next), once. A
   * failed rename, delete or directory fsync changes nothing.
   */
  public void fail(Operation operation, long nth, Fault fault) {
    fs.failNth(operation.op, nth, map(fault));
  }

  /**
   * Fails, once, the next operation of kind {@code operation} on a file whose name (without its
   * directories) matches the glob {@code fileName}: {@code "MANIFEST.db"}, {@code "CommitLog-*"},
   * {@code "schema.db*"}, {@code "*Data.db*"} (temporary files end in {@code .tmp}).
   */
  public void failNext(Operation operation, String fileName, Fault fault) {
    fs.failNext(operation.op, fileName, map(fault));
  }

  /**
   * As {@link #failNext(Operation, String, Fault)}, for each of the next {@code times} such
   * operations (a fault that lasts: {@code Long.MAX_VALUE}, until {@link #clear()}).
   */
  public void failNext(Operation operation, String fileName, Fault fault, long times) {
    fs.failNext(operation.op, fileName, map(fault), times);
  }

  /** Operations of kind {@code operation} so far, failed ones included. */
  public long count(Operation operation) {
    return fs.count(operation.op);
  }

  /** Fails the {@code nth} file write from now (1 = the next), once. */
  public void failWrite(long nth, Fault fault) {
    fs.failWrite(nth, map(fault));
  }

  /** Fails the {@code nth} fsync from now (1 = the next), once. */
  public void failSync(long nth, Fault fault) {
    fs.failSync(nth, map(fault));
  }

  /**
   * A full disk: until {@link #freeDisk()} (or {@link #clear()}), every write to a file whose name
   * matches the glob {@code fileName} fails with "No space left on device". {@code "*.db*"} fills
   * it for SSTables, manifests and the schema but not for the commit log, whose segments a real
   * deployment keeps on their own disk or preallocated.
   */
  public void fillDisk(String fileName) {
    fs.fillDisk(fileName);
  }

  /**
   * A full disk that says so at fsync, not at write (NFS, thin-provisioned volumes): until {@link
   * #freeDisk()} (or {@link #clear()}), writes succeed but every fsync of a file whose name matches
   * the glob {@code fileName} fails with "No space left on device" — and, as every failed fsync,
   * loses the data it should have made durable.
   */
  public void fillDiskAtFsync(String fileName) {
    fs.fillDiskAtSync(fileName);
  }

  /** Space is back after {@link #fillDisk} or {@link #fillDiskAtFsync}. */
  public void freeDisk() {
    fs.freeDisk();
  }

  /**
   * A stalling disk: until {@link #releaseStalls()} (or {@link #clear()}), every operation of kind
   * {@code operation} ({@link Operation#WRITE} or {@link Operation#FSYNC}) on a file whose name
   * matches the glob {@code fileName} blocks before it starts, then goes on as usual.
   */
  public void stall(Operation operation, String fileName) {
    fs.stall(operation.op, fileName);
  }

  /** Lets every stalled operation go on; nothing stalls any more. */
  public void releaseStalls() {
    fs.releaseStalls();
  }

  /** Waits until at least {@code n} operations are blocked by {@link #stall}. */
  public void awaitStalled(int n) throws InterruptedException {
    fs.awaitStalled(n);
  }

  /** Fails every fsync until {@link #clear()}. */
  public void failAllSyncs(Fault fault) {
    fs.failAllSyncs(map(fault));
  }

  /**
   * Crash points: lets {@code n} more changing file operations (creates, writes, fsyncs,
   * truncations, renames, deletes, directory fsyncs) through, then stops the "machine" — that
   * operation and every later one fails with an I/O error — until {@link #clear()}. Follow it with
   * {@link #crash}, {@link #crashAndLosePower} or {@link #crashAndLoseAllUnsynced} to get a state
   * the disk may legally be in after a crash at that point.
   */
  public void haltAfter(long n) {
    fs.haltAfter(n);
  }

  /** Changing file operations so far (to pick an n for {@link #haltAfter}). */
  public long changes() {
    return fs.mutationCount();
  }

  /**
   * Starts (true) or stops recording a one-line description of every changing file operation, for
   * failure messages: {@link #recordedOperations()}.
   */
  public void recordOperations(boolean on) {
    fs.recordOperations(on);
  }

  /** The changing file operations recorded since {@code recordOperations(true)}, in order. */
  public java.util.List<String> recordedOperations() {
    return fs.recordedOperations();
  }

  /** Disarms every fault. */
  public void clear() {
    fs.clearFaults();
  }

  /** File writes so far (to pick an n for {@link #failWrite}). */
  public long writes() {
    return fs.writeCount();
  }

  /** Fsyncs so far. */
  public long syncs() {
    return fs.syncCount();
  }

  public long faultsInjected() {
    return fs.injectedFaultCount();
  }

  /**
   * Abandons {@code db} as if its process were killed — nothing flushed, nothing synced, its
   * directory unlocked — and then loses power: every file keeps only what was fsynced (and a random
   * part of what was not), and creations and renames not made durable by a directory fsync are
   * undone.
   */
  public void crashAndLosePower(TalusDb db) {
    crash(db);
    try {
      fs.simulatePowerLoss(random);
    } catch (IOException e) {
      throw new StorageException("simulated power loss failed: " + e.getMessage(), e);
    }
  }

  /** Like {@link #crashAndLosePower} but keeps nothing that was not fsynced. */
  public void crashAndLoseAllUnsynced(TalusDb db) {
    crash(db);
    try {
      fs.simulatePowerLoss();
    } catch (IOException e) {
      throw new StorageException("simulated power loss failed: " + e.getMessage(), e);
    }
  }

  /**
   * Abandons {@code db} (opened with or without an injector) as a killed process would, without a
   * power loss.
   */
  public static void crash(TalusDb db) {
    StorageHook.crash(TalusDb.class, db);
  }
}
