package dev.talus.table;

import dev.talus.DiskFailurePolicy;
import dev.talus.io.CorruptFileException;
import dev.talus.io.StorageFs;
import dev.talus.runtime.DbContext;
import dev.talus.sstable.Manifest;
import dev.talus.sstable.SSTableDescriptor;
import dev.talus.sstable.SSTableReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link DiskFailurePolicy#QUARANTINE} half of the disk failure policy for one table: an
 * SSTable found corrupt (at open, by a read or by verify) leaves the live set through a manifest
 * edit, its files move to {@code quarantine/} in the table directory for inspection, and the caller
 * carries on without it. Under {@link DiskFailurePolicy#FAIL} (the default) it does nothing and the
 * corruption surfaces as an exception. Thread-safe.
 */
public final class Quarantine {
  private static final Logger LOG = LoggerFactory.getLogger(Quarantine.class);

  /** The subdirectory of a table directory that quarantined SSTables move to. */
  public static final String DIRECTORY = "quarantine";

  private final boolean enabled;
  private final StorageFs fs;
  private final Path directory;
  private final String table;
  private final Set<Long> quarantined = new HashSet<>();
  private final AtomicLong count = new AtomicLong();

  Quarantine(DbContext ctx, Path directory, String table) {
    this.enabled = ctx.options().diskFailurePolicy() == DiskFailurePolicy.QUARANTINE;
    this.fs = ctx.fs();
    this.directory = directory;
    this.table = table;
  }

  /** SSTables quarantined since the table was opened. */
  public long count() {
    return count.get();
  }

  /**
   * At open: quarantines generation {@code gen}, which failed to open with {@code e}. Returns false
   * (the caller rethrows) under the FAIL policy or if quarantining itself failed.
   */
  synchronized boolean atOpen(Manifest manifest, long gen, CorruptFileException e) {
    if (!enabled) {
      return false;
    }
    try {
      manifest.apply(List.of(), List.of(gen));
      moveFiles(gen, e);
      return true;
    } catch (IOException | RuntimeException failure) {
      LOG.error("Could not quarantine SSTable {} of table {}", gen, table, failure);
      return false;
    }
  }

  /**
   * After a read or verify of {@code store} failed with {@code e}: removes the SSTable that holds
   * the damaged file from the live set. Returns true if the caller may retry without it (it was
   * quarantined now or by a concurrent caller), false to let the corruption surface.
   */
  public synchronized boolean handle(TableStore store, CorruptFileException e) {
    if (!enabled || e.file() == null) {
      return false;
    }
    long gen = SSTableDescriptor.generationOf(e.file());
    if (gen < 0) {
      return false;
    }
    if (quarantined.contains(gen)) {
      return true;
    }
    SSTableReader removed;
    try {
      removed = store.tracker().quarantine(gen);
    } catch (IOException | RuntimeException failure) {
      LOG.error("Could not quarantine SSTable {} of table {}", gen, table, failure);
      return false;
    }
    if (removed == null) {
      return false; // not live (compacted away meanwhile): the retry reads the new files
    }
    try {
      moveFiles(gen, e);
    } catch (IOException failure) {
      LOG.error("SSTable {} of table {} left the live set; moving its files failed", gen, table);
    }
    return true;
  }

  private void moveFiles(long gen, CorruptFileException e) throws IOException {
    quarantined.add(gen);
    count.incrementAndGet();
    Path target = directory.resolve(DIRECTORY);
    fs.createDirectories(target);
    for (Path p : fs.list(directory)) {
      if (SSTableDescriptor.generationOf(p) == gen) {
        fs.rename(p, target.resolve(p.getFileName()));
      }
    }
    fs.syncDirectory(target);
    fs.syncDirectory(directory);
    LOG.error(
        "Quarantined SSTable generation {} of table {} (disk failure policy QUARANTINE): {}; its"
            + " files are in {}. Reads go on without its data.",
        gen,
        table,
        e.getMessage(),
        target);
  }
}
