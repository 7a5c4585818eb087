package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.cql.TalusSession;
import dev.talus.server.wire.Crc;
import dev.talus.server.wire.Segments;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Protocol v5 segments on the wire: a started v5 connection is answered in checksummed segments,
 * and a broken segment (a flipped bit, a cut frame, a large frame over the limit, random bytes)
 * closes that connection only — another connection, open all along, goes on, and the row written
 * before is still there.
 *
 * <p>{@code -Dtalus.server.fuzz.seed=N} replays a run; the seed is printed and named in failures.
 */
class SegmentFuzzTest {
  private static final int CASES = Integer.getInteger("talus.server.fuzz.cases", 200);

  @TempDir Path dir;

  /** A v5 client: bare frames for the handshake, then uncompressed segments. */
  static final class V5Client implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    V5Client(InetSocketAddress address) throws IOException {
      socket = new Socket();
      socket.connect(address);
      socket.setSoTimeout(120_000);
      in = new DataInputStream(socket.getInputStream());
      out = socket.getOutputStream();
    }

    /** STARTUP as a bare v5 frame; the READY that answers it is bare too. */
    void startup() throws IOException {
      send(RawClient.frame(5, 0, 1, 0x01, RawClient.startupBody()));
      RawClient.Response r = readBareFrame();
      assertThat(r.version()).isEqualTo(0x85);
      assertThat(r.opcode()).isEqualTo(0x02);
    }

    void send(byte[] bytes) throws IOException {
      out.write(bytes);
      out.flush();
    }

    RawClient.Response readBareFrame() throws IOException {
      byte[] header = new byte[9];
      in.readFully(header);
      ByteBuffer h = ByteBuffer.wrap(header);
      byte[] body = new byte[h.getInt(5)];
      in.readFully(body);
      return new RawClient.Response(
          header[0] & 0xFF,
          header[1] & 0xFF,
          h.getShort(2),
          header[4] & 0xFF,
          ByteBuffer.wrap(body));
    }

    /** Reads one self-contained segment holding one frame, checking both CRCs. */
    RawClient.Response readSegmentFrame() throws IOException {
      byte[] header = new byte[6];
      in.readFully(header);
      long bits = (header[0] & 0xFF) | (header[1] & 0xFF) << 8 | (header[2] & 0xFF) << 16;
      int crc24 = (header[3] & 0xFF) | (header[4] & 0xFF) << 8 | (header[5] & 0xFF) << 16;
      assertThat(Crc.crc24(bits, 3)).isEqualTo(crc24);
      assertThat(bits & (1 << 17)).as("self-contained").isNotZero();
      byte[] payload = new byte[(int) (bits & Segments.MAX_PAYLOAD)];
      in.readFully(payload);
      byte[] crc = new byte[4];
      in.readFully(crc);
      int crc32 =
          (crc[0] & 0xFF) | (crc[1] & 0xFF) << 8 | (crc[2] & 0xFF) << 16 | (crc[3] & 0xFF) << 24;
      assertThat(Crc.crc32(Unpooled.wrappedBuffer(payload), 0, payload.length)).isEqualTo(crc32);
      ByteBuffer p = ByteBuffer.wrap(payload);
      byte[] body = new byte[p.getInt(5)];
      p.position(9);
      p.get(body);
      assertThat(p.hasRemaining()).as("one frame per segment").isFalse();
      return new RawClient.Response(
          payload[0] & 0xFF,
          payload[1] & 0xFF,
          p.getShort(2),
          payload[4] & 0xFF,
          ByteBuffer.wrap(body));
    }

