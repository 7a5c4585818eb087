package dev.talus.sstable;

import dev.talus.io.FileFormat;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * The logical (uncompressed) byte stream of the Data component, cut into fixed-size chunks that are
 * compressed and written each followed by its CRC32C. The checksum is seeded with the generation
 * and the chunk's file offset, so a chunk copied to the wrong place or the wrong file fails its
 * check like random damage (RocksDB format_version 6 does the same with block context). Not
 * thread-safe.
 */
final class DataChunkWriter extends OutputStream {
  private final ComponentOutput out;
  private final ChunkCodec codec;
  private final long generation;
  private final byte[] chunk;
  private final byte[] compressed;
  private int fill;
  private long uncompressedLength;
  private long[] offsets = new long[64];
  private int chunkCount;

  DataChunkWriter(ComponentOutput out, ChunkCodec codec, int chunkSize, long generation) {
    this.out = out;
    this.codec = codec;
    this.generation = generation;
    this.chunk = new byte[chunkSize];
    this.compressed = new byte[Math.max(codec.maxCompressedLength(chunkSize), chunkSize)];
  }

  /** Position in the uncompressed stream. */
  long position() {
    return uncompressedLength + fill;
  }

  @Override
  public void write(int b) throws IOException {
    if (fill == chunk.length) {
      flushChunk();
    }
    chunk[fill++] = (byte) b;
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    while (len > 0) {
      if (fill == chunk.length) {
        flushChunk();
      }
      int n = Math.min(len, chunk.length - fill);
      System.arraycopy(b, off, chunk, fill, n);
      fill += n;
      off += n;
      len -= n;
    }
  }

  private void flushChunk() throws IOException {
    if (fill == 0) {
      return;
    }
    if (chunkCount + 1 >= offsets.length) {
      offsets = Arrays.copyOf(offsets, offsets.length * 2);
    }
    long at = out.position();
    offsets[chunkCount++] = at;
    int n = codec.compress(chunk, fill, compressed);
    byte[] src = n < 0 ? chunk : compressed;
    int len = n < 0 ? fill : n;
    out.write(src, 0, len);
    out.writeIntRaw(chunkChecksum(generation, at, src, 0, len));
    uncompressedLength += fill;
    fill = 0;
  }

  static int chunkChecksum(long generation, long fileOffset, byte[] b, int off, int len) {
    return FileFormat.seededCrc32c(generation, fileOffset, b, off, len);
  }

  /** Writes the last partial chunk; returns chunk offsets plus the end offset as the last entry. */
  long[] finish() throws IOException {
    flushChunk();
    long[] r = Arrays.copyOf(offsets, chunkCount + 1);
    r[chunkCount] = out.position();
    return r;
  }

  long uncompressedLength() {
    return uncompressedLength + fill;
  }
}
