package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Apache Cassandra Java driver connects to a Talus server as to a one-node cluster. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DriverTest {
  @TempDir static Path dir;
  private TalusDb db;
  private TalusServer server;
  private CqlSession session;

  @BeforeAll
  void start() {
    db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
    server = TalusServer.start(db);
    session = DriverSessions.connect(server);
  }

  @AfterAll
  void stop() {
    if (session != null) {
      session.close();
    }
    if (server != null) {
      server.close();
    }
    db.close();
  }

  @Test
  void theDriverNegotiatesV5AndSeesOneNodeInDatacenter1() {
    assertThat(session.getContext().getProtocolVersion()).isEqualTo(ProtocolVersion.V5);
    assertThat(session.getMetadata().getNodes()).hasSize(1);
    Node node = session.getMetadata().getNodes().values().iterator().next();
    assertThat(node.getDatacenter()).isEqualTo("datacenter1");
    assertThat(node.getRack()).isEqualTo("rack1");
    Row local = session.execute("SELECT release_version, cluster_name FROM system.local").one();
    assertThat(local.getString("release_version")).isEqualTo("5.0.0");
    assertThat(local.getString(1)).isEqualTo("Talus");
    // as Cassandra, system.local names the highest version the server speaks: the one negotiated
    assertThat(
            session.execute("SELECT native_protocol_version FROM system.local").one().getString(0))
        .isEqualTo(String.valueOf(session.getContext().getProtocolVersion().getCode()));
  }

  @Test
  void selectOfAnEmptyResultHasItsColumns() {
    ResultSet rs = session.execute("SELECT peer, data_center FROM system.peers");
    assertThat(rs.one()).isNull();
    assertThat(rs.getColumnDefinitions().size()).isEqualTo(2);
    assertThat(rs.getColumnDefinitions().get(0).getName().asInternal()).isEqualTo("peer");
  }

  @ParameterizedTest
  @CsvSource({"none, V5", "lz4, V5", "none, V4"})
  void aValueLargerThanASegmentGoesBothWays(String compression, String version) {
    try (CqlSession s = DriverSessions.connect(server, null, compression, version)) {
      s.execute(
          "CREATE KEYSPACE IF NOT EXISTS large WITH replication = {'class': 'SimpleStrategy',"
              + " 'replication_factor': 1}");
      s.execute("CREATE TABLE IF NOT EXISTS large.t (k text PRIMARY KEY, v blob)");
      // 300,000 random bytes: more than two segment payloads (128 KiB - 1), and LZ4 cannot shrink
      byte[] value = new byte[300_000];
      new java.util.Random(42).nextBytes(value);
      String key = compression + version;
      s.execute(
          s.prepare("INSERT INTO large.t (k, v) VALUES (?, ?)")
              .bind(key, java.nio.ByteBuffer.wrap(value)));
      Row r =
          s.execute(SimpleStatement.newInstance("SELECT v FROM large.t WHERE k = ?", key)).one();
      java.nio.ByteBuffer got = r.getByteBuffer(0);
      byte[] back = new byte[got.remaining()];
      got.get(back);
      assertThat(back).isEqualTo(value);
    }
  }

  @Test
  void aDriverHeldToV4StillConnects() {
    try (CqlSession v4 = DriverSessions.connect(server, null, "none", "V4")) {
      assertThat(v4.getContext().getProtocolVersion()).isEqualTo(ProtocolVersion.V4);
      assertThat(v4.execute("SELECT cluster_name FROM system.local").one().getString(0))
          .isEqualTo("Talus");
    }
  }

  @Test
  void snappyIsRefusedInV5AsInCassandraSoASnappyDriverPinsV4() {
    assertThatThrownBy(() -> DriverSessions.connect(server, null, "snappy", "V5").close())
        .isInstanceOf(AllNodesFailedException.class)
        .hasMessageContaining("only lz4");
  }

  @ParameterizedTest
  @CsvSource({"lz4, V5", "lz4, V4", "snappy, V4"})
  void compressedConnectionsCarryStatementsBothWays(String compression, String version) {
    try (CqlSession compressed = DriverSessions.connect(server, null, compression, version)) {
      assertThat(compressed.getContext().getProtocolVersion().name()).isEqualTo(version);
      compressed.execute(
          "CREATE KEYSPACE IF NOT EXISTS squeeze WITH replication = {'class': 'SimpleStrategy',"
              + " 'replication_factor': 1}");
      compressed.execute(
          "CREATE TABLE IF NOT EXISTS squeeze.t (k text, c int, v text, PRIMARY KEY (k, c))");
      String big = "abc".repeat(10_000);
      PreparedStatement insert =
          compressed.prepare("INSERT INTO squeeze.t (k, c, v) VALUES (?, ?, ?)");
      for (int c = 0; c < 20; c++) {
        compressed.execute(insert.bind(compression, c, big + c));
      }
      List<String> values = new ArrayList<>();
      for (Row r :
          compressed.execute(
              SimpleStatement.newInstance("SELECT v FROM squeeze.t WHERE k = ?", compression)
                  .setPageSize(7))) {
        values.add(r.getString(0));
      }
      assertThat(values).hasSize(20);
      assertThat(values.get(19)).isEqualTo(big + 19);
    }
  }
}
