package dev.talus.io;

import java.nio.file.Path;

/**
 * Stored bytes failed a check (checksum, magic, version, length, truncation). Names the file and
 * the byte offset of the damaged record or block. Internal; the public API maps it to its own
 * exception types.
 */
public class CorruptFileException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final long offset;

  public CorruptFileException(Path file, long offset, String message) {
    this(file, offset, message, null);
  }

  public CorruptFileException(Path file, long offset, String message, Throwable cause) {
    super(file + " at offset " + offset + ": " + message, cause);
    this.file = file;
    this.offset = offset;
  }

  public Path file() {
    return file;
  }

  public long offset() {
    return offset;
  }
}
