package dev.talus.sstable;

import dev.talus.io.CorruptFileException;
import dev.talus.io.ReadableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Random access to the uncompressed Data stream: finds the chunk holding a position, reads it,
 * checks its seeded CRC32C on every read (Cassandra's crc_check_chance = 1.0) and decompresses it,
 * through the shared {@link ChunkCache}. Thread-safe: reads are positional and state is final.
 */
final class ChunkReader {
  private final ReadableFile file;
  private final Path path;
  private final long generation;
  private final CompressionInfo info;
  private final ChunkCodec codec;
  private final ChunkCache cache;
  private final ChunkCache.Slots slots;
  private final ChunkCache.Loader loader = this::load;

  /**
   * Each thread's buffer for the stored bytes of the chunk it loads: they are checked and
   * decompressed (or copied, if stored raw) into a new array and never kept, so one buffer per
   * thread, as large as the largest chunk it read, serves every load.
   */
  private static final ThreadLocal<byte[]> STORED = ThreadLocal.withInitial(() -> new byte[0]);

  /**
   * The largest buffer a thread keeps: a 1 MiB chunk (the largest chunk size) and its checksum. A
   * longer stored chunk can only come from damaged offsets; it gets a buffer of its own.
   */
  private static final int MAX_KEPT = (1 << 20) + 4;

  ChunkReader(
      ReadableFile file,
      Path path,
      long generation,
      CompressionInfo info,
      ChunkCache cache,
      int indexStretches) {
    this.file = file;
    this.path = path;
    this.generation = generation;
    this.info = info;
    this.codec = new ChunkCodec(info.compression());
    this.cache = cache;
    this.slots = cache.register(path.toString(), info.chunkCount(), indexStretches);
  }

  Path path() {
    return path;
  }

  long length() {
    return info.uncompressedLength();
  }

  int chunkSize() {
    return info.chunkSize();
  }

  /** The file offset of the chunk holding {@code position}, for error messages. */
  long fileOffsetOf(long position) {
    int i = (int) Math.min(position / info.chunkSize(), info.chunkCount() - 1L);
    return i < 0 ? 0 : info.offsets()[i];
  }

  byte[] chunk(int index) throws IOException {
    return cache.get(slots, index, loader);
  }

  /** Index stretch {@code i} of the same SSTable, through the cache, loaded by {@code loader}. */
  IndexStretch indexStretch(int i, ChunkCache.IndexLoader loader) throws IOException {
    return cache.getIndex(slots, i, loader);
  }

  /** The heap of this reader's cache slots (see {@link ChunkCache.Slots}). */
  long slotHeapBytes() {
    return slots.heapBytes();
  }

  void invalidateCache() {
    cache.invalidate(slots);
  }

  private byte[] load(int index) throws IOException {
    long[] offsets = info.offsets();
    long start = offsets[index];
    int stored = (int) (offsets[index + 1] - start);
    if (stored < 4) {
      throw new CorruptFileException(path, start, "chunk " + index + " shorter than its checksum");
    }
    byte[] b = STORED.get();
    if (b.length < stored) {
      b = new byte[stored];
      if (stored <= MAX_KEPT) {
        STORED.set(b);
      }
    }
    ByteBuffer buf = ByteBuffer.wrap(b, 0, stored);
    while (buf.hasRemaining()) {
      if (file.read(buf, start + buf.position()) <= 0) {
        throw new CorruptFileException(
            path, start + buf.position(), "unexpected end of file in chunk " + index);
      }
    }
    int len = stored - 4;
    int storedCrc = ByteBuffer.wrap(b, len, 4).getInt();
    if (storedCrc != DataChunkWriter.chunkChecksum(generation, start, b, 0, len)) {
      throw new CorruptFileException(path, start, "checksum mismatch in chunk " + index);
    }
    long uncompressedStart = (long) index * info.chunkSize();
    int expected = (int) Math.min(info.chunkSize(), info.uncompressedLength() - uncompressedStart);
    if (len > expected) {
      throw new CorruptFileException(path, start, "chunk " + index + " longer than a chunk");
    }
    byte[] out = codec.decompress(b, 0, len, expected);
    if (out == null) {
      throw new CorruptFileException(path, start, "chunk " + index + " does not decompress");
    }
    return out;
  }
}
