package dev.talus.io;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/** Positional reads of an immutable file. Thread-safe: reads carry their own position. */
public interface ReadableFile extends Closeable {
  /**
   * Reads bytes at {@code position} until {@code dst} is full or the file ends; returns the number
   * read (0 at or past the end).
   */
  int read(ByteBuffer dst, long position) throws IOException;

  long size() throws IOException;
}
