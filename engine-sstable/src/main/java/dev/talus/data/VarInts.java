package dev.talus.data;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;

/** LEB128 varints (zig-zag for signed values). Stateless and thread-safe. */
public final class VarInts {
  private VarInts() {}

  public static void writeUnsigned(DataOutput out, long v) throws IOException {
    while ((v & ~0x7FL) != 0) {
      out.writeByte((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.writeByte((int) v);
  }

  /** {@link #writeUnsigned} into a buffer, at its position. */
  public static void putUnsigned(ByteBuffer out, long v) {
    while ((v & ~0x7FL) != 0) {
      out.put((byte) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.put((byte) v);
  }

  public static long readUnsigned(DataInput in) throws IOException {
    if (in instanceof VarIntInput fast) {
      return fast.readUnsignedVarInt();
    }
    return readUnsignedBytewise(in);
  }

  /** The byte-by-byte decode every {@link VarIntInput} must agree with. */
  public static long readUnsignedBytewise(DataInput in) throws IOException {
    long v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = in.readUnsignedByte();
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new IOException("malformed varint: more than 10 bytes");
  }

  public static void writeSigned(DataOutput out, long v) throws IOException {
    writeUnsigned(out, (v << 1) ^ (v >> 63));
  }

  public static long readSigned(DataInput in) throws IOException {
    return zigZagDecode(readUnsigned(in));
  }

  /** The signed value of an unsigned varint {@link #writeSigned} wrote. */
  public static long zigZagDecode(long u) {
    return (u >>> 1) ^ -(u & 1);
  }

  /** Reads a non-negative int length, rejecting values above {@code max} before allocating. */
  public static int readLength(DataInput in, int max) throws IOException {
    return checkLength(readUnsigned(in), max);
  }

  /** {@code v} as a length, refused as {@link #readLength} refuses it when above {@code max}. */
  public static int checkLength(long v, int max) throws IOException {
    if (v < 0 || v > max) { // v < 0: above 2^63 - 1 unsigned
      throw new IOException("length " + Long.toUnsignedString(v) + " exceeds limit " + max);
    }
    return (int) v;
  }

  public static int sizeOfUnsigned(long v) {
    int n = 1;
    while ((v & ~0x7FL) != 0) {
      n++;
      v >>>= 7;
    }
    return n;
  }
}
