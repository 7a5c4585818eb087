package dev.talus;

import dev.talus.io.FaultInjectingFs;
import dev.talus.io.NioStorageFs;
import java.io.IOException;
import java.util.Random;

/**
 * Fault injection for crash tests: pass one to {@link TalusOptions.Builder#faultInjector} and every
 * file operation of that database goes through it. It can fail the n-th write or fsync (an I/O
 * error, a full disk, a torn write), and simulate a crash followed by a power loss: everything not
 * fsynced is lost, including file creations and renames whose directory was not fsynced.
 *
 * <pre>{@code
 * FaultInjector faults = new FaultInjector(42);
 * TalusDb db = TalusDb.open(TalusOptions.builder(dir).faultInjector(faults)
 *     .commitLogSync(CommitLogSync.GROUP).build());
 * ... write ...
 * faults.crashAndLosePower(db);          // the process "dies" and the machine loses power
 * try (TalusDb reopened = TalusDb.open(sameOptions)) { ... every acknowledged write is there ... }
 * }</pre>
 *
 * <p>Keep using the same injector for the reopened database: it holds what "the disk" kept.
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

  final FaultInjectingFs fs;
  private final Random random;

  /** An injector whose random choices (torn-write lengths, kept tails) come from {@code seed}. */
  public FaultInjector(long seed) {
    this.random = new Random(seed);
    this.fs = new FaultInjectingFs(new NioStorageFs(), new Random(seed + 1));
  }

  private static FaultInjectingFs.Fault map(Fault f) {
    return switch (f) {
      case IO_ERROR -> FaultInjectingFs.Fault.EIO;
      case DISK_FULL -> FaultInjectingFs.Fault.DISK_FULL;
      case TORN_WRITE -> FaultInjectingFs.Fault.TORN_WRITE;
    };
  }

  /** Fails the {@code nth} file write from now (1 = the next), once. */
  public void failWrite(long nth, Fault fault) {
    fs.failWrite(nth, map(fault));
  }

  /** Fails the {@code nth} fsync from now (1 = the next), once. */
  public void failSync(long nth, Fault fault) {
    fs.failSync(nth, map(fault));
  }

  /** Fails every fsync until {@link #clear()}. */
  public void failAllSyncs(Fault fault) {
    fs.failAllSyncs(map(fault));
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
    db.engine().crash();
    try {
      fs.simulatePowerLoss(random);
    } catch (IOException e) {
      throw new StorageException("simulated power loss failed: " + e.getMessage(), e);
    }
  }

  /** Like {@link #crashAndLosePower} but keeps nothing that was not fsynced. */
  public void crashAndLoseAllUnsynced(TalusDb db) {
    db.engine().crash();
    try {
      fs.simulatePowerLoss();
    } catch (IOException e) {
      throw new StorageException("simulated power loss failed: " + e.getMessage(), e);
    }
  }

  /** Abandons {@code db} as a killed process would, without a power loss. */
  public static void crash(TalusDb db) {
    db.engine().crash();
  }
}
