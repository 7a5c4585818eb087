package dev.talus.testfs;

import dev.talus.io.ReadableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A readable handle of {@link FaultInjectingFs}: every read fails while the whole file system is
 * failed ({@link FaultInjectingFs#failEverything}). Thread-safe like the handle it wraps.
 */
final class CheckedReadableFile implements ReadableFile {
  private final FaultInjectingFs fs;
  private final Path file;
  private final ReadableFile delegate;

  CheckedReadableFile(FaultInjectingFs fs, Path file, ReadableFile delegate) {
    this.fs = fs;
    this.file = file;
    this.delegate = delegate;
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    fs.checkAlive("read " + file);
    return delegate.read(dst, position);
  }

  @Override
  public long size() throws IOException {
    return delegate.size();
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