    /** Reads until the server closes the connection; true if it did. */
    boolean closedByServer() throws IOException {
      try {
        while (in.read() >= 0) {
          // skip what the server sent before closing (an error in a segment)
        }
        return true;
      } catch (SocketException e) {
        return true; // reset: closed too
      }
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  /** A v5 QUERY body: the text, consistency ONE, flags as an [int], none set. */
  static byte[] queryV5(String cql) {
    byte[] q = cql.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(4 + q.length + 6)
        .putInt(q.length)
        .put(q)
        .putShort((short) 1)
        .putInt(0)
        .array();
  }

  /** {@code frame} as uncompressed v5 segments. */
  static byte[] segments(byte[] frame) {
    ByteBuf b =
        new Segments(false, 16 << 20)
            .encode(ByteBufAllocator.DEFAULT, Unpooled.wrappedBuffer(frame));
    byte[] out = new byte[b.readableBytes()];
    b.readBytes(out);
    b.release();
    return out;
  }

  private static String query(V5Client c, int stream, String cql) throws IOException {
    c.send(segments(RawClient.frame(5, 0, stream, 0x07, queryV5(cql))));
    RawClient.Response r = c.readSegmentFrame();
    assertThat(r.version()).isEqualTo(0x85);
    assertThat(r.stream()).isEqualTo(stream);
    assertThat(r.opcode()).as("RESULT").isEqualTo(0x08);
    return StandardCharsets.UTF_8.decode(r.body()).toString();
  }

  @Test
  void aStartedV5ConnectionIsAnsweredInSegments() throws IOException {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
        TalusServer server = TalusServer.start(db);
        V5Client c = new V5Client(server.address())) {
      c.startup();
      assertThat(query(c, 3, "SELECT cluster_name FROM system.local")).contains("Talus");
      // a bare frame after the switch is not a segment: its first bytes fail the header's CRC
      c.send(RawClient.frame(5, 0, 4, 0x07, queryV5("SELECT * FROM system.local")));
      RawClient.Response error = c.readSegmentFrame();
      assertThat(error.opcode()).isZero();
      assertThat(error.errorCode()).isEqualTo(0x000A);
      assertThat(error.errorMessage()).contains("CRC mismatch");
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void aLargeFrameOverTheLimitClosesTheConnectionAtItsFirstSegment() throws IOException {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
        TalusServer server =
            TalusServer.start(db, ServerOptions.builder().maxFrameBytes(200_000).build());
        V5Client c = new V5Client(server.address())) {
      c.startup();
      byte[] big =
          RawClient.frame(
              5, 0, 2, 0x07, queryV5("SELECT * FROM system.local" + " ".repeat(250_000)));
      byte[] wire = segments(big);
      // only the first segment (not self-contained) is sent: its frame header is enough to refuse
      c.send(java.util.Arrays.copyOf(wire, 6 + Segments.MAX_PAYLOAD + 4));
      RawClient.Response error = c.readSegmentFrame();
      assertThat(error.errorMessage()).contains("Request is too big");
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void brokenSegmentsCloseTheirConnectionOnly() throws IOException {
    long seed = Long.getLong("talus.server.fuzz.seed", ThreadLocalRandom.current().nextLong());
    System.out.println(
        "SegmentFuzzTest seed "
            + seed
            + " (-Dtalus.server.fuzz.seed="
            + seed
            + "), cases "
            + CASES);
    SplittableRandom random = new SplittableRandom(seed);
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
        TalusServer server = TalusServer.start(db);
        V5Client bystander = new V5Client(server.address())) {
      TalusSession cql = TalusSession.on(db);
      cql.execute(
          "CREATE KEYSPACE fuzz WITH replication = {'class': 'SimpleStrategy',"
              + " 'replication_factor': 1}");
      cql.execute("CREATE TABLE fuzz.t (k int PRIMARY KEY, v text)");
      cql.execute("INSERT INTO fuzz.t (k, v) VALUES (1, 'kept')");
      bystander.startup();
      byte[] good =
          segments(RawClient.frame(5, 0, 2, 0x07, queryV5("SELECT v FROM fuzz.t WHERE k = 1")));
      for (int i = 0; i < CASES; i++) {
        byte[] bad = good.clone();
        switch (random.nextInt(3)) {
          case 0 -> bad[random.nextInt(bad.length)] ^= (byte) (1 << random.nextInt(8));
          case 1 -> {
            bad = new byte[6 + random.nextInt(64)];
            random.nextBytes(bad);
          }
          default -> {
            int at = random.nextInt(bad.length);
            bad[at] = (byte) (bad[at] + 1 + random.nextInt(255));
            bad = java.util.Arrays.copyOf(bad, 1 + random.nextInt(bad.length));
          }
        }
        try (V5Client c = new V5Client(server.address())) {
          c.startup();
          c.send(bad);
          c.socket.shutdownOutput();
          // a changed byte is always caught by a CRC; a cut segment waits, then the client leaves
          try {
            RawClient.Response r = c.readSegmentFrame();
            assertThat(r.opcode()).as("seed %d case %d", seed, i).isZero();
            assertThat(r.errorCode()).as("seed %d case %d", seed, i).isEqualTo(0x000A);
          } catch (EOFException e) {
            // a truncated segment: nothing to answer, the connection just ends
          }
          assertThat(c.closedByServer()).as("seed %d case %d", seed, i).isTrue();
        } catch (SocketException e) {
          // the server closed first and the socket reset: the connection ended, as it may
        }
      }
      assertThat(query(bystander, 9, "SELECT v FROM fuzz.t WHERE k = 1"))
          .as("seed %d", seed)
          .contains("kept");
    }
  }
}
