package dev.talus.io;

import java.io.Closeable;
import java.io.IOException;

/** A held directory lock; {@link #close} releases it and is idempotent. */
public interface FileLockHandle extends Closeable {
  @Override
  void close() throws IOException;
}
