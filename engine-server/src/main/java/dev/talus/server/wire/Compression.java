package dev.talus.server.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.util.Locale;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.xerial.snappy.Snappy;

/**
 * The v4 body compressions a client may ask for in {@code STARTUP}: {@code lz4} (the uncompressed
 * length as a 4-byte big-endian int, then an LZ4 block) and {@code snappy} (one Snappy block).
 * Decompression checks the claimed length against the frame limit and throws {@link
 * ProtocolException} for a body that does not decompress. Thread-safe.
 */
public enum Compression {
  LZ4 {
    private final LZ4Compressor compressor = LZ4Factory.fastestInstance().fastCompressor();
    private final LZ4SafeDecompressor decompressor =
        LZ4Factory.fastestInstance().safeDecompressor();

    @Override
    byte[] compress(byte[] in) {
      byte[] out = new byte[4 + compressor.maxCompressedLength(in.length)];
      int n = compressor.compress(in, 0, in.length, out, 4, out.length - 4);
      out[0] = (byte) (in.length >>> 24);
      out[1] = (byte) (in.length >>> 16);
      out[2] = (byte) (in.length >>> 8);
      out[3] = (byte) in.length;
      return java.util.Arrays.copyOf(out, 4 + n);
    }

    @Override
    byte[] decompress(byte[] in, int maxBytes) {
      if (in.length < 4) {
        throw new ProtocolException("an LZ4 body shorter than its length");
      }
      int length =
          ((in[0] & 0xFF) << 24) | ((in[1] & 0xFF) << 16) | ((in[2] & 0xFF) << 8) | (in[3] & 0xFF);
      checkLength(length, maxBytes);
      byte[] out = new byte[length];
      try {
        int n = decompressor.decompress(in, 4, in.length - 4, out, 0, length);
        if (n != length) {
          throw new ProtocolException("an LZ4 body of " + n + " bytes, not " + length);
        }
      } catch (LZ4Exception e) {
        throw new ProtocolException("a body that is not LZ4: " + e.getMessage());
      }
      return out;
    }
  },
  SNAPPY {
    @Override
    byte[] compress(byte[] in) {
      try {
        return Snappy.compress(in);
      } catch (IOException e) {
        throw new IllegalStateException("Snappy failed", e);
      }
    }

    @Override
    byte[] decompress(byte[] in, int maxBytes) {
      try {
        if (!Snappy.isValidCompressedBuffer(in)) {
          throw new ProtocolException("a body that is not Snappy");
        }
        checkLength(Snappy.uncompressedLength(in), maxBytes);
        return Snappy.uncompress(in);
      } catch (IOException e) {
        throw new ProtocolException("a body that is not Snappy: " + e.getMessage());
      }
    }
  };

  abstract byte[] compress(byte[] in);

  abstract byte[] decompress(byte[] in, int maxBytes);

  private static void checkLength(int length, int maxBytes) {
    if (length < 0 || length > maxBytes) {
      throw new ProtocolException(
          "a compressed body of " + length + " bytes, over the limit of " + maxBytes);
    }
  }

  /** The compression named in {@code STARTUP}, or null if there is none by that name. */
  public static Compression named(String name) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "lz4" -> LZ4;
      case "snappy" -> SNAPPY;
      default -> null;
    };
  }

  /** The names advertised in {@code SUPPORTED}. */
  public static java.util.List<String> names() {
    return java.util.List.of("lz4", "snappy");
  }

  /** The decompressed body of a compressed request (the caller releases {@code body}). */
  public ByteBuf decompress(ByteBufAllocator alloc, ByteBuf body, int maxBytes) {
    byte[] in = new byte[body.readableBytes()];
    body.readBytes(in);
    return alloc.buffer().writeBytes(decompress(in, maxBytes));
  }

  /**
   * {@code frame} (a whole response frame) with its body compressed and the flag set; {@code frame}
   * is released. A frame with an empty body is left as it is, as Cassandra does.
   */
  public ByteBuf compressFrame(ByteBufAllocator alloc, ByteBuf frame) {
    int length = frame.readableBytes() - Frame.HEADER_SIZE;
    if (length <= 0) {
      return frame;
    }
    try {
      byte[] body = new byte[length];
      frame.getBytes(frame.readerIndex() + Frame.HEADER_SIZE, body);
      byte[] packed = compress(body);
      ByteBuf out = alloc.buffer(Frame.HEADER_SIZE + packed.length);
      out.writeBytes(frame, frame.readerIndex(), Frame.HEADER_SIZE);
      out.setByte(1, out.getByte(1) | Frame.FLAG_COMPRESSED);
      out.setInt(5, packed.length);
      out.writeBytes(packed);
      return out;
    } finally {
      frame.release();
    }
  }
}
