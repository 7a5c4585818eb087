package dev.talus;

/**
 * The database (or a table of it) was used after {@link TalusDb#close()}. Reopen the directory with
 * {@link TalusDb#open} to use it again.
 */
public class TalusClosedException extends TalusException {
  private static final long serialVersionUID = 1L;

  public TalusClosedException(String message) {
    super(message);
  }
}
