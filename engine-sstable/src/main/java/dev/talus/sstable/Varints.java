package dev.talus.sstable;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Unsigned LEB128 integers: seven bits per byte, least significant group first, the high bit set on
 * every byte but the last. At most five bytes for an int. Stateless.
 */
final class Varints {
  private Varints() {}

  static void write(DataOutput out, int v) throws IOException {
    if (v < 0) {
      throw new IllegalArgumentException("negative varint " + v);
    }
    while ((v & ~0x7F) != 0) {
      out.writeByte((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out.writeByte(v);
  }

  static int read(DataInput in) throws IOException {
    int v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      int b = in.readUnsignedByte();
      v |= (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        if (v < 0) {
          throw new IOException("varint out of range");
        }
        return v;
      }
    }
    throw new IOException("varint longer than five bytes");
  }

  static int read(ByteBuffer in) throws IOException {
    int v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (!in.hasRemaining()) {
        throw new IOException("varint runs past its block");
      }
      int b = in.get() & 0xFF;
      v |= (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        if (v < 0) {
          throw new IOException("varint out of range");
        }
        return v;
      }
    }
    throw new IOException("varint longer than five bytes");
  }
}
