package dev.talus;

/**
 * A write was refused before anything was stored: it is too large, or memtable space stayed
 * exhausted past the configured wait. Retrying later may succeed; nothing was written.
 */
public class WriteRejectedException extends TalusException {
  private static final long serialVersionUID = 1L;

  public WriteRejectedException(String message) {
    super(message);
  }
}
