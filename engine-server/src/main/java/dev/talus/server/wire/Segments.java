package dev.talus.server.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.List;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * The framing of protocol v5 once a connection is started: frames travel inside segments
 * (native_protocol_v5.spec, section 2). A segment is a header, a payload of at most {@link
 * #MAX_PAYLOAD} bytes and the payload's {@link Crc#crc32 CRC32} (4 bytes, little-endian).
 *
 * <ul>
 *   <li>Uncompressed header (6 bytes): 3 bytes little-endian holding the payload length (17 bits)
 *       and the self-contained flag (bit 17), then their {@link Crc#crc24 CRC24} (3 bytes,
 *       little-endian).
 *   <li>LZ4 header (8 bytes): 5 bytes little-endian holding the compressed length (17 bits), the
 *       uncompressed length (17 bits; 0 when the payload went uncompressed because compression did
 *       not make it smaller) and the self-contained flag (bit 34), then their CRC24. The payload is
 *       a raw LZ4 block; its CRC32 is of the bytes as sent.
 * </ul>
 *
 * <p>A self-contained segment holds one or more whole frames; a frame longer than a payload is cut
 * into segments that are not self-contained, sent one after the other. A segment that breaks these
 * rules (a CRC mismatch, a frame cut inside a self-contained segment, a large frame over the limit)
 * raises a {@link FrameDecoder.FrameException}: the connection cannot be trusted any more. One
 * instance per connection and direction; not thread-safe.
 */
public final class Segments {
  /** The largest payload of a segment: 128 KiB - 1. */
  public static final int MAX_PAYLOAD = (1 << 17) - 1;

  private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
  private static final LZ4SafeDecompressor DECOMPRESSOR =
      LZ4Factory.fastestInstance().safeDecompressor();

  private final boolean lz4;
  private final int maxFrameBytes;
  private ByteBuf large; // the frame being put together from segments that are not self-contained

  /**
   * Segments of a connection.
   *
   * @param lz4 true if the connection negotiated LZ4
   * @param maxFrameBytes the largest frame body accepted
   */
  public Segments(boolean lz4, int maxFrameBytes) {
    this.lz4 = lz4;
    this.maxFrameBytes = maxFrameBytes;
  }

  private int headerLength() {
    return lz4 ? 8 : 6;
  }

  /** {@code frame} (a whole frame, header included) as segments; {@code frame} is released. */
  public ByteBuf encode(ByteBufAllocator alloc, ByteBuf frame) {
    try {
      int total = frame.readableBytes();
      ByteBuf out = alloc.buffer(total + headerLength() + 4);
      boolean selfContained = total <= MAX_PAYLOAD;
      do {
        int n = Math.min(MAX_PAYLOAD, frame.readableBytes());
        writeSegment(out, frame.readSlice(n), selfContained);
      } while (frame.isReadable());
      return out;
    } finally {
      frame.release();
    }
  }

  private void writeSegment(ByteBuf out, ByteBuf payload, boolean selfContained) {
    int length = payload.readableBytes();
    byte[] packed = null;
    if (lz4) {
      byte[] raw = new byte[length];
      payload.getBytes(payload.readerIndex(), raw);
      byte[] buf = new byte[COMPRESSOR.maxCompressedLength(length)];
      int n = COMPRESSOR.compress(raw, 0, length, buf, 0, buf.length);
      if (n < length) {
        packed = java.util.Arrays.copyOf(buf, n);
      }
    }
    long header;
    int headerBytes;
    if (lz4) {
      long compressed = packed != null ? packed.length : length;
      long uncompressed = packed != null ? length : 0;
      header = compressed | (uncompressed << 17) | (selfContained ? 1L << 34 : 0);
      headerBytes = 5;
    } else {
      header = length | (selfContained ? 1L << 17 : 0);
      headerBytes = 3;
    }
    writeLittleEndian(out, header, headerBytes);
    writeLittleEndian(out, Crc.crc24(header, headerBytes), 3);
    int start = out.writerIndex();
    if (packed != null) {
      out.writeBytes(packed);
    } else {
      out.writeBytes(payload, payload.readerIndex(), length);
    }
    writeLittleEndian(out, Crc.crc32(out, start, out.writerIndex() - start) & 0xFFFFFFFFL, 4);
  }

  private static void writeLittleEndian(ByteBuf out, long value, int bytes) {
    for (int i = 0; i < bytes; i++) {
      out.writeByte((int) (value >>> (8 * i)));
    }
  }

  private static long readLittleEndian(ByteBuf in, int at, int bytes) {
    long v = 0;
    for (int i = 0; i < bytes; i++) {
      v |= (long) in.getUnsignedByte(at + i) << (8 * i);
    }
    return v;
  }

  /**
   * Decodes one segment of {@code in} if it is all there, adding the frames it completes to {@code
   * out}.
   *
   * @return false if {@code in} does not hold a whole segment yet (nothing was read)
   * @throws FrameDecoder.FrameException for a segment that breaks the protocol
   */
  public boolean decode(ByteBufAllocator alloc, ByteBuf in, List<Object> out, int version) {
    int headerBytes = lz4 ? 5 : 3;
    if (in.readableBytes() < headerLength()) {
      return false;
    }
    int at = in.readerIndex();
    long header = readLittleEndian(in, at, headerBytes);
    int crc24 = (int) readLittleEndian(in, at + headerBytes, 3);
    if (Crc.crc24(header, headerBytes) != crc24) {
      throw new FrameDecoder.FrameException("CRC mismatch on the header of a segment", 0, version);
    }
    int length = (int) (header & MAX_PAYLOAD);
    int uncompressed = lz4 ? (int) ((header >>> 17) & MAX_PAYLOAD) : 0;
    boolean selfContained = ((header >>> (lz4 ? 34 : 17)) & 1) != 0;
    if (in.readableBytes() < headerLength() + length + 4) {
      return false;
    }
    int payloadAt = at + headerLength();
    int crc32 = (int) readLittleEndian(in, payloadAt + length, 4);
    if (Crc.crc32(in, payloadAt, length) != crc32) {
      throw new FrameDecoder.FrameException("CRC mismatch on the payload of a segment", 0, version);
    }
    ByteBuf payload = uncompressed == 0 ? in.retainedSlice(payloadAt, length) : null;
    if (payload == null) {
      payload = decompress(alloc, in, payloadAt, length, uncompressed, version);
    }
    in.skipBytes(headerLength() + length + 4);
    try {
      if (selfContained) {
        selfContained(payload, out, version);
      } else {
        part(alloc, payload, out, version);
      }
    } finally {
      payload.release();
    }
    return true;
  }

  private static ByteBuf decompress(
      ByteBufAllocator alloc, ByteBuf in, int at, int length, int uncompressed, int version) {
    byte[] src = new byte[length];
    in.getBytes(at, src);
    byte[] dst = new byte[uncompressed];
    try {
      if (DECOMPRESSOR.decompress(src, 0, length, dst, 0, uncompressed) == uncompressed) {
        return alloc.buffer(uncompressed).writeBytes(dst);
      }
    } catch (LZ4Exception e) {
      // answered below
    }
    throw new FrameDecoder.FrameException(
        "the payload of a segment is not the LZ4 block its header announces", 0, version);
  }

  private void selfContained(ByteBuf payload, List<Object> out, int version) {
    if (large != null) {
      throw new FrameDecoder.FrameException(
          "a self-contained segment arrived before the end of a frame cut into segments",
          0,
          version);
    }
    while (payload.isReadable()) {
      Frame f = FrameDecoder.readFrame(payload, maxFrameBytes, version);
      if (f == null) {
        throw new FrameDecoder.FrameException(
            "a self-contained segment ends inside a frame", 0, version);
      }
      out.add(f);
    }
  }

  private void part(ByteBufAllocator alloc, ByteBuf payload, List<Object> out, int version) {
    if (large == null) {
      large = alloc.buffer();
    }
    large.writeBytes(payload);
    Frame f;
    try {
      f = FrameDecoder.readFrame(large, maxFrameBytes, version);
    } catch (RuntimeException e) {
      release();
      throw e;
    }
    if (f == null) {
      return;
    }
    boolean extra = large.isReadable();
    release();
    if (extra) {
      f.body().release();
      throw new FrameDecoder.FrameException(
          "the segments of a large frame hold bytes after its end", f.stream(), version);
    }
    out.add(f);
  }

  /** Releases the frame being put together, if any. */
  public void release() {
    if (large != null) {
      large.release();
      large = null;
    }
  }
}
