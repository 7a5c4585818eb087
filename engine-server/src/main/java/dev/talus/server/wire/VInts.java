package dev.talus.server.wire;

import io.netty.buffer.ByteBuf;

/**
 * Cassandra's variable-length integers (the {@code [vint]} of the protocol, used by {@code
 * duration}): the count of leading 1 bits of the first byte is the count of extra bytes; signed
 * values are zig-zag encoded. Stateless.
 */
final class VInts {
  private VInts() {}

  static void writeSigned(ByteBuf out, long v) {
    writeUnsigned(out, (v << 1) ^ (v >> 63));
  }

  static void writeUnsigned(ByteBuf out, long v) {
    int size = (639 - Long.numberOfLeadingZeros(v | 1) * 9) >> 6;
    int extra = size - 1;
    if (extra == 8) {
      out.writeByte(0xFF);
      out.writeLong(v);
      return;
    }
    for (int i = extra; i >= 0; i--) {
      int b = (int) (v >>> (8 * i)) & 0xFF;
      if (i == extra) {
        b |= (0xFF << (8 - extra)) & 0xFF;
      }
      out.writeByte(b);
    }
  }

  static long readSigned(ByteBuf in) {
    long u = readUnsigned(in);
    return (u >>> 1) ^ -(u & 1);
  }

  static long readUnsigned(ByteBuf in) {
    int first = in.readByte();
    if (first >= 0) {
      return first;
    }
    int extra = Math.min(8, Integer.numberOfLeadingZeros(~first << 24));
    long v = first & (0xFF >> extra);
    for (int i = 0; i < extra; i++) {
      v = (v << 8) | in.readUnsignedByte();
    }
    return v;
  }
}
