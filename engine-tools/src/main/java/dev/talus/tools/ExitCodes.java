package dev.talus.tools;

/** The exit statuses of every {@code talus} command. */
final class ExitCodes {
  /** Success; for {@code verify}: every checksum matched. */
  static final int OK = 0;

  /** Any other error: missing or non-Talus directory, unknown table, bad key value, I/O error. */
  static final int ERROR = 1;

  /** Stored data failed a checksum or format check (the file and offset are printed). */
  static final int CORRUPT = 2;

  /** The data directory is open in another process or instance. */
  static final int LOCKED = 3;

  /** The command line itself was wrong (unknown option, missing parameter, bad number). */
  static final int USAGE = 64;

  private ExitCodes() {}
}
