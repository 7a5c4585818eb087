package dev.talus;

/**
 * Talus could not read or write its files (an I/O error, a full disk). The message says which file
 * and what failed. Writes that raised it were not acknowledged.
 */
public class StorageException extends TalusException {
  private static final long serialVersionUID = 1L;

  public StorageException(String message, Throwable cause) {
    super(message, cause);
  }
}
