package dev.talus.tools;

/**
 * A command-line error with the message to print and the exit status to return. Thrown by commands
 * for errors the user can fix (missing directory, unknown table, bad key value).
 */
final class CliException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int exitCode;

  CliException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  int exitCode() {
    return exitCode;
  }
}
