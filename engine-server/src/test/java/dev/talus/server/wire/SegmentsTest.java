package dev.talus.server.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.internal.core.protocol.ByteBufPrimitiveCodec;
import com.datastax.oss.protocol.internal.Compressor;
import com.datastax.oss.protocol.internal.Segment;
import com.datastax.oss.protocol.internal.SegmentCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * v5 segments against an independent implementation: the native-protocol library the Java driver
 * uses (its {@code SegmentCodec} and {@code Crc}). Seeded; the seed is printed and replays with
 * {@code -Dtalus.seed=N}.
 */
class SegmentsTest {
  private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;
  private static final int MAX = 16 * 1024 * 1024;

  private static Random random() {
    long seed = Long.getLong("talus.seed", System.nanoTime());
    System.out.println("SegmentsTest seed: " + seed + " (replay with -Dtalus.seed=" + seed + ")");
    return new Random(seed);
  }

  /** The driver library's LZ4 as its segment codec wants it: raw blocks, lengths outside. */
  private static final class DriverLz4 implements Compressor<ByteBuf> {
    @Override
    public String algorithm() {
      return "lz4";
    }

    @Override
    public ByteBuf compress(ByteBuf in) {
      throw new UnsupportedOperationException("v4 only");
    }

    @Override
    public ByteBuf decompress(ByteBuf in) {
      throw new UnsupportedOperationException("v4 only");
    }

    @Override
    public ByteBuf compressWithoutLength(ByteBuf in) {
      byte[] raw = bytes(in);
      return Unpooled.wrappedBuffer(LZ4Factory.fastestInstance().fastCompressor().compress(raw));
    }

    @Override
    public ByteBuf decompressWithoutLength(ByteBuf in, int length) {
      byte[] raw = bytes(in);
      return Unpooled.wrappedBuffer(
          LZ4Factory.fastestInstance().fastDecompressor().decompress(raw, length));
    }
  }

  private static byte[] bytes(ByteBuf b) {
    byte[] out = new byte[b.readableBytes()];
    b.readBytes(out);
    return out;
  }

  private static SegmentCodec<ByteBuf> driverCodec(boolean lz4) {
    return new SegmentCodec<>(
        new ByteBufPrimitiveCodec(ALLOC), lz4 ? new DriverLz4() : Compressor.none());
  }

  /** A whole request frame of version 5 with a body of {@code length} bytes. */
  private static ByteBuf frame(Random r, int stream, int length, boolean compressible) {
    ByteBuf f = Unpooled.buffer(9 + length);
    f.writeByte(5).writeByte(0).writeShort(stream).writeByte(0x07).writeInt(length);
    for (int i = 0; i < length; i++) {
      f.writeByte(compressible ? 'a' + (i % 7) : r.nextInt(256));
    }
    return f;
  }

