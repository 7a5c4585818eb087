package dev.talus.sstable;

import dev.talus.io.FileFormat;
import dev.talus.io.WritableFile;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.zip.Checksum;

/**
 * A buffered, checksummed sequential writer of one component file. Tracks the position and the
 * CRC32C of every byte written, which becomes the footer checksum. Not thread-safe.
 */
final class ComponentOutput extends OutputStream implements FileFormat.FooterOutput {
  private final WritableFile file;
  private final ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
  private final Checksum crc = FileFormat.newChecksum();
  private long position;

  ComponentOutput(WritableFile file) {
    this.file = file;
  }

  long position() {
    return position;
  }

  @Override
  public long checksum() {
    return crc.getValue();
  }

  @Override
  public void write(int b) throws IOException {
    if (!buf.hasRemaining()) {
      drain();
    }
    buf.put((byte) b);
    crc.update(b);
    position++;
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    crc.update(b, off, len);
    position += len;
    while (len > 0) {
      if (!buf.hasRemaining()) {
        drain();
      }
      int n = Math.min(len, buf.remaining());
      buf.put(b, off, n);
      off += n;
      len -= n;
    }
  }

  @Override
  public void writeIntRaw(int v) throws IOException {
    write(new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v});
  }

  @Override
  public void writeLongRaw(long v) throws IOException {
    writeIntRaw((int) (v >>> 32));
    writeIntRaw((int) v);
  }

  private void drain() throws IOException {
    buf.flip();
    file.write(buf);
    buf.clear();
  }

  /** Flushes buffered bytes to the file and forces them to storage. */
  void sync() throws IOException {
    drain();
    file.sync();
  }

  @Override
  public void flush() throws IOException {
    drain();
  }

  @Override
  public void close() throws IOException {
    file.close();
  }
}
