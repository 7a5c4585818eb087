package dev.talus.codec;

import java.io.ByteArrayOutputStream;

/**
 * Helpers for the byte layouts shared by the codecs: big-endian fixed-width integers, escaped byte
 * strings, unsigned varints and bounds-checked reads.
 *
 * <p>Stateless and thread-safe.
 */
final class KeyBytes {
  /** In an escaped byte string, 0x00 starts a pair: 0x00 0xFF is a zero byte, 0x00 0x00 the end. */
  private static final int ESCAPE = 0x00;

  private static final int ESCAPED_ZERO = 0xFF;
  private static final int TERMINATOR = 0x00;

  private KeyBytes() {}

  static void writeLong(ByteArrayOutputStream out, long v, int width) {
    for (int shift = (width - 1) * 8; shift >= 0; shift -= 8) {
      out.write((int) (v >>> shift));
    }
  }

  static long readLong(byte[] src, int[] pos, int width) {
    require(src, pos, width);
    long v = 0;
    int p = pos[0];
    for (int i = 0; i < width; i++) {
      v = (v << 8) | (src[p + i] & 0xFF);
    }
    pos[0] = p + width;
    return v;
  }

  static int readByte(byte[] src, int[] pos) {
    require(src, pos, 1);
    return src[pos[0]++] & 0xFF;
  }

  static byte[] readBytes(byte[] src, int[] pos, int length) {
    require(src, pos, length);
    byte[] b = new byte[length];
    System.arraycopy(src, pos[0], b, 0, length);
    pos[0] += length;
    return b;
  }

  static void require(byte[] src, int[] pos, int length) {
    int p = pos[0];
    if (length < 0 || p < 0 || p > src.length || src.length - p < length) {
      throw new IllegalArgumentException(
          "Truncated key: need " + length + " bytes at offset " + p + " of " + src.length);
    }
  }

  /**
   * Writes bytes so that the result sorts like the unsigned bytes and is self-delimiting: every
   * 0x00 becomes 0x00 0xFF and the string ends with 0x00 0x00, which sorts before any continuation.
   */
  static void writeEscaped(ByteArrayOutputStream out, byte[] bytes) {
    int start = 0;
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == ESCAPE) {
        out.write(bytes, start, i - start + 1);
        out.write(ESCAPED_ZERO);
        start = i + 1;
      }
    }
    out.write(bytes, start, bytes.length - start);
    out.write(ESCAPE);
    out.write(TERMINATOR);
  }

  static byte[] readEscaped(byte[] src, int[] pos) {
    int p = pos[0];
    require(src, pos, 0);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int start = p;
    while (true) {
      if (p >= src.length) {
        throw new IllegalArgumentException("Unterminated string in key at offset " + pos[0]);
      }
      if (src[p] != ESCAPE) {
        p++;
        continue;
      }
      if (p + 1 >= src.length) {
        throw new IllegalArgumentException("Unterminated string in key at offset " + pos[0]);
      }
      int next = src[p + 1] & 0xFF;
      if (next == TERMINATOR) {
        out.write(src, start, p - start);
        pos[0] = p + 2;
        return out.toByteArray();
      }
      if (next != ESCAPED_ZERO) {
        throw new IllegalArgumentException("Bad escape 0x00 0x" + Integer.toHexString(next));
      }
      out.write(src, start, p - start + 1);
      p += 2;
      start = p;
    }
  }

  /** Writes a signed value as a zig-zag LEB128 varint: small magnitudes take few bytes. */
  static void writeSignedVarint(ByteArrayOutputStream out, long v) {
    long z = (v << 1) ^ (v >> 63);
    while ((z & ~0x7FL) != 0) {
      out.write((int) ((z & 0x7F) | 0x80));
      z >>>= 7;
    }
    out.write((int) z);
  }

  static long readSignedVarint(byte[] src, int[] pos) {
    long z = 0;
    for (int shift = 0; ; shift += 7) {
      if (shift > 63) {
        throw new IllegalArgumentException("Varint longer than 10 bytes");
      }
      int b = readByte(src, pos);
      z |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return (z >>> 1) ^ -(z & 1);
      }
    }
  }

  /** Writes an unsigned LEB128 varint (lengths and counts inside composite values). */
  static void writeUnsignedVarint(ByteArrayOutputStream out, long v) {
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }

  /** Reads an unsigned varint that must fit a non-negative int no larger than the bytes left. */
  static int readLength(byte[] src, int[] pos) {
    return readLength(src, pos, 0);
  }

  /** Like {@link #readLength(byte[], int[])} for a length stored plus {@code bias}. */
  static int readLength(byte[] src, int[] pos, int bias) {
    long v = 0;
    for (int shift = 0; ; shift += 7) {
      if (shift > 35) {
        throw new IllegalArgumentException("Length varint too long");
      }
      int b = readByte(src, pos);
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        break;
      }
    }
    if (v - bias > src.length - pos[0]) {
      throw new IllegalArgumentException(
          "Length " + (v - bias) + " exceeds the " + (src.length - pos[0]) + " bytes left");
    }
    return (int) v;
  }

  static String hex(byte[] bytes) {
    StringBuilder sb = new StringBuilder(2 + 2 * bytes.length).append("0x");
    for (byte b : bytes) {
      sb.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
    }
    return sb.toString();
  }
}
