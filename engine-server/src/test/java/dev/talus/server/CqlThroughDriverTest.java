package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.data.CqlDuration;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.servererrors.AlreadyExistsException;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.ReadFailureException;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * CQL through the Java driver: schema statements, simple and prepared statements, every native
 * type, paging, batches and the errors Cassandra returns.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CqlThroughDriverTest {
  @TempDir static Path dir;
  private TalusDb db;
  private TalusServer server;
  private CqlSession session;

  @BeforeAll
  void start() {
    db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
    server = TalusServer.start(db);
    session = DriverSessions.connect(server, null, "none", protocolVersion());
    assertThat(session.getContext().getProtocolVersion().name())
        .isEqualTo(protocolVersion() == null ? "V5" : protocolVersion());
    session.execute(
        "CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    session.execute("USE app");
    session.execute(
        "CREATE TABLE everything (k text, c int, b boolean, ti tinyint, si smallint, bi bigint,"
            + " vi varint, f float, d double, de decimal, bl blob, u uuid, tu timeuuid,"
            + " ts timestamp, da date, tm time, ip inet, du duration, a ascii,"
            + " PRIMARY KEY (k, c))");
    session.execute("CREATE TABLE events (room text, at int, body text, PRIMARY KEY (room, at))");
  }

  /** The protocol version the driver is held to; null to let it negotiate (it settles on v5). */
  String protocolVersion() {
    return null;
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
  void everyNativeTypeGoesRoundTripThroughAPreparedStatement() throws Exception {
    PreparedStatement insert =
        session.prepare(
            "INSERT INTO everything (k, c, b, ti, si, bi, vi, f, d, de, bl, u, tu, ts, da, tm, ip,"
                + " du, a) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    UUID u = UUID.randomUUID();
    UUID tu = UUID.fromString("d2177dd0-eaa2-11de-a572-001b779c76e3");
    Instant ts = Instant.parse("2026-09-01T10:15:30.123Z");
    InetAddress ip = InetAddress.getByName("::1");
    session.execute(
        insert.bind(
            "types",
            1,
            true,
            (byte) -7,
            (short) 300,
            1L << 40,
            new BigInteger("123456789012345678901234567890"),
            1.5f,
            -2.25,
            new BigDecimal("-12.3400"),
            ByteBuffer.wrap(new byte[] {0, 1, (byte) 0xFF}),
            u,
            tu,
            ts,
            LocalDate.of(1969, 7, 20),
            LocalTime.of(23, 59, 58, 999_999_999),
            ip,
            CqlDuration.newInstance(14, 3, 90_000_000_000L),
            "plain"));
    Row r = session.execute("SELECT * FROM everything WHERE k = 'types' AND c = 1").one();
    assertThat(r.getBoolean("b")).isTrue();
    assertThat(r.getByte("ti")).isEqualTo((byte) -7);
    assertThat(r.getShort("si")).isEqualTo((short) 300);
    assertThat(r.getLong("bi")).isEqualTo(1L << 40);
    assertThat(r.getBigInteger("vi")).isEqualTo(new BigInteger("123456789012345678901234567890"));
    assertThat(r.getFloat("f")).isEqualTo(1.5f);
    assertThat(r.getDouble("d")).isEqualTo(-2.25);
    assertThat(r.getBigDecimal("de")).isEqualTo(new BigDecimal("-12.3400"));
    assertThat(r.getByteBuffer("bl")).isEqualTo(ByteBuffer.wrap(new byte[] {0, 1, (byte) 0xFF}));
    assertThat(r.getUuid("u")).isEqualTo(u);
    assertThat(r.getUuid("tu")).isEqualTo(tu);
    assertThat(r.getInstant("ts")).isEqualTo(ts);
    assertThat(r.getLocalDate("da")).isEqualTo(LocalDate.of(1969, 7, 20));
    assertThat(r.getLocalTime("tm")).isEqualTo(LocalTime.of(23, 59, 58, 999_999_999));
    assertThat(r.getInetAddress("ip")).isEqualTo(ip);
    assertThat(r.getCqlDuration("du")).isEqualTo(CqlDuration.newInstance(14, 3, 90_000_000_000L));
    assertThat(r.getString("a")).isEqualTo("plain");
  }

  @Test
  void simpleStatementsWithValuesAndNullsAndNamedValues() {
    session.execute("INSERT INTO events (room, at, body) VALUES (?, ?, ?)", "simple", 1, "one");
    session.execute("INSERT INTO events (room, at, body) VALUES (?, ?, ?)", "simple", 2, null);
    session.execute(
        SimpleStatement.builder("INSERT INTO events (room, at, body) VALUES (:room, :at, :body)")
            .addNamedValue("room", "simple")
            .addNamedValue("at", 3)
            .addNamedValue("body", "three")
            .build());
    List<String> bodies = new ArrayList<>();
    for (Row r : session.execute("SELECT body FROM events WHERE room = 'simple'")) {
      bodies.add(r.getString("body"));
    }
    assertThat(bodies).containsExactly("one", null, "three");
  }

  @Test
  void preparedStatementsRunOnEveryConnectionAndKeepTheirIds() {
    PreparedStatement select = session.prepare("SELECT body FROM events WHERE room = ? AND at = ?");
    session.execute("INSERT INTO app.events (room, at, body) VALUES ('p', 1, 'x')");
    assertThat(session.execute(select.bind("p", 1)).one().getString(0)).isEqualTo("x");
    // another session (other connections, no keyspace): the same query text in keyspace app
    try (CqlSession other = DriverSessions.connect(server, "app", "none", protocolVersion())) {
      PreparedStatement again = other.prepare("SELECT body FROM events WHERE room = ? AND at = ?");
      assertThat(again.getId()).isEqualTo(select.getId());
      assertThat(other.execute(again.bind("p", 1)).one().getString(0)).isEqualTo("x");
    }
    // a session in no keyspace runs the statement in the keyspace it was prepared in
    try (CqlSession noKeyspace = DriverSessions.connect(server, null, "none", protocolVersion())) {
      assertThat(noKeyspace.execute(select.bind("p", 1)).one().getString(0)).isEqualTo("x");
    }
    assertThat(select.getVariableDefinitions().get(0).getName().asInternal()).isEqualTo("room");
    assertThat(select.getResultSetDefinitions().get(0).getName().asInternal()).isEqualTo("body");
  }

  @Test
  void pagesThroughALargePartition() {
    PreparedStatement insert =
        session.prepare("INSERT INTO events (room, at, body) VALUES ('big', ?, ?)");
    for (int i = 0; i < 250; i++) {
      session.execute(insert.bind(i, "m" + i));
    }
    ResultSet rs =
        session.execute(
            SimpleStatement.newInstance("SELECT at FROM events WHERE room = 'big'")
                .setPageSize(100));
    assertThat(rs.getAvailableWithoutFetching()).isEqualTo(100);
    assertThat(rs.isFullyFetched()).isFalse();
    List<Integer> ats = new ArrayList<>();
    for (Row r : rs) {
      ats.add(r.getInt(0));
    }
    assertThat(ats).hasSize(250);
    assertThat(ats.get(0)).isZero();
    assertThat(ats.get(249)).isEqualTo(249);
    assertThat(ats).isSorted();
    // paging a prepared statement, resumed from a saved paging state
    PreparedStatement select = session.prepare("SELECT at FROM events WHERE room = ?");
    BoundStatement first = select.bind("big").setPageSize(40);
    ResultSet page1 = session.execute(first);
    assertThat(page1.getAvailableWithoutFetching()).isEqualTo(40);
    ByteBuffer state = page1.getExecutionInfo().getPagingState();
    assertThat(state).isNotNull();
    ResultSet page2 = session.execute(first.setPagingState(state));
    assertThat(page2.one().getInt(0)).isEqualTo(40);
  }

  @Test
  void batchesOfSimpleAndPreparedStatements() {
    PreparedStatement insert =
        session.prepare("INSERT INTO events (room, at, body) VALUES ('batch', ?, ?)");
    BatchStatement batch =
        BatchStatement.builder(DefaultBatchType.LOGGED)
            .addStatement(insert.bind(1, "a"))
            .addStatement(
                SimpleStatement.newInstance(
                    "INSERT INTO events (room, at, body) VALUES ('batch', ?, 'b') -- comment", 2))
            .addStatement(insert.bind(3, "c"))
            .build();
    session.execute(batch);
    List<String> bodies = new ArrayList<>();
    for (Row r : session.execute("SELECT body FROM events WHERE room = 'batch'")) {
      bodies.add(r.getString(0));
    }
    assertThat(bodies).containsExactly("a", "b", "c");
  }

  @Test
  void counterBatchesAndCassandrasRefusalOfCountersInALoggedBatch() {
    session.execute("CREATE TABLE hits (page text PRIMARY KEY, n counter, bytes counter)");
    PreparedStatement hit =
        session.prepare("UPDATE hits SET n = n + 1, bytes = bytes + ? WHERE page = ?");
    BatchStatement batch =
        BatchStatement.builder(DefaultBatchType.COUNTER)
            .addStatement(hit.bind(100L, "/a"))
            .addStatement(hit.bind(50L, "/a"))
            .addStatement(hit.bind(7L, "/b"))
            .addStatement(
                SimpleStatement.newInstance("UPDATE hits SET n = n - 3 WHERE page = '/b'"))
            .build();
    session.execute(batch);
    session.execute(batch);
    Row a = session.execute("SELECT n, bytes FROM hits WHERE page = '/a'").one();
    assertThat(a.getLong(0)).isEqualTo(4L);
    assertThat(a.getLong(1)).isEqualTo(300L);
    Row b = session.execute("SELECT n, bytes FROM hits WHERE page = '/b'").one();
    assertThat(b.getLong(0)).isEqualTo(-4L);
    assertThat(b.getLong(1)).isEqualTo(14L);
    assertThatThrownBy(
            () ->
                session.execute(
                    BatchStatement.builder(DefaultBatchType.LOGGED)
                        .addStatement(hit.bind(1L, "/a"))
                        .build()))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Cannot include a counter statement in a logged batch");
    PreparedStatement insert =
        session.prepare("INSERT INTO events (room, at, body) VALUES ('counted', ?, ?)");
    assertThatThrownBy(
            () ->
                session.execute(
                    BatchStatement.builder(DefaultBatchType.COUNTER)
                        .addStatement(hit.bind(1L, "/a"))
                        .addStatement(insert.bind(1, "x"))
                        .build()))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Cannot include non-counter statement in a counter batch");
    assertThat(session.execute("SELECT n FROM hits WHERE page = '/a'").one().getLong(0))
        .isEqualTo(4L);
    assertThat(session.execute("SELECT * FROM events WHERE room = 'counted'").one()).isNull();
  }

  @Test
  void errorsArriveAsTheDriversExceptions() {
    assertThatThrownBy(() -> session.execute("SELEC * FROM events"))
        .isInstanceOf(SyntaxError.class)
        .hasMessageContaining("line 1:1: unexpected 'SELEC'");
    assertThatThrownBy(() -> session.execute("SELECT * FROM nowhere WHERE k = 1"))
        .isInstanceOf(InvalidQueryException.class);
    assertThatThrownBy(() -> session.prepare("SELECT nope FROM events WHERE room = ?"))
        .isInstanceOf(InvalidQueryException.class);
    assertThatThrownBy(
            () -> session.execute("INSERT INTO events (room, at) VALUES (?, ?)", "r", "not an int"))
        .isInstanceOf(InvalidQueryException.class);
    assertThatThrownBy(() -> session.execute("CREATE TABLE events (k int PRIMARY KEY)"))
        .isInstanceOf(AlreadyExistsException.class)
        .hasMessageContaining("app.events");
    // the connection goes on after each error
    assertThat(session.execute("SELECT cluster_name FROM system.local").one().getString(0))
        .isEqualTo("Talus");
  }

  @Test
  void theDriversSchemaMetadataSeesTheTables() {
    session.execute("CREATE TABLE meta (id uuid, seq int, note text, PRIMARY KEY (id, seq))");
    assertThat(session.checkSchemaAgreement()).isTrue();
    TableMetadata t =
        session.getMetadata().getKeyspace("app").orElseThrow().getTable("meta").orElseThrow();
    assertThat(t.getPartitionKey()).hasSize(1);
    assertThat(t.getPartitionKey().get(0).getName().asInternal()).isEqualTo("id");
    assertThat(t.getClusteringColumns()).hasSize(1);
    assertThat(t.getColumns()).hasSize(3);
  }

  @Test
  void warningsReachTheClient() {
    ResultSet rs =
        session.execute("CREATE TABLE warned (k int PRIMARY KEY) WITH caching = {'keys': 'ALL'}");
    assertThat(rs.getExecutionInfo().getWarnings())
        .singleElement()
        .asString()
        .startsWith("Talus ignored the table option(s) caching");
  }

  @Test
  void tooManyTombstonesIsAReadFailure() {
    session.execute(
        "CREATE TABLE graves (k int, c int, PRIMARY KEY (k, c)) WITH extensions ="
            + " {'talus.tombstone_warn_threshold': '2', 'talus.tombstone_failure_threshold': '6'}");
    PreparedStatement delete = session.prepare("DELETE FROM graves WHERE k = ? AND c = ?");
    for (int c = 0; c < 4; c++) {
      session.execute(delete.bind(1, c));
    }
    for (int c = 0; c < 10; c++) {
      session.execute(delete.bind(2, c));
    }
    assertThat(session.execute("SELECT c FROM graves WHERE k = 1").one()).isNull();
    assertThatThrownBy(() -> session.execute("SELECT c FROM graves WHERE k = 2"))
        .isInstanceOf(ReadFailureException.class);
  }
}
