package dev.talus;

/**
 * The root of every exception Talus throws. Unchecked: catch it where you can act on it. Each
 * subclass names one kind of failure and its message says what was wrong and what to do.
 */
public class TalusException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public TalusException(String message) {
    super(message);
  }

  public TalusException(String message, Throwable cause) {
    super(message, cause);
  }
}
