package dev.talus;

import java.nio.file.Path;

/**
 * Stored data failed a checksum or format check. Names the file and the byte offset. Talus never
 * returns rows from data that failed a check.
 */
public class CorruptDataException extends TalusException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final long offset;

  public CorruptDataException(String message, Path file, long offset, Throwable cause) {
    super(message, cause);
    this.file = file;
    this.offset = offset;
  }

  /** The damaged file. */
  public Path file() {
    return file;
  }

  /** The byte offset in {@link #file()} of the damaged record or block. */
  public long offset() {
    return offset;
  }
}
