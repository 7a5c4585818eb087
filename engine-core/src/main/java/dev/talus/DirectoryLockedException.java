package dev.talus;

/**
 * The data directory is already open, in this JVM or in another process. Nothing in it was touched.
 * Close the other instance, or open a different directory.
 */
public class DirectoryLockedException extends TalusException {
  private static final long serialVersionUID = 1L;

  public DirectoryLockedException(String message, Throwable cause) {
    super(message, cause);
  }
}
