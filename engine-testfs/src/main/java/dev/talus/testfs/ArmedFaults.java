package dev.talus.testfs;

import dev.talus.testfs.FaultInjectingFs.Fault;
import dev.talus.testfs.FaultInjectingFs.Op;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The faults armed in one {@link FaultInjectingFs} and the counters they are armed against: per
 * kind of operation (write, file sync, rename, delete, directory sync) a count of attempts, an
 * optional "fail the n-th" trigger and an optional "fail the next one on a file whose name matches"
 * trigger; and a fault for every file sync. Thread-safe (every method is synchronized; the counters
 * are atomic so they can be read without the lock).
 */
final class ArmedFaults {
  private final Map<Op, AtomicLong> counts = new EnumMap<>(Op.class);
  private final Map<Op, Long> failAt = new EnumMap<>(Op.class);
  private final Map<Op, Fault> failAtFault = new EnumMap<>(Op.class);
  private final Map<Op, PathMatcher> failNamed = new EnumMap<>(Op.class);
  private final Map<Op, Fault> failNamedFault = new EnumMap<>(Op.class);
  private final Map<Op, Long> failNamedLeft = new EnumMap<>(Op.class);
  private final AtomicLong injected = new AtomicLong();
  private final AtomicLong mutations = new AtomicLong();
  private Fault allSyncsFault;
  private PathMatcher fullDisk;
  private boolean fullAtSync;
  private long haltAt = -1;
  private java.util.List<String> recorded;

  ArmedFaults() {
    for (Op op : Op.values()) {
      counts.put(op, new AtomicLong());
    }
  }

  synchronized void failNth(Op op, long nth, Fault fault) {
    if (nth < 1) {
      throw new IllegalArgumentException("nth must be >= 1, was " + nth);
    }
    failAt.put(op, counts.get(op).get() + nth);
    failAtFault.put(op, Objects.requireNonNull(fault, "fault"));
  }

  /**
   * Fails the next {@code times} {@code op}s on a file whose name (not its directories) matches
   * {@code glob}.
   */
  synchronized void failNextNamed(Op op, String glob, Fault fault, long times) {
    if (times < 1) {
      throw new IllegalArgumentException("times must be >= 1, was " + times);
    }
    failNamed.put(op, FileSystems.getDefault().getPathMatcher("glob:" + glob));
    failNamedFault.put(op, Objects.requireNonNull(fault, "fault"));
    failNamedLeft.put(op, times);
  }

  /**
   * Fails every write (with {@code atSync}, every file sync instead) of a file whose name matches
   * {@code glob} with a full disk, until cleared.
   */
  synchronized void fillDisk(String glob, boolean atSync) {
    fullDisk = FileSystems.getDefault().getPathMatcher("glob:" + glob);
    fullAtSync = atSync;
  }

  synchronized void freeDisk() {
    fullDisk = null;
  }

  synchronized void failAllSyncs(Fault fault) {
    allSyncsFault = Objects.requireNonNull(fault, "fault");
  }

  /** Lets {@code n} more changing operations through; the one after halts the file system. */
  synchronized void haltAfter(long n) {
    if (n < 0) {
      throw new IllegalArgumentException("n must be >= 0, was " + n);
    }
    haltAt = mutations.get() + n;
  }

  /** Starts (or, with false, stops) recording a description of every changing operation. */
  synchronized void record(boolean on) {
    recorded = on ? new java.util.ArrayList<>() : null;
  }

  synchronized java.util.List<String> recorded() {
    return recorded == null ? java.util.List.of() : java.util.List.copyOf(recorded);
  }

  long mutations() {
    return mutations.get();
  }

  /**
   * Counts one changing operation (described by {@code what}) and returns true if the file system
   * must halt instead of doing it.
   */
  synchronized boolean mutation(String what) {
    if (haltAt >= 0 && mutations.get() >= haltAt) {
      haltAt = -1;
      return true;
    }
    mutations.incrementAndGet();
    if (recorded != null) {
      recorded.add(what);
    }
    return false;
  }

  synchronized void clear() {
    haltAt = -1;
    failAt.clear();
    failAtFault.clear();
    failNamed.clear();
    failNamedFault.clear();
    failNamedLeft.clear();
    allSyncsFault = null;
    fullDisk = null;
  }

  long count(Op op) {
    return counts.get(op).get();
  }

  long injected() {
    return injected.get();
  }

  void countInjected() {
    injected.incrementAndGet();
  }

  /**
   * Counts one attempt of {@code op} on {@code file} and returns the fault to inject, or null. A
   * trigger fires once (a named one as many times as it was armed for).
   */
  synchronized Fault next(Op op, Path file) {
    long n = counts.get(op).incrementAndGet();
    Long at = failAt.get(op);
    if (at != null && n == at) {
      failAt.remove(op);
      injected.incrementAndGet();
      return failAtFault.remove(op);
    }
    PathMatcher m = failNamed.get(op);
    if (m != null && file != null && file.getFileName() != null && m.matches(file.getFileName())) {
      injected.incrementAndGet();
      Fault f = failNamedFault.get(op);
      if (failNamedLeft.merge(op, -1L, Long::sum) <= 0) {
        failNamed.remove(op);
        failNamedFault.remove(op);
        failNamedLeft.remove(op);
      }
      return f;
    }
    if (op == (fullAtSync ? Op.SYNC : Op.WRITE)
        && fullDisk != null
        && file != null
        && file.getFileName() != null
        && fullDisk.matches(file.getFileName())) {
      injected.incrementAndGet();
      return Fault.DISK_FULL;
    }
    if (op == Op.SYNC && allSyncsFault != null) {
      injected.incrementAndGet();
      return allSyncsFault;
    }
    return null;
  }

  static IOException error(FaultInjectingFs.Fault fault, String what) {
    return fault == FaultInjectingFs.Fault.DISK_FULL
        ? new IOException("No space left on device")
        : new IOException("EIO: injected I/O error on " + what);
  }
}
