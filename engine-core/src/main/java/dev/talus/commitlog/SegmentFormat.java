package dev.talus.commitlog;

import dev.talus.io.FileFormat;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The byte layout of a segment file (all integers big-endian; see {@code docs/durability.md}).
 *
 * <pre>
 * header (24 bytes): int magic 'TCLG' | int version | long segmentId | int CRC32C(bytes 0..16) | int 0
 * then frames, each starting at an 8-byte-aligned offset and padded with zeros to a multiple of 8:
 *   frame header (12 bytes): int a | int b | int CRC32C(segmentId, offset, a, b)
 *   record   (a = payload length >= 0, b = table count):
 *            header | int tableId[b] | payload[a] | int CRC32C(segmentId, offset, header..payload)
 *   sync marker (a = SYNC_MARKER, b = 0): 16 bytes; every frame before this offset is complete
 *   padding     (a = PADDING, b = frame length): written by recovery over a hole; skip b bytes
 * </pre>
 *
 * Every checksum is seeded with the segment id and the frame's own offset, so a frame copied to
 * another place or left over from another file never validates; the checksums are {@link
 * FileFormat}'s, like every file's. Stateless.
 */
final class SegmentFormat {
  static final int MAGIC = 0x54434C47; // "TCLG"
  static final int VERSION = 1;
  static final int HEADER_SIZE = 24;
  static final int FRAME_HEADER_SIZE = 12;
  static final int ALIGN = 8;
  static final int MARKER_SIZE = 16;
  static final int SYNC_MARKER = 0xFFFF_FF01;
  static final int PADDING = 0xFFFF_FF02;
  static final int MAX_TABLES_PER_RECORD = 65_536;

  private static final Pattern NAME = Pattern.compile("CommitLog-(\\d+)-(\\d+)\\.log");

  private SegmentFormat() {}

  static String fileName(long segmentId) {
    return "CommitLog-" + VERSION + "-" + segmentId + ".log";
  }

  /** {version, id} of a segment file name, or null if the name is not a segment's. */
  static long[] parseName(Path file) {
    Matcher m = NAME.matcher(file.getFileName().toString());
    if (!m.matches()) {
      return null;
    }
    try {
      return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
    } catch (NumberFormatException e) {
      return null;
    }
  }

  static int align(long n) {
    return (int) ((n + ALIGN - 1) & -ALIGN);
  }

  static int recordFrameSize(int payloadLength, int tableCount) {
    return align((long) FRAME_HEADER_SIZE + 4L * tableCount + payloadLength + 4);
  }

  static ByteBuffer header(long segmentId) {
    ByteBuffer b = ByteBuffer.allocate(HEADER_SIZE).order(ByteOrder.BIG_ENDIAN);
    b.putInt(MAGIC).putInt(VERSION).putLong(segmentId);
    b.putInt(FileFormat.crc32c(b.array(), 0, 16)).putInt(0);
    return b.flip();
  }

  /** Null if the header is valid for {@code segmentId}, else what is wrong with it. */
  static String checkHeader(ByteBuffer data, long segmentId) {
    if (data.limit() < HEADER_SIZE) {
      return "file is shorter than the " + HEADER_SIZE + "-byte header";
    }
    if (data.getInt(16) != FileFormat.crc32c(data.array(), 0, 16)) {
      return "header checksum mismatch";
    }
    if (data.getInt(0) != MAGIC) {
      return "bad magic " + Integer.toHexString(data.getInt(0));
    }
    if (data.getInt(4) != VERSION) {
      return "unsupported version " + data.getInt(4) + " (this build reads " + VERSION + ")";
    }
    if (data.getLong(8) != segmentId) {
      return "header names segment " + data.getLong(8) + ", file name says " + segmentId;
    }
    return null;
  }

  /**
   * A record frame with its body filled in; {@link #seal} adds the offset-dependent checksums once
   * the offset is known, so nothing that can fail happens between reserving space and writing.
   */
  static byte[] recordFrame(Payload payload, int length, int[] tableIds) {
    byte[] frame = new byte[recordFrameSize(length, tableIds.length)];
    ByteBuffer b = ByteBuffer.wrap(frame);
    b.putInt(length).putInt(tableIds.length).putInt(0);
    for (int id : tableIds) {
      b.putInt(id);
    }
    int start = b.position();
    payload.writeTo(b);
    if (b.position() - start != length) {
      throw new IllegalStateException(
          "a commit log payload wrote " + (b.position() - start) + " bytes, sized " + length);
    }
    return frame;
  }

  static void seal(byte[] frame, long segmentId, long offset) {
    ByteBuffer b = ByteBuffer.wrap(frame);
    b.putInt(8, headerCrc(segmentId, offset, b.getInt(0), b.getInt(4)));
    int dataEnd = FRAME_HEADER_SIZE + 4 * b.getInt(4) + b.getInt(0);
    b.putInt(dataEnd, dataCrc(segmentId, offset, frame, 0, dataEnd));
  }

  static ByteBuffer marker(int type, int value, long segmentId, long offset) {
    ByteBuffer b = ByteBuffer.allocate(MARKER_SIZE);
    b.putInt(type).putInt(value).putInt(headerCrc(segmentId, offset, type, value)).putInt(0);
    return b.flip();
  }

  static int headerCrc(long segmentId, long offset, int a, int b) {
    byte[] ab = new byte[8];
    for (int i = 0; i < 4; i++) {
      ab[i] = (byte) (a >>> (24 - 8 * i));
      ab[4 + i] = (byte) (b >>> (24 - 8 * i));
    }
    return FileFormat.seededCrc32c(segmentId, offset, ab, 0, 8);
  }

  static int dataCrc(long segmentId, long offset, byte[] data, int from, int length) {
    return FileFormat.seededCrc32c(segmentId, offset, data, from, length);
  }
}
