package dev.talus;

import java.nio.file.Path;

/**
 * A commit-log record before the tail failed its checksum: real corruption, not a torn write from a
 * crash. Open fails unless the options ask to skip corrupt records.
 */
public class CorruptCommitLogException extends CorruptDataException {
  private static final long serialVersionUID = 1L;

  public CorruptCommitLogException(String message, Path file, long offset, Throwable cause) {
    super(message, file, offset, cause);
  }
}
