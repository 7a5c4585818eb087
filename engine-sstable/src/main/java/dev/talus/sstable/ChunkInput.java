package dev.talus.sstable;

import dev.talus.io.CorruptFileException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * A sequential view of the uncompressed Data stream from any position, holding one decompressed
 * chunk at a time. Reading past the end of the stream is corruption (a length or offset pointed
 * outside the data). Not thread-safe; cheap to create per read.
 */
final class ChunkInput extends InputStream {
  private final ChunkReader reader;
  private long position;
  private byte[] chunk;
  private long chunkStart = -1;

  ChunkInput(ChunkReader reader, long position) {
    this.reader = reader;
    this.position = position;
  }

  long position() {
    return position;
  }

  void seek(long position) {
    this.position = position;
  }

  private int ensure() throws IOException {
    if (position >= reader.length()) {
      throw new CorruptFileException(
          reader.path(),
          reader.fileOffsetOf(position),
          "read past the end of the data at uncompressed position " + position);
    }
    long cs = (position / reader.chunkSize()) * reader.chunkSize();
    if (cs != chunkStart) {
      try {
        chunk = reader.chunk((int) (position / reader.chunkSize()));
      } catch (IOException e) {
        // Real I/O failures travel unchecked so decoders can treat every IOException they see
        // as a format error, i.e. corruption.
        throw new UncheckedIOException(e);
      }
      chunkStart = cs;
    }
    return (int) (position - chunkStart);
  }

  @Override
  public int read() throws IOException {
    int i = ensure();
    position++;
    return chunk[i] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    int i = ensure();
    int n = Math.min(len, chunk.length - i);
    System.arraycopy(chunk, i, b, off, n);
    position += n;
    return n;
  }

  /** A corruption error at the current position, for decode failures. */
  CorruptFileException corrupt(String message, Throwable cause) {
    return new CorruptFileException(
        reader.path(),
        reader.fileOffsetOf(position),
        message + " (data position " + position + ")",
        cause);
  }
}
