package dev.talus.db;

import dev.talus.CorruptCommitLogException;
import dev.talus.CorruptDataException;
import dev.talus.CorruptSSTableException;
import dev.talus.commitlog.CommitLog;
import dev.talus.io.CorruptFileException;
import dev.talus.sstable.Manifest;
import dev.talus.sstable.SSTableDescriptor;
import dev.talus.table.Quarantine;
import java.nio.file.Path;

/**
 * The one place where stored bytes that failed a check become a public exception: every public call
 * of the database and its tables catches the file layer's {@link CorruptFileException} and throws
 * what this returns, a {@link CorruptDataException} naming the file and the offset. Which subclass
 * follows from the damaged file, as its format names it: an SSTable component gives a {@link
 * CorruptSSTableException}, a commit-log segment a {@link CorruptCommitLogException}, any other
 * file (a manifest, the schema) the base class. Damage that stops an open also says what the way
 * out is ({@link #atOpen}). Stateless.
 */
public final class Corruption {
  private Corruption() {}

  /**
   * The public exception for {@code e}, met while doing what {@code context} says ("table t",
   * "compaction of table t", "cannot load dir"); its message is the context, then the file, offset
   * and what failed.
   */
  public static CorruptDataException translate(CorruptFileException e, String context) {
    Path file = e.file();
    if (isSSTableComponent(file)) {
      return new CorruptSSTableException(context + ": " + e.getMessage(), file, e.offset(), e);
    }
    if (CommitLog.isSegmentFile(file)) {
      // only replay reads the log, when the database opens: say how to open it anyway
      return new CorruptCommitLogException(
          "the commit log is damaged before its tail: "
              + e.getMessage()
              + ". To open the database anyway, set"
              + " TalusOptions.Builder.skipCorruptCommitLogRecords(true): damaged records are"
              + " skipped and counted, and the writes they held are lost",
          file,
          e.offset(),
          e);
    }
    return new CorruptDataException(context + ": " + e.getMessage(), file, e.offset(), e);
  }

  /**
   * Damage that stopped table {@code table} (directory {@code tableDir}) from opening under the
   * FAIL policy: the exception names the file, the table and the ways out.
   */
  static CorruptDataException atOpen(CorruptFileException e, String table, Path tableDir) {
    String context = "cannot open table " + table + " (" + tableDir + ")";
    if (isManifest(e.file())) {
      return new CorruptDataException(
          context
              + ": "
              + e.getMessage()
              + ". The manifest lists the table's live SSTables; without it the table cannot be"
              + " read, and under the disk failure policy FAIL (the default) the database does"
              + " not open. Either open with"
              + " TalusOptions.Builder.diskFailurePolicy(DiskFailurePolicy.QUARANTINE), which"
              + " sets this table aside (not served, its files left untouched) and opens every"
              + " other table, or restore the table directory from a backup",
          e.file(),
          e.offset(),
          e);
    }
    if (isSSTableComponent(e.file())) {
      return new CorruptSSTableException(
          context
              + ": "
              + e.getMessage()
              + ". Under the disk failure policy FAIL (the default) a damaged SSTable stops the"
              + " open. Either open with"
              + " TalusOptions.Builder.diskFailurePolicy(DiskFailurePolicy.QUARANTINE), which"
              + " moves this SSTable's files to "
              + tableDir.resolve(Quarantine.DIRECTORY)
              + " and serves the table without them (rows only it held are missing; older"
              + " versions it overwrote or deleted may reappear), or restore the table directory"
              + " from a backup",
          e.file(),
          e.offset(),
          e);
    }
    return translate(e, context);
  }

  static boolean isManifest(Path file) {
    return file != null
        && file.getFileName() != null
        && file.getFileName().toString().equals(Manifest.FILE_NAME);
  }

  private static boolean isSSTableComponent(Path file) {
    return file != null && file.getFileName() != null && SSTableDescriptor.generationOf(file) >= 0;
  }
}
