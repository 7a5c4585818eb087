package dev.talus.sstable;

import com.github.luben.zstd.Zstd;
import dev.talus.sstable.SSTableOptions.Compression;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * Compresses and decompresses single chunks. A chunk that does not shrink is stored raw, and the
 * reader recognises it because its stored length equals its uncompressed length (a compressed chunk
 * is always strictly shorter), as Cassandra does. Thread-safe: the lz4 and zstd entry points used
 * are stateless.
 */
final class ChunkCodec {
  private static final int ZSTD_LEVEL = 3;

  private final Compression compression;
  private final LZ4Compressor lz4;
  private final LZ4SafeDecompressor lz4d;

  ChunkCodec(Compression compression) {
    this.compression = compression;
    if (compression == Compression.LZ4) {
      LZ4Factory f = LZ4Factory.fastestInstance();
      this.lz4 = f.fastCompressor();
      this.lz4d = f.safeDecompressor();
    } else {
      this.lz4 = null;
      this.lz4d = null;
    }
  }

  Compression compression() {
    return compression;
  }

  int maxCompressedLength(int len) {
    return switch (compression) {
      case LZ4 -> lz4.maxCompressedLength(len);
      case ZSTD -> (int) Zstd.compressBound(len);
      case NONE -> len;
    };
  }

  /**
   * Compresses {@code src[0, len)} into {@code dst}; returns the stored length, or -1 if the chunk
   * should be stored raw.
   */
  int compress(byte[] src, int len, byte[] dst) {
    int n =
        switch (compression) {
          case LZ4 -> lz4.compress(src, 0, len, dst, 0, dst.length);
          case ZSTD -> {
            long r = Zstd.compressByteArray(dst, 0, dst.length, src, 0, len, ZSTD_LEVEL);
            if (Zstd.isError(r)) {
              throw new IllegalStateException("zstd compression failed: " + Zstd.getErrorName(r));
            }
            yield (int) r;
          }
          case NONE -> -1;
        };
    return n >= 0 && n < len ? n : -1;
  }

  /**
   * Decompresses exactly {@code uncompressedLength} bytes; returns null if the input does not
   * decompress to that length (the caller reports corruption).
   */
  byte[] decompress(byte[] src, int off, int len, int uncompressedLength) {
    byte[] out = new byte[uncompressedLength];
    if (len == uncompressedLength) {
      System.arraycopy(src, off, out, 0, len);
      return out;
    }
    try {
      int n =
          switch (compression) {
            case LZ4 -> lz4d.decompress(src, off, len, out, 0, uncompressedLength);
            case ZSTD -> {
              long r = Zstd.decompressByteArray(out, 0, uncompressedLength, src, off, len);
              yield Zstd.isError(r) ? -1 : (int) r;
            }
            case NONE -> -1;
          };
      return n == uncompressedLength ? out : null;
    } catch (RuntimeException e) {
      return null;
    }
  }
}
