package dev.talus.server.wire;

import io.netty.buffer.ByteBuf;
import java.util.zip.CRC32;

/**
 * The two checksums of protocol v5 segments: a CRC24 over the segment header and a CRC32 over its
 * payload. Their parameters are the protocol's (native_protocol_v5.spec, section 2; Cassandra's
 * {@code org.apache.cassandra.net.Crc}): the CRC24 starts at {@code 0x875060} with polynomial
 * {@code 0x1974F0B} and takes the header's bytes least significant first; the CRC32 is the standard
 * one, primed with the four bytes {@code FA 2D 55 CA} before the payload. Stateless.
 */
public final class Crc {
  private static final int CRC24_INIT = 0x875060;
  private static final int CRC24_POLY = 0x1974F0B;
  private static final byte[] CRC32_PRIMER = {(byte) 0xFA, (byte) 0x2D, (byte) 0x55, (byte) 0xCA};

  private Crc() {}

  /** The CRC24 of the {@code bytes} low bytes of {@code value}, least significant first. */
  public static int crc24(long value, int bytes) {
    int crc = CRC24_INIT;
    long v = value;
    for (int i = 0; i < bytes; i++) {
      crc ^= (int) (v & 0xFF) << 16;
      v >>>= 8;
      for (int bit = 0; bit < 8; bit++) {
        crc <<= 1;
        if ((crc & 0x1000000) != 0) {
          crc ^= CRC24_POLY;
        }
      }
    }
    return crc & 0xFFFFFF;
  }

  /**
   * The CRC32 of {@code length} bytes of {@code buf} from {@code index} (the reader index stays).
   */
  public static int crc32(ByteBuf buf, int index, int length) {
    CRC32 crc = new CRC32();
    crc.update(CRC32_PRIMER);
    crc.update(buf.nioBuffer(index, length));
    return (int) crc.getValue();
  }
}
