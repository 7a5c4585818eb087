package dev.talus.sstable;

import dev.talus.io.CorruptFileException;
import dev.talus.io.FileFormat;
import dev.talus.io.ReadableFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.zip.Checksum;

/**
 * A buffered sequential reader of a whole component file that checksums what it reads, for checking
 * the footer. Running off the end is reported as truncation at that offset. Not thread-safe.
 */
final class ChecksumInput extends InputStream implements FileFormat.FooterInput {
  private final ReadableFile file;
  private final Path path;
  private final long size;
  private final ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
  private final Checksum crc = FileFormat.newChecksum();
  private final Checksum blockCrc = FileFormat.newChecksum();
  private long bufStart;
  private long position;

  ChecksumInput(ReadableFile file, Path path) throws IOException {
    this.file = file;
    this.path = path;
    this.size = file.size();
    buf.limit(0);
  }

  @Override
  public long position() {
    return position;
  }

  @Override
  public long size() {
    return size;
  }

  /** Bytes left before the footer. */
  long remainingBeforeFooter() {
    return size - FileFormat.FOOTER_LENGTH - position;
  }

  @Override
  public long checksum() {
    return crc.getValue();
  }

  /** Starts a separate checksum over the bytes read from here on (index sample blocks). */
  void startBlock() {
    blockCrc.reset();
  }

  int blockChecksum() {
    return (int) blockCrc.getValue();
  }

  Path path() {
    return path;
  }

  private boolean fill() throws IOException {
    bufStart += buf.limit();
    buf.clear();
    if (bufStart >= size) {
      buf.limit(0);
      return false;
    }
    int n = file.read(buf, bufStart);
    buf.flip();
    return n > 0;
  }

  @Override
  public int read() throws IOException {
    if (!buf.hasRemaining() && !fill()) {
      throw new CorruptFileException(path, position, "unexpected end of file (truncated?)");
    }
    int b = buf.get() & 0xFF;
    crc.update(b);
    blockCrc.update(b);
    position++;
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (!buf.hasRemaining() && !fill()) {
      throw new CorruptFileException(path, position, "unexpected end of file (truncated?)");
    }
    int n = Math.min(len, buf.remaining());
    buf.get(b, off, n);
    crc.update(b, off, n);
    blockCrc.update(b, off, n);
    position += n;
    return n;
  }

  @Override
  public int readIntRaw() throws IOException {
    int v = 0;
    for (int i = 0; i < 4; i++) {
      v = (v << 8) | read();
    }
    return v;
  }

  @Override
  public long readLongRaw() throws IOException {
    return ((long) readIntRaw() << 32) | (readIntRaw() & 0xFFFFFFFFL);
  }

  /** Reads and discards {@code n} bytes (still checksummed). */
  void consume(long n) throws IOException {
    byte[] tmp = new byte[8192];
    while (n > 0) {
      n -= read(tmp, 0, (int) Math.min(tmp.length, n));
    }
  }
}
