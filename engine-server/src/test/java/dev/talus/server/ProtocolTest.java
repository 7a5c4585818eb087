package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** The protocol at the byte level: the handshake, version negotiation, errors, bad frames. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProtocolTest {
  @TempDir static Path dir;
  private TalusDb db;
  private TalusServer server;

  @BeforeAll
  void start() {
    db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
    server = TalusServer.start(db, ServerOptions.builder().maxFrameBytes(64 * 1024).build());
  }

  @AfterAll
  void stop() {
    server.close();
    db.close();
  }

  private RawClient client() throws IOException {
    return new RawClient(server.address());
  }

  @Test
  void bindsAnEphemeralLoopbackPort() {
    assertThat(server.address().getAddress().isLoopbackAddress()).isTrue();
    assertThat(server.address().getPort()).isPositive();
  }

  @Test
  void optionsAnswersSupportedWithTheCqlAndProtocolVersions() throws IOException {
    try (RawClient c = client()) {
      c.send(RawClient.frame(4, 0, 7, 0x05, new byte[0]));
      RawClient.Response r = c.read();
      assertThat(r.version()).isEqualTo(0x84);
      assertThat(r.stream()).isEqualTo(7);
      assertThat(r.opcode()).isEqualTo(0x06);
      String body = StandardCharsets.UTF_8.decode(r.body()).toString();
      assertThat(body).contains("CQL_VERSION", "3.4.7", "PROTOCOL_VERSIONS", "4/v4", "5/v5");
    }
  }

  @Test
  void version3IsRefusedInItsOwnVersionNamingTheSupportedOnes() throws IOException {
    try (RawClient c = client()) {
      c.send(RawClient.frame(3, 0, 3, 0x05, new byte[0]));
      RawClient.Response r = c.read();
      assertThat(r.version()).isEqualTo(0x83);
      assertThat(r.opcode()).isZero();
      assertThat(r.stream()).isEqualTo(3);
      assertThat(r.errorCode()).isEqualTo(0x000A);
      assertThat(r.errorMessage())
          .isEqualTo(
              "Invalid or unsupported protocol version (3); supported versions are (4/v4, 5/v5)");
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void aVersionAboveFiveIsAnsweredInV5SoTheClientCanRetryLower() throws IOException {
    try (RawClient c = client()) {
      c.send(RawClient.frame(6, 0, 1, 0x05, new byte[0]));
      RawClient.Response r = c.read();
      assertThat(r.version()).isEqualTo(0x85);
      assertThat(r.errorMessage()).contains("Invalid or unsupported protocol version (6)");
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void aQueryBeforeStartupIsAProtocolErrorAndTheConnectionGoesOn() throws IOException {
    try (RawClient c = client()) {
      c.send(RawClient.frame(4, 0, 1, 0x07, RawClient.query("SELECT * FROM system.local")));
      RawClient.Response r = c.read();
      assertThat(r.errorCode()).isEqualTo(0x000A);
      assertThat(r.errorMessage()).contains("STARTUP");
      c.startup();
      c.send(RawClient.frame(4, 0, 2, 0x07, RawClient.query("SELECT key FROM system.local")));
      RawClient.Response rows = c.read();
      assertThat(rows.opcode()).isEqualTo(0x08);
      assertThat(rows.body().getInt(0)).isEqualTo(2); // Rows
    }
  }

  @Test
  void anUnknownPreparedIdIsUnpreparedWithTheId() throws IOException {
    byte[] id = new byte[16];
    id[0] = 42;
    ByteBuffer body = ByteBuffer.allocate(2 + 16 + 3);
    body.putShort((short) 16).put(id).putShort((short) 1).put((byte) 0);
    try (RawClient c = client()) {
      c.startup();
      c.send(RawClient.frame(4, 0, 5, 0x0A, body.array()));
      RawClient.Response r = c.read();
      assertThat(r.errorCode()).isEqualTo(0x2500);
      ByteBuffer b = r.body();
      b.getInt();
      b.position(b.position() + 2 + (b.getShort(b.position()) & 0xFFFF));
      byte[] back = new byte[b.getShort() & 0xFFFF];
      b.get(back);
      assertThat(back).isEqualTo(id);
    }
  }

  @Test
  void aMalformedBodyIsAProtocolErrorOnItsStream() throws IOException {
    try (RawClient c = client()) {
      c.startup();
      // a QUERY whose [long string] claims more bytes than the body has
      c.send(RawClient.frame(4, 0, 9, 0x07, new byte[] {0, 0, 0x10, 0, 'x'}));
      RawClient.Response r = c.read();
      assertThat(r.stream()).isEqualTo(9);
      assertThat(r.errorCode()).isEqualTo(0x000A);
      assertThat(r.errorMessage()).contains("malformed message");
      c.send(RawClient.frame(4, 0, 10, 0x05, new byte[0]));
      assertThat(c.read().opcode()).isEqualTo(0x06);
    }
  }

  @Test
  void anUnknownOpcodeAndACompressedBodyAreProtocolErrors() throws IOException {
    try (RawClient c = client()) {
      c.startup();
      c.send(RawClient.frame(4, 0, 1, 0x42, new byte[0]));
      assertThat(c.read().errorMessage()).contains("Unknown or unexpected opcode 0x42");
      c.send(RawClient.frame(4, 0x01, 2, 0x05, new byte[0]));
      assertThat(c.read().errorMessage()).contains("no compression was negotiated");
    }
  }

  @Test
  void aFrameLongerThanTheLimitClosesTheConnection() throws IOException {
    try (RawClient c = client()) {
      byte[] header = RawClient.frame(4, 0, 4, 0x07, new byte[0]);
      ByteBuffer.wrap(header).putInt(5, 64 * 1024 + 1);
      c.send(header);
      RawClient.Response r = c.read();
      assertThat(r.errorCode()).isEqualTo(0x000A);
      assertThat(r.errorMessage()).contains("Request is too big");
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void startupRefusesCompressionItCannotSpeak() throws IOException {
    try (RawClient c = client()) {
      c.send(
          RawClient.frame(
              4,
              0,
              1,
              0x01,
              RawClient.stringMap(Map.of("CQL_VERSION", "3.0.0", "COMPRESSION", "zip"))));
      RawClient.Response r = c.read();
      assertThat(r.errorCode()).isEqualTo(0x000A);
      assertThat(r.errorMessage()).contains("compression");
    }
  }

  @Test
  void aRegisteredConnectionGetsSchemaChangeEvents() throws IOException {
    java.io.ByteArrayOutputStream register = new java.io.ByteArrayOutputStream();
    register.write(0);
    register.write(1);
    RawClient.string(register, "SCHEMA_CHANGE");
    try (RawClient listener = client();
        RawClient writer = client()) {
      listener.startup();
      listener.send(RawClient.frame(4, 0, 1, 0x0B, register.toByteArray()));
      assertThat(listener.read().opcode()).isEqualTo(0x02);
      writer.startup();
      writer.send(
          RawClient.frame(
              4,
              0,
              2,
              0x07,
              RawClient.query(
                  "CREATE KEYSPACE evented WITH replication = {'class': 'SimpleStrategy',"
                      + " 'replication_factor': 1}")));
      RawClient.Response result = writer.read();
      assertThat(result.opcode()).isEqualTo(0x08);
      assertThat(result.body().getInt(0)).isEqualTo(5); // Schema_change
      RawClient.Response event = listener.read();
      assertThat(event.opcode()).isEqualTo(0x0C);
      assertThat(event.stream()).isEqualTo(-1);
      String body = StandardCharsets.UTF_8.decode(event.body()).toString();
      assertThat(body).contains("SCHEMA_CHANGE", "CREATED", "KEYSPACE", "evented");
    }
  }

  @Test
  void afterStartupWithLz4EveryFrameIsCompressedBothWays() throws IOException {
    net.jpountz.lz4.LZ4Factory lz4 = net.jpountz.lz4.LZ4Factory.fastestInstance();
    try (RawClient c = client()) {
      c.send(
          RawClient.frame(
              4,
              0,
              1,
              0x01,
              RawClient.stringMap(Map.of("CQL_VERSION", "3.0.0", "COMPRESSION", "lz4"))));
      RawClient.Response ready = c.read();
      assertThat(ready.opcode()).isEqualTo(0x02);
      assertThat(ready.flags() & 0x01).isZero();
      // a compressed QUERY
      byte[] query = RawClient.query("SELECT cluster_name FROM system.local");
      byte[] packed = lz4.fastCompressor().compress(query);
      byte[] body = ByteBuffer.allocate(4 + packed.length).putInt(query.length).put(packed).array();
      c.send(RawClient.frame(4, 0x01, 2, 0x07, body));
      RawClient.Response rows = c.read();
      assertThat(rows.opcode()).isEqualTo(0x08);
      assertThat(rows.flags() & 0x01).isEqualTo(0x01);
      ByteBuffer b = rows.body();
      int length = b.getInt();
      byte[] plain =
          lz4.safeDecompressor()
              .decompress(java.util.Arrays.copyOfRange(b.array(), 4, b.capacity()), length);
      assertThat(ByteBuffer.wrap(plain).getInt(0)).isEqualTo(2); // Rows
      assertThat(new String(plain, StandardCharsets.UTF_8)).contains("Talus");
      // a body that is not LZ4 is a protocol error (compressed, as every answer now)
      c.send(RawClient.frame(4, 0x01, 3, 0x07, new byte[] {0, 0, 0, 9, 1, 2, 3}));
      RawClient.Response error = c.read();
      assertThat(error.opcode()).isZero();
      assertThat(error.stream()).isEqualTo(3);
    }
  }
}
