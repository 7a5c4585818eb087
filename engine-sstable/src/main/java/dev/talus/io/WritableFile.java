package dev.talus.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A file being written sequentially. Not thread-safe unless the caller serialises access, except
 * that {@link #sync} may run concurrently with {@link #write} (the commit log relies on it).
 */
public interface WritableFile extends Closeable {
  /** Writes all remaining bytes of {@code src} at the current end of the file. */
  void write(ByteBuffer src) throws IOException;

  /** Writes all remaining bytes of {@code src} at {@code position} (commit log segments). */
  void write(ByteBuffer src, long position) throws IOException;

  /** The current size of the file as written through this handle. */
  long size() throws IOException;

  /** Forces written data (and metadata needed to read it) to stable storage. */
  void sync() throws IOException;

  /** Cuts the file to {@code size} bytes. */
  void truncate(long size) throws IOException;
}
