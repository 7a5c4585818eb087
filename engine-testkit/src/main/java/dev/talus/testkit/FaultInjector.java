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
 * that database goes through this injector. It can fail the n-th write or fsync (an I/O error, a
 * full disk, a torn write), and simulate a crash followed by a power loss: everything not fsynced
 * is lost, including file creations and renames whose directory was not fsynced.
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
