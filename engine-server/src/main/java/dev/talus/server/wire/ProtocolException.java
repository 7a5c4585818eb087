package dev.talus.server.wire;

/**
 * A request that breaks the native protocol: a malformed frame or body, a message out of order, an
 * unsupported version. Answered with the protocol's {@code Protocol_error} (code {@code 0x000A});
 * when {@link #fatal()} the connection is closed after the answer, since the byte stream can no
 * longer be trusted.
 */
public final class ProtocolException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final boolean fatal;

  /** A problem with one message: the connection stays open. */
  public ProtocolException(String message) {
    this(message, false);
  }

  /**
   * Creates the exception.
   *
   * @param message what is wrong
   * @param fatal true if the connection must be closed after the answer
   */
  public ProtocolException(String message, boolean fatal) {
    super(message);
    this.fatal = fatal;
  }

  /** True if the connection is closed after the error is sent. */
  public boolean fatal() {
    return fatal;
  }
}
