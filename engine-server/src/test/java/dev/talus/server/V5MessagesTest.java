package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.cql.TalusSession;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The v5 message changes the Java driver does not show on its own: the result metadata id of {@code
 * PREPARE} / {@code EXECUTE} and {@code Metadata_changed}, and the keyspace flag of {@code
 * PREPARE}.
 */
class V5MessagesTest {
  @TempDir Path dir;

  private static byte[] shortBytes(ByteBuffer b) {
    byte[] out = new byte[b.getShort() & 0xFFFF];
    b.get(out);
    return out;
  }

  /** A v5 PREPARE body, in {@code keyspace} if not null. */
  private static byte[] prepare(String query, String keyspace) {
    byte[] q = query.getBytes(StandardCharsets.UTF_8);
    byte[] ks = keyspace == null ? new byte[0] : keyspace.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(4 + q.length + 4 + (keyspace == null ? 0 : 2 + ks.length));
    b.putInt(q.length).put(q).putInt(keyspace == null ? 0 : 1);
    if (keyspace != null) {
      b.putShort((short) ks.length).put(ks);
    }
    return b.array();
  }

  /** A v5 EXECUTE body: one int value bound, skip_metadata set. */
  private static byte[] execute(byte[] id, byte[] resultMetadataId, int value) {
    return ByteBuffer.allocate(2 + id.length + 2 + resultMetadataId.length + 2 + 4 + 2 + 8)
        .putShort((short) id.length)
        .put(id)
        .putShort((short) resultMetadataId.length)
        .put(resultMetadataId)
        .putShort((short) 1) // ONE
        .putInt(0x01 | 0x02) // values, skip metadata
        .putShort((short) 1)
        .putInt(4)
        .putInt(value)
        .array();
  }

  @Test
  void executeWithAStaleResultMetadataIdGetsTheNewIdAndTheColumns() throws IOException {
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
        TalusServer server = TalusServer.start(db);
        SegmentFuzzTest.V5Client c = new SegmentFuzzTest.V5Client(server.address())) {
      TalusSession cql = TalusSession.on(db);
      cql.execute(
          "CREATE KEYSPACE m WITH replication = {'class': 'SimpleStrategy',"
              + " 'replication_factor': 1}");
      cql.execute("CREATE TABLE m.t (k int PRIMARY KEY, v text)");
      cql.execute("INSERT INTO m.t (k, v) VALUES (1, 'one')");
      c.startup();
      // PREPARE in keyspace m by the v5 flag, the connection having no keyspace
      c.send(
          SegmentFuzzTest.segments(
              RawClient.frame(5, 0, 2, 0x09, prepare("SELECT k, v FROM t WHERE k = ?", "m"))));
      RawClient.Response prepared = c.readSegmentFrame();
      assertThat(prepared.opcode()).as("RESULT").isEqualTo(0x08);
      ByteBuffer p = prepared.body();
      assertThat(p.getInt()).as("Prepared").isEqualTo(4);
      byte[] id = shortBytes(p);
      byte[] resultMetadataId = shortBytes(p);
      assertThat(resultMetadataId).hasSize(16);

      // the id the client holds is current: no metadata again
      c.send(
          SegmentFuzzTest.segments(
              RawClient.frame(5, 0, 3, 0x0A, execute(id, resultMetadataId, 1))));
      ByteBuffer rows = c.readSegmentFrame().body();
      assertThat(rows.getInt()).as("Rows").isEqualTo(2);
      int flags = rows.getInt();
      assertThat(flags & 0x04).as("No_metadata").isNotZero();
      assertThat(flags & 0x08).as("Metadata_changed").isZero();

      // a stale id: the rows come with Metadata_changed, the current id and the columns
      c.send(
          SegmentFuzzTest.segments(RawClient.frame(5, 0, 4, 0x0A, execute(id, new byte[16], 1))));
      ByteBuffer changed = c.readSegmentFrame().body();
      assertThat(changed.getInt()).isEqualTo(2);
      int changedFlags = changed.getInt();
      assertThat(changedFlags & 0x08).as("Metadata_changed").isNotZero();
      assertThat(changedFlags & 0x04).as("No_metadata").isZero();
      assertThat(changed.getInt()).as("columns").isEqualTo(2);
      assertThat(shortBytes(changed)).isEqualTo(resultMetadataId);
      assertThat(StandardCharsets.UTF_8.decode(changed).toString()).contains("k", "v", "one");
    }
  }
}
