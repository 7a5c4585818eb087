package dev.talus.testfs;

import dev.talus.io.FileLockHandle;
import dev.talus.io.NioStorageFs;
import dev.talus.io.ReadableFile;
import dev.talus.io.StorageFs;
import dev.talus.io.WritableFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A {@link StorageFs} for tests that wraps a real one (usually {@link NioStorageFs} over a
 * temporary directory), remembers what is durable, and can inject I/O faults and simulate a power
 * loss. Modelled on RocksDB's {@code FaultInjectionTestFS}, LevelDB's fault-injection Env and H2's
 * {@code FilePathUnstable}.
 *
 * <h2>The durability model</h2>
 *
 * <ul>
 *   <li><b>File data.</b> Every completed write through a {@link WritableFile} is recorded as an
 *       unsynced range. A successful {@link WritableFile#sync} makes durable exactly the ranges
 *       whose write had <em>returned</em> before the sync started; a write still running during the
 *       sync stays unsynced (the conservative reading of "concurrent with sync").
 *   <li><b>Failed sync (fsyncgate).</b> When a sync fails, the ranges it should have covered are
 *       marked <em>lost</em>: they stay readable until the power loss (the page cache still holds
 *       them) but no later successful sync makes them durable, as on Linux, where a failed fsync
 *       clears the dirty state of the pages it could not write.
 *   <li><b>Names.</b> A name made by {@link #create}, {@link #rename} or {@link #createLink} is
 *       durable only after {@link #syncDirectory} of its parent. A name removed by {@link #delete}
 *       or replaced or moved away by {@link #rename} comes back at a power loss unless its
 *       directory was synced after the removal; to make that possible the wrapper keeps, in memory,
 *       the durable bytes of such a file until the directory sync (fine for test-sized files).
 *       Files that existed before the wrapper first saw them, and directories made by {@link
 *       #createDirectories}, count as fully durable.
 *   <li><b>Truncation</b> is treated as durable at once (the engine only truncates torn tails it is
 *       about to re-sync; a power loss cannot bring truncated bytes back in this model).
 * </ul>
 *
 * <p>{@link #simulatePowerLoss()} then produces the state a machine would show after a reboot:
 * every file cut to its durable length, unsynced and lost ranges inside that length zero-filled
 * (their previous content in a write-once file), names that were never made durable removed and
 * non-durable removals undone. {@link #simulatePowerLoss(Random)} additionally keeps, for each
 * unsynced range, at random all of it, a prefix of it (a torn write) or none of it, so that
 * recovery code sees the partially persisted tails a real disk can leave. Overlapping unsynced
 * writes to the same bytes are not modelled precisely (the engine writes every byte once). Handles
 * opened before the power loss are dead afterwards (every call throws); all injected faults are
 * cleared, as after a reboot, and the wrapper goes on working over the surviving files.
 *
 * <h2>Faults</h2>
 *
 * Writes, file syncs, renames, deletes and directory syncs are counted ({@link #count}) so that a
 * test can run a workload once, then run it again failing the 1st, 2nd, ... n-th operation of a
 * kind ({@link #failNth}, {@link #failWrite}, {@link #failSync}), or fail the next operation of a
 * kind on a file whose name matches a glob ({@link #failNext}, e.g. the next sync of {@code
 * MANIFEST.db}). {@link #failAllSyncs} and {@link #failEverything} arm lasting faults, {@link
 * #fillDisk} a full disk and {@link #stall} a hanging one ({@link Stalls}); {@link #clearFaults}
 * disarms them all. Errors are {@link IOException}s whose messages start with {@code "EIO"} or are
 * {@code "No space left on device"}, like the JDK's on Linux. A failed rename, delete or directory
 * sync changes nothing: the names stay as they were, and a failed directory sync makes nothing
 * durable (a later successful one does).
 *
 * <p>Thread-safe. Operations run concurrently with each other; a power loss waits for running
 * operations and excludes new ones while it rewrites the files.
 */
// "exports": the file layer's types are exported only to the engine and its test support, the
// only users of this class
@SuppressWarnings("exports")
public final class FaultInjectingFs implements StorageFs {
  /** What an injected failure looks like. */
  public enum Fault {
    /** An I/O error ("EIO"); a failed write writes nothing. */
    EIO,
    /** "No space left on device"; a failed write writes nothing. */
    DISK_FULL,
    /** A write stores a random prefix of its buffer, then fails with EIO (EIO for a sync). */
    TORN_WRITE
  }

  /** The kinds of operation that can be counted and failed. */
  public enum Op {
    /** A write through a {@link WritableFile}. */
    WRITE,
    /** A {@link WritableFile#sync}. */
    SYNC,
    /** A {@link StorageFs#rename}; the file is its source. */
    RENAME,
    /** A {@link StorageFs#delete} (also of a missing file). */
    DELETE,
    /** A {@link StorageFs#syncDirectory}; the file is the directory. */
    DIRECTORY_SYNC
  }

  private final StorageFs delegate;
  private final Random random;
  private final ReentrantReadWriteLock gate = new ReentrantReadWriteLock();
  // Guarded by "this".
  private final Map<Path, FileState> files = new HashMap<>();
  private final Map<Path, byte[]> restoreOnPowerLoss = new HashMap<>();
  private final Set<FaultyWritableFile> openHandles =
      Collections.newSetFromMap(new IdentityHashMap<>());

  private final ArmedFaults faults = new ArmedFaults();
  final Stalls stalls = new Stalls();
  private final AtomicLong powerLosses = new AtomicLong();
  private volatile boolean failEverything;

  public FaultInjectingFs(StorageFs delegate) {
    this(delegate, new Random(0));
  }

  /** {@code random} chooses torn-write prefixes; pass a seeded one for reproducible tests. */
  public FaultInjectingFs(StorageFs delegate, Random random) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.random = Objects.requireNonNull(random, "random");
  }

  /** Fails the {@code nth} operation of kind {@code op} from now (1 = the next one), once. */
  public void failNth(Op op, long nth, Fault fault) {
    faults.failNth(Objects.requireNonNull(op, "op"), nth, fault);
  }

  /**
   * Fails the next operation of kind {@code op} on a file whose name (without its directories)
   * matches {@code glob} ({@link java.nio.file.FileSystem#getPathMatcher} syntax, e.g. {@code
   * "MANIFEST.db"}, {@code "CommitLog-*"}, {@code "*-Data.db*"}), once — or, given {@code times},
   * each of the next {@code times} such operations.
   */
  public void failNext(Op op, String glob, Fault fault) {
    failNext(op, glob, fault, 1);
  }

  public void failNext(Op op, String glob, Fault fault, long times) {
    faults.failNextNamed(
        Objects.requireNonNull(op, "op"), Objects.requireNonNull(glob), fault, times);
  }

  /** Fails the {@code nth} write from now (1 = the next one), once. */
  public void failWrite(long nth, Fault fault) {
    failNth(Op.WRITE, nth, fault);
  }

  /** Fails the {@code nth} file sync from now (1 = the next one), once. */
  public void failSync(long nth, Fault fault) {
    failNth(Op.SYNC, nth, fault);
  }

  /** A full disk: until {@link #freeDisk}, writes to files matching {@code glob} get ENOSPC. */
  public void fillDisk(String glob) {
    faults.fillDisk(Objects.requireNonNull(glob, "glob"), false);
  }

  /** As {@link #fillDisk}, but fsyncs get ENOSPC (NFS, thin provisioning), writes succeed. */
  public void fillDiskAtSync(String glob) {
    faults.fillDisk(Objects.requireNonNull(glob, "glob"), true);
  }

  public void freeDisk() {
    faults.freeDisk();
  }

  /** A stalling disk: until {@link #releaseStalls}, each {@code op} on a matching file blocks. */
  public void stall(Op op, String glob) {
    stalls.stall(Objects.requireNonNull(op, "op"), Objects.requireNonNull(glob, "glob"));
  }

  public void releaseStalls() {
    stalls.release();
  }

  /** Waits until at least {@code n} operations are blocked by {@link #stall}. */
  public void awaitStalled(int n) throws InterruptedException {
    stalls.awaitStalled(n);
  }

  /** Fails every file sync until {@link #clearFaults}. */
  public void failAllSyncs(Fault fault) {
    faults.failAllSyncs(fault);
  }

  /**
   * While on, every operation (create, open, read, write, sync, rename, delete, list, directory
   * sync) fails with EIO: the disk is gone. Stands for RocksDB's inactive file system.
   */
  public void failEverything(boolean on) {
    failEverything = on;
  }

  /**
   * Crash-point control: lets {@code n} more changing operations (creates, writes, file syncs,
   * truncations, renames, deletes, directory syncs) through, then halts — that operation and every
   * later one fails with EIO, as if the machine had stopped just before it — until {@link
   * #clearFaults}. Follow it with {@link #simulatePowerLoss} (or nothing, for a process crash) to
   * get the state the disk may be in after a crash at that point.
   */
  public void haltAfter(long n) {
    faults.haltAfter(n);
  }

  /** Changing operations done so far (a halted one not included). */
  public long mutationCount() {
    return faults.mutations();
  }

  /** Starts or stops recording a one-line description of each changing operation. */
  public void recordOperations(boolean on) {
    faults.record(on);
  }

  /** The changing operations recorded since {@link #recordOperations recordOperations(true)}. */
  public List<String> recordedOperations() {
    return faults.recorded();
  }

  /** Disarms every fault. */
  public void clearFaults() {
    faults.clear();
    stalls.release();
    failEverything = false;
  }

  /** Operations of kind {@code op} attempted through this wrapper so far (failed ones included). */
  public long count(Op op) {
    return faults.count(Objects.requireNonNull(op, "op"));
  }

  /** Writes attempted through this wrapper so far (failed ones included). */
  public long writeCount() {
    return count(Op.WRITE);
  }

  /** File syncs attempted so far (failed ones included); directory syncs are not counted here. */
  public long syncCount() {
    return count(Op.SYNC);
  }

  /** Failures injected so far. */
  public long injectedFaultCount() {
    return faults.injected();
  }

  /** Drops everything that was not durable; see the class comment. */
  public void simulatePowerLoss() throws IOException {
    powerLoss(null);
  }

  /** As {@link #simulatePowerLoss()}; each unsynced write survives whole, torn or not at all. */
  public void simulatePowerLoss(Random rnd) throws IOException {
    powerLoss(Objects.requireNonNull(rnd));
  }

  private void powerLoss(Random rnd) throws IOException {
    gate.writeLock().lock();
    try {
      synchronized (this) {
        powerLosses.incrementAndGet();
        FaultyWritableFile.killAll(openHandles);
        FileState.loseUnsynced(delegate, files, restoreOnPowerLoss, rnd);
        clearFaults();
      }
    } finally {
      gate.writeLock().unlock();
    }
  }

  @Override
  public WritableFile create(Path file) throws IOException {
    Path key = key(file);
    return withGate(
        () -> {
          checkMutation("create " + file);
          WritableFile f = delegate.create(file);
          synchronized (this) {
            FileState st = new FileState();
            files.put(key, st);
            return register(new FaultyWritableFile(this, key, f, st, 0));
          }
        });
  }

  @Override
  public WritableFile openForAppend(Path file) throws IOException {
    Path key = key(file);
    return withGate(
        () -> {
          checkAlive("open " + file);
          WritableFile f = delegate.openForAppend(file);
          synchronized (this) {
            FileState st = FileState.of(files, delegate, key);
            return register(new FaultyWritableFile(this, key, f, st, f.size()));
          }
        });
  }

  @Override
  public ReadableFile openForRead(Path file) throws IOException {
    return withGate(
        () -> {
          checkAlive("open " + file);
          return new CheckedReadableFile(this, file, delegate.openForRead(file));
        });
  }

  @Override
  public void rename(Path from, Path to) throws IOException {
    Path src = key(from);
    Path dst = key(to);
    withGate(
        () -> {
          checkMutation("rename " + from + " to " + to);
          inject(Op.RENAME, src, "rename of " + from);
          synchronized (this) {
            FileState st = FileState.of(files, delegate, src);
            if (st.nameDurable) {
              restoreOnPowerLoss.putIfAbsent(src, st.durableImage(delegate, src));
            }
            if (delegate.exists(to)) {
              FileState old = FileState.of(files, delegate, dst);
              if (old.nameDurable) {
                restoreOnPowerLoss.putIfAbsent(dst, old.durableImage(delegate, dst));
              }
            }
            delegate.rename(from, to);
            files.remove(src);
            st.nameDurable = false;
            files.put(dst, st);
          }
          return null;
        });
  }

  /** A hard link: a new name, durable after its directory sync, for the existing bytes. */
  @Override
  public void createLink(Path link, Path existing) throws IOException {
    withGate(
        () -> {
          checkMutation("link " + link + " to " + existing);
          delegate.createLink(link, existing);
          synchronized (this) {
            files.put(key(link), FileState.linked(delegate.size(link)));
          }
          return null;
        });
  }

  @Override
  public void delete(Path file) throws IOException {
    Path key = key(file);
    withGate(
        () -> {
          checkMutation("delete " + file);
          inject(Op.DELETE, key, "delete of " + file);
          synchronized (this) {
            // an empty directory (a dropped table's) has no content to bring back on power loss
            boolean directory = delegate.listDirectories(file.getParent()).contains(file);
            if (delegate.exists(file) && !directory) {
              FileState st = FileState.of(files, delegate, key);
              if (st.nameDurable) {
                restoreOnPowerLoss.putIfAbsent(key, st.durableImage(delegate, key));
              }
            }
            delegate.delete(file);
            files.remove(key);
          }
          return null;
        });
  }

  @Override
  public void syncDirectory(Path dir) throws IOException {
    Path d = key(dir);
    withGate(
        () -> {
          checkMutation("sync directory " + dir);
          inject(Op.DIRECTORY_SYNC, d, "sync of directory " + dir);
          delegate.syncDirectory(dir);
          synchronized (this) {
            for (Map.Entry<Path, FileState> e : files.entrySet()) {
              if (d.equals(e.getKey().getParent())) {
                e.getValue().nameDurable = true;
              }
            }
            restoreOnPowerLoss.keySet().removeIf(p -> d.equals(p.getParent()));
          }
          return null;
        });
  }

  @Override
  public List<Path> list(Path dir) throws IOException {
    return withGate(
        () -> {
          checkAlive("list " + dir);
          return delegate.list(dir);
        });
  }

  @Override
  public List<Path> listDirectories(Path dir) throws IOException {
    return withGate(
        () -> {
          checkAlive("list " + dir);
          return delegate.listDirectories(dir);
        });
  }

  @Override
  public boolean exists(Path file) {
    return delegate.exists(file);
  }

  @Override
  public long size(Path file) throws IOException {
    checkAlive("size " + file);
    return delegate.size(file);
  }

  @Override
  public void createDirectories(Path dir) throws IOException {
    checkAlive("create directories " + dir);
    delegate.createDirectories(dir);
  }

  @Override
  public FileLockHandle lock(Path file) throws IOException {
    checkAlive("lock " + file);
    return delegate.lock(file);
  }

  <T> T withGate(IoAction<T> action) throws IOException {
    gate.readLock().lock();
    try {
      return action.run();
    } finally {
      gate.readLock().unlock();
    }
  }

  /**
   * {@link #checkAlive}, then counts a changing operation (create, write, sync, truncate, rename,
   * delete, directory sync) and halts the file system if {@link #haltAfter} says so.
   */
  void checkMutation(String op) throws IOException {
    checkAlive(op);
    if (faults.mutation(op)) {
      failEverything = true;
      checkAlive(op);
    }
  }

  void checkAlive(String op) throws IOException {
    if (failEverything) {
      faults.countInjected();
      throw new IOException("EIO: injected failure of " + op + " (file system failed)");
    }
  }

  private static Path key(Path p) {
    return p.toAbsolutePath().normalize();
  }

  private FaultyWritableFile register(FaultyWritableFile h) {
    openHandles.add(h);
    return h;
  }

  synchronized void closed(FaultyWritableFile h) {
    openHandles.remove(h);
  }

  Random random() {
    return random;
  }

  /** Counts one {@code op} on {@code file} and returns the fault to inject, or null. */
  Fault nextFault(Op op, Path file) {
    return faults.next(op, key(file));
  }

  /** Counts one {@code op} and throws the armed fault, if any, before anything happens. */
  private void inject(Op op, Path file, String what) throws IOException {
    Fault f = nextFault(op, file);
    if (f != null) {
      throw ArmedFaults.error(
          f, what + " (" + op.name().toLowerCase(Locale.ROOT) + " #" + count(op) + ")");
    }
  }
}
