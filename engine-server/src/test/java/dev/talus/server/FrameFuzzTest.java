package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.cql.TalusSession;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random, mutated and truncated frames, each on its own connection: the server answers with
 * well-formed response frames (a protocol error, or whatever the mutated request still asks for) or
 * closes the connection, and never stops serving — after the run a fresh connection works and the
 * row written before it is still there.
 *
 * <p>{@code -Dtalus.server.fuzz.seed=N} replays a run, {@code -Dtalus.server.fuzz.cases=N} changes
 * its length (300 by default). The seed is printed, and named in a failure.
 */
class FrameFuzzTest {
  private static final int CASES = Integer.getInteger("talus.server.fuzz.cases", 300);

  @TempDir Path dir;

  /** Valid requests the mutations start from. */
  private static byte[][] seeds() {
    ByteBuffer execute = ByteBuffer.allocate(2 + 16 + 3);
    execute.putShort((short) 16).put(new byte[16]).putShort((short) 1).put((byte) 0);
    ByteArrayOutputStream register = new ByteArrayOutputStream();
    register.write(0);
    register.write(1);
    RawClient.string(register, "SCHEMA_CHANGE");
    byte[] prepare = "SELECT v FROM fuzz.t WHERE k = ?".getBytes(StandardCharsets.UTF_8);
    return new byte[][] {
      RawClient.frame(4, 0, 1, 0x05, new byte[0]),
      RawClient.frame(4, 0, 2, 0x01, RawClient.startupBody()),
      RawClient.frame(4, 0, 3, 0x07, RawClient.query("SELECT * FROM system.local")),
      RawClient.frame(4, 0, 4, 0x07, RawClient.query("SELECT v FROM fuzz.t WHERE k = 1")),
      RawClient.frame(
          4,
          0,
          5,
          0x09,
          ByteBuffer.allocate(4 + prepare.length).putInt(prepare.length).put(prepare).array()),
      RawClient.frame(4, 0, 6, 0x0A, execute.array()),
      RawClient.frame(4, 0, 7, 0x0B, register.toByteArray()),
    };
  }

  private static byte[] input(SplittableRandom r, byte[][] seeds) {
    byte[] startup = seeds[1];
    switch (r.nextInt(4)) {
      case 0 -> {
        byte[] junk = new byte[r.nextInt(64)];
        r.nextBytes(junk);
        return junk;
      }
      case 1 -> {
        byte[] b = concat(startup, seeds[r.nextInt(seeds.length)]);
        return b.length == 0 ? b : java.util.Arrays.copyOf(b, r.nextInt(b.length));
      }
      default -> {
        byte[] b = seeds[r.nextInt(seeds.length)].clone();
        int mutations = 1 + r.nextInt(4);
        for (int i = 0; i < mutations; i++) {
          int at = r.nextInt(b.length);
          if (r.nextBoolean()) {
            b[at] ^= (byte) (1 << r.nextInt(8));
          } else {
            b[at] = (byte) r.nextInt(256);
          }
        }
        return r.nextBoolean() ? concat(startup, b) : b;
      }
    }
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  @Test
  void badFramesNeverStopTheServerNorLoseAWrite() throws IOException {
    long seed = Long.getLong("talus.server.fuzz.seed", ThreadLocalRandom.current().nextLong());
    System.out.println(
        "FrameFuzzTest seed " + seed + " (-Dtalus.server.fuzz.seed=" + seed + "), cases " + CASES);
    SplittableRandom random = new SplittableRandom(seed);
    byte[][] seeds = seeds();
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
        TalusServer server = TalusServer.start(db)) {
      TalusSession cql = TalusSession.on(db);
      cql.execute(
          "CREATE KEYSPACE fuzz WITH replication = {'class': 'SimpleStrategy',"
              + " 'replication_factor': 1}");
      cql.execute("CREATE TABLE fuzz.t (k int PRIMARY KEY, v text)");
      cql.execute("INSERT INTO fuzz.t (k, v) VALUES (1, 'kept')");
      for (int i = 0; i < CASES; i++) {
        byte[] in = input(random, seeds);
        try (RawClient c = new RawClient(server.address())) {
          c.send(in);
          c.endOutput();
          while (true) {
            RawClient.Response r;
            try {
              r = c.read();
            } catch (java.io.EOFException e) {
              break;
            }
            assertThat(r.version())
                .as("seed %d case %d: response version", seed, i)
                .isIn(0x83, 0x84, 0x85);
            assertThat(r.opcode())
                .as("seed %d case %d: response opcode", seed, i)
                .isIn(0x00, 0x02, 0x06, 0x08, 0x0C);
          }
        } catch (java.net.SocketException e) {
          // the server closed first and the socket reset: the connection ended, as it may
        }
      }
      try (RawClient c = new RawClient(server.address())) {
        c.startup();
        c.send(RawClient.frame(4, 0, 2, 0x07, RawClient.query("SELECT v FROM fuzz.t WHERE k = 1")));
        RawClient.Response r = c.read();
        assertThat(r.opcode()).as("seed %d", seed).isEqualTo(0x08);
        assertThat(StandardCharsets.UTF_8.decode(r.body()).toString()).contains("kept");
      }
    }
  }
}
