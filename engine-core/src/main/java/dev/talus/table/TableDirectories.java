package dev.talus.table;

import dev.talus.io.StorageFs;
import dev.talus.sstable.SSTableDescriptor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the directory of a table that no longer exists: its files, its {@code quarantine/}
 * folder, then the directory itself — unless it holds {@code snapshots/}, which stay (with the
 * directory) until they are cleared. Files a reader still holds are skipped (an obsolete SSTable
 * deletes its own files when released), and then the directory stays until the next open removes
 * it. Stateless.
 */
public final class TableDirectories {
  private static final Logger LOG = LoggerFactory.getLogger(TableDirectories.class);

  private static final Pattern SSTABLE =
      Pattern.compile(Pattern.quote(SSTableDescriptor.PREFIX) + "(\\d+)-.*");

  private TableDirectories() {}

  /**
   * Deletes what it can of {@code dir}, leaving the files of the SSTable generations {@code inUse}
   * (readers still hold them; each deletes its own files when released); returns whether the
   * directory is gone.
   */
  public static boolean delete(StorageFs fs, Path dir, Set<Long> inUse) throws IOException {
    for (Path sub : fs.listDirectories(dir)) {
      if (sub.getFileName().toString().equals(SnapshotFiles.SNAPSHOTS)) {
        continue; // kept, with the directory, until the snapshots are cleared
      }
      deleteFiles(fs, sub, Set.of());
      fs.delete(sub);
    }
    deleteFiles(fs, dir, inUse);
    try {
      fs.delete(dir);
      fs.syncDirectory(dir.getParent());
      return true;
    } catch (java.nio.file.DirectoryNotEmptyException e) {
      LOG.debug("Table directory {} still holds files in use; the next open removes it", dir);
      return false;
    }
  }

  private static void deleteFiles(StorageFs fs, Path dir, Set<Long> inUse) throws IOException {
    for (Path f : fs.list(dir)) {
      if (!inUse.contains(generation(f.getFileName().toString()))) {
        fs.delete(f);
      }
    }
  }

  /** The SSTable generation a file name belongs to, or -1. */
  private static long generation(String name) {
    Matcher m = SSTABLE.matcher(name);
    return m.matches() ? Long.parseLong(m.group(1)) : -1;
  }
}
