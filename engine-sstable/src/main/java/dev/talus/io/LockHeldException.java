package dev.talus.io;

import java.io.IOException;

/** The lock file is held by another process or another open instance in this JVM. */
public final class LockHeldException extends IOException {
  private static final long serialVersionUID = 1L;

  public LockHeldException(String message) {
    super(message);
  }
}
