package dev.talus;

import java.nio.file.Path;

/** An SSTable component failed a checksum or format check (see {@link CorruptDataException}). */
public class CorruptSSTableException extends CorruptDataException {
  private static final long serialVersionUID = 1L;

  public CorruptSSTableException(String message, Path file, long offset, Throwable cause) {
    super(message, file, offset, cause);
  }
}