  @Test
  void checksumsAreTheDriversOnes() {
    Random r = random();
    for (int i = 0; i < 1000; i++) {
      long v = r.nextLong();
      int bytes = 3 + 2 * r.nextInt(2);
      long masked = v & ((1L << (8 * bytes)) - 1);
      assertThat(Crc.crc24(masked, bytes))
          .isEqualTo(com.datastax.oss.protocol.internal.util.Crc.computeCrc24(masked, bytes));
      byte[] payload = new byte[r.nextInt(300)];
      r.nextBytes(payload);
      assertThat(Crc.crc32(Unpooled.wrappedBuffer(payload), 0, payload.length))
          .isEqualTo(
              com.datastax.oss.protocol.internal.util.Crc.computeCrc32(
                  Unpooled.wrappedBuffer(payload), new ByteBufPrimitiveCodec(ALLOC)));
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void theDriverReadsWhatWeWriteSmallAndLarge(boolean lz4) throws Exception {
    Random r = random();
    for (int length : new int[] {0, 100, Segments.MAX_PAYLOAD - 9, 300_000}) {
      for (boolean compressible : new boolean[] {true, false}) {
        ByteBuf frame = frame(r, 7, length, compressible);
        byte[] expected = bytes(frame.duplicate());
        ByteBuf wire = new Segments(lz4, MAX).encode(ALLOC, frame);
        SegmentCodec<ByteBuf> codec = driverCodec(lz4);
        ByteBuf got = Unpooled.buffer();
        int segments = 0;
        while (wire.isReadable()) {
          SegmentCodec.Header h =
              codec.decodeHeader(wire.readRetainedSlice(codec.headerLength() + 3));
          assertThat(h.isSelfContained).isEqualTo(expected.length <= Segments.MAX_PAYLOAD);
          Segment<ByteBuf> s = codec.decode(h, wire.readRetainedSlice(h.payloadLength + 4));
          got.writeBytes(s.payload);
          segments++;
        }
        assertThat(bytes(got)).isEqualTo(expected);
        assertThat(segments)
            .isEqualTo((expected.length + Segments.MAX_PAYLOAD - 1) / Segments.MAX_PAYLOAD);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void weReadWhatTheDriverWritesSeveralFramesToASegmentOrOneFrameOverSeveral(boolean lz4) {
    Random r = random();
    SegmentCodec<ByteBuf> codec = driverCodec(lz4);
    ByteBuf wire = Unpooled.buffer();
    // three small frames in one self-contained segment
    ByteBuf three = Unpooled.buffer();
    for (int s = 0; s < 3; s++) {
      three.writeBytes(frame(r, s, 50 + s, true));
    }
    encodeWithDriver(codec, three, true, wire);
    // one frame of 300,000 bytes over three segments that are not self-contained
    ByteBuf large = frame(r, 9, 300_000, false);
    byte[] largeBody = new byte[300_000];
    large.getBytes(9, largeBody);
    while (large.isReadable()) {
      encodeWithDriver(
          codec,
          large.readRetainedSlice(Math.min(Segments.MAX_PAYLOAD, large.readableBytes())),
          false,
          wire);
    }
    Segments segments = new Segments(lz4, MAX);
    List<Object> frames = new ArrayList<>();
    while (segments.decode(ALLOC, wire, frames, 5)) {
      // one segment at a time
    }
    assertThat(wire.isReadable()).isFalse();
    assertThat(frames).hasSize(4);
    for (int s = 0; s < 3; s++) {
      Frame f = (Frame) frames.get(s);
      assertThat(f.stream()).isEqualTo(s);
      assertThat(f.body().readableBytes()).isEqualTo(50 + s);
    }
    Frame big = (Frame) frames.get(3);
    assertThat(big.stream()).isEqualTo(9);
    assertThat(bytes(big.body())).isEqualTo(largeBody);
  }

  private static void encodeWithDriver(
      SegmentCodec<ByteBuf> codec, ByteBuf payload, boolean selfContained, ByteBuf wire) {
    List<Object> parts = new ArrayList<>();
    codec.encode(new Segment<>(payload, selfContained), parts);
    for (Object p : parts) {
      wire.writeBytes((ByteBuf) p);
    }
  }

  @Test
  void aSegmentWithAPartWaitsForTheRest() {
    Random r = random();
    ByteBuf wire = new Segments(false, MAX).encode(ALLOC, frame(r, 1, 1000, false));
    Segments segments = new Segments(false, MAX);
    List<Object> frames = new ArrayList<>();
    ByteBuf half = wire.readRetainedSlice(wire.readableBytes() / 2);
    assertThat(segments.decode(ALLOC, half, frames, 5)).isFalse();
    assertThat(half.readerIndex()).isZero();
    assertThat(frames).isEmpty();
  }

  @Test
  void everyFlippedBitOfAHeaderOrPayloadIsACrcMismatch() {
    Random r = random();
    for (boolean lz4 : new boolean[] {false, true}) {
      byte[] good = bytes(new Segments(lz4, MAX).encode(ALLOC, frame(r, 1, 200, true)));
      int crcEnd = lz4 ? 8 : 6;
      for (int bit = 0; bit < 8 * good.length; bit++) {
        byte[] bad = good.clone();
        bad[bit / 8] ^= (byte) (1 << (bit % 8));
        // the header's CRC is checked before its length is believed, so a changed length never
        // makes the decoder wait for bytes that do not come
        String expected =
            bit / 8 < crcEnd ? "CRC mismatch on the header" : "CRC mismatch on the payload";
        assertThatThrownBy(
                () ->
                    new Segments(lz4, MAX)
                        .decode(ALLOC, Unpooled.wrappedBuffer(bad), new ArrayList<>(), 5))
            .as("lz4 %s, bit %d", lz4, bit)
            .isInstanceOf(FrameDecoder.FrameException.class)
            .hasMessageContaining(expected);
      }
    }
  }

  @Test
  void aFrameCutInsideASelfContainedSegmentIsRefused() {
    Random r = random();
    ByteBuf frame = frame(r, 1, 100, false);
    ByteBuf cut = frame.readRetainedSlice(60);
    ByteBuf wire = Unpooled.buffer();
    encodeWithDriver(driverCodec(false), cut, true, wire);
    assertThatThrownBy(() -> new Segments(false, MAX).decode(ALLOC, wire, new ArrayList<>(), 5))
        .isInstanceOf(FrameDecoder.FrameException.class)
        .hasMessageContaining("ends inside a frame");
  }

  @Test
  void aLargeFrameOverTheLimitIsRefusedAtItsFirstSegment() {
    Random r = random();
    ByteBuf large = frame(r, 1, 200_000, false);
    ByteBuf wire = Unpooled.buffer();
    encodeWithDriver(
        driverCodec(false), large.readRetainedSlice(Segments.MAX_PAYLOAD), false, wire);
    assertThatThrownBy(() -> new Segments(false, 150_000).decode(ALLOC, wire, new ArrayList<>(), 5))
        .isInstanceOf(FrameDecoder.FrameException.class)
        .hasMessageContaining("Request is too big");
  }

  @Test
  void aFrameOfAnotherVersionInsideASegmentIsRefused() {
    Random r = random();
    ByteBuf frame = frame(r, 1, 10, false);
    frame.setByte(0, 4);
    ByteBuf wire = new Segments(false, MAX).encode(ALLOC, frame);
    assertThatThrownBy(() -> new Segments(false, MAX).decode(ALLOC, wire, new ArrayList<>(), 5))
        .isInstanceOf(FrameDecoder.FrameException.class)
        .hasMessageContaining("Invalid message version. Got 4/v4");
  }
}
