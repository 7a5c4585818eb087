package dev.talus.db;

import dev.talus.CorruptCommitLogException;
import dev.talus.CorruptDataException;
import dev.talus.CorruptSSTableException;
import dev.talus.commitlog.CommitLog;
import dev.talus.io.CorruptFileException;
import dev.talus.sstable.SSTableDescriptor;
import java.nio.file.Path;

/**
 * The one place where stored bytes that failed a check become a public exception: every public call
 * of the database and its tables catches the file layer's {@link CorruptFileException} and throws
 * what this returns, a {@link CorruptDataException} naming the file and the offset. Which subclass
 * follows from the damaged file, as its format names it: an SSTable component gives a {@link
 * CorruptSSTableException}, a commit-log segment a {@link CorruptCommitLogException}, any other
 * file (a manifest, the schema) the base class. Stateless.
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
    if (file != null && file.getFileName() != null && SSTableDescriptor.generationOf(file) >= 0) {
      return new CorruptSSTableException(context + ": " + e.getMessage(), file, e.offset(), e);
    }
    if (CommitLog.isSegmentFile(file)) {
      // only replay reads the log, when the database opens: say how to open it anyway
      return new CorruptCommitLogException(
          "the commit log is damaged before its tail: "
              + e.getMessage()
              + ". Open with skipCorruptCommitLogRecords(true) to skip damaged records (their"
              + " writes are lost)",
          file,
          e.offset(),
          e);
    }
    return new CorruptDataException(context + ": " + e.getMessage(), file, e.offset(), e);
  }
}
