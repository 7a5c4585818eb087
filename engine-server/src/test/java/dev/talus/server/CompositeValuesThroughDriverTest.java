package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.data.CqlVector;
import com.datastax.oss.driver.api.core.data.TupleValue;
import com.datastax.oss.driver.api.core.data.UdtValue;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.TupleType;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cassandra's composite values through the Java driver: collections, tuples, user types (through
 * the driver's schema metadata and codecs), vectors, static columns and counters, by simple and
 * prepared statements, and the collection operations of UPDATE.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CompositeValuesThroughDriverTest {
  @TempDir static Path dir;
  private TalusDb db;
  private TalusServer server;
  private CqlSession session;

  @BeforeAll
  void start() {
    db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
    server = TalusServer.start(db);
    session = DriverSessions.connect(server);
    session.execute(
        "CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    session.execute("USE app");
    session.execute("CREATE TYPE address (street text, city text, zip int)");
    session.execute(
        "CREATE TABLE c (k int, n int, tags set<text>, scores map<text, int>, events list<text>,"
            + " pair tuple<int, text>, home frozen<address>, live address, emb vector<float, 3>,"
            + " owner text STATIC, PRIMARY KEY (k, n))");
    session.execute("CREATE TABLE hits (page text PRIMARY KEY, views counter)");
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
  void everyKindRoundTripsThroughAPreparedStatement() {
    UserDefinedType address =
        session
            .getMetadata()
            .getKeyspace("app")
            .flatMap(ks -> ks.getUserDefinedType("address"))
            .orElseThrow();
    UdtValue home = address.newValue().setString("street", "Main").setString("city", "Oslo");
    UdtValue live = address.newValue().setString("city", "Rome").setInt("zip", 7);
    TupleType pairType = DataTypes.tupleOf(DataTypes.INT, DataTypes.TEXT);
    TupleValue pair = pairType.newValue(1, "one");
    PreparedStatement insert =
        session.prepare(
            "INSERT INTO c (k, n, tags, scores, events, pair, home, live, emb, owner)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    session.execute(
        insert.bind(
            1,
            1,
            Set.of("b", "a"),
            Map.of("x", 1),
            List.of("e1", "e2"),
            pair,
            home,
            live,
            CqlVector.newInstance(1.5f, 2f, -3f),
            "Ann"));
    Row r =
        session.execute(session.prepare("SELECT * FROM c WHERE k = ? AND n = ?").bind(1, 1)).one();
    assertThat(r.getSet("tags", String.class)).containsExactly("a", "b");
    assertThat(r.getMap("scores", String.class, Integer.class)).containsEntry("x", 1);
    assertThat(r.getList("events", String.class)).containsExactly("e1", "e2");
    assertThat(r.getTupleValue("pair").getString(1)).isEqualTo("one");
    assertThat(r.getUdtValue("home").getString("city")).isEqualTo("Oslo");
    assertThat(r.getUdtValue("live").getInt("zip")).isEqualTo(7);
    assertThat(r.getUdtValue("live").isNull("street")).isTrue();
    CqlVector<Float> emb = r.getVector("emb", Float.class);
    assertThat(emb).containsExactly(1.5f, 2f, -3f);
    assertThat(r.getString("owner")).isEqualTo("Ann");
  }

  @Test
  void collectionOperationsAndElementsBySimpleAndPreparedStatements() {
    session.execute(
        "INSERT INTO c (k, n, tags, scores, events) VALUES (2, 1, {'a'}, {'x': 1}, ['m'])");
    session.execute(
        session
            .prepare(
                "UPDATE c SET tags = tags + ?, scores[?] = ?, events = ? + events WHERE k = ? AND n = ?")
            .bind(Set.of("b"), "y", 2, List.of("first"), 2, 1));
    session.execute("UPDATE c SET live.city = 'Bergen' WHERE k = 2 AND n = 1");
    session.execute("DELETE scores['x'] FROM c WHERE k = 2 AND n = 1");
    Row r =
        session
            .execute(
                "SELECT tags, scores, events, live.city, scores['y'] FROM c WHERE k = 2 AND n = 1")
            .one();
    assertThat(r.getSet(0, String.class)).containsExactly("a", "b");
    assertThat(r.getMap(1, String.class, Integer.class)).containsExactly(Map.entry("y", 2));
    assertThat(r.getList(2, String.class)).containsExactly("first", "m");
    assertThat(r.getString(3)).isEqualTo("Bergen");
    assertThat(r.getInt(4)).isEqualTo(2);
    assertThat(
            session
                .execute("SELECT n FROM c WHERE k = 2 AND tags CONTAINS 'b' ALLOW FILTERING")
                .all())
        .hasSize(1);
  }

  @Test
  void countersIncrement() {
    PreparedStatement inc = session.prepare("UPDATE hits SET views = views + ? WHERE page = ?");
    for (int i = 0; i < 5; i++) {
      session.execute(inc.bind(2L, "home"));
    }
    session.execute("UPDATE hits SET views = views - 1 WHERE page = 'home'");
    Row r = session.execute("SELECT views FROM hits WHERE page = 'home'").one();
    assertThat(r.getLong("views")).isEqualTo(9L);
    assertThat(r.getColumnDefinitions().get(0).getType()).isEqualTo(DataTypes.COUNTER);
  }

  @Test
  void theDriversSchemaMetadataSeesTheTypes() {
    var table = session.getMetadata().getKeyspace("app").orElseThrow().getTable("c").orElseThrow();
    assertThat(table.getColumn("tags").orElseThrow().getType())
        .isEqualTo(DataTypes.setOf(DataTypes.TEXT));
    assertThat(table.getColumn("home").orElseThrow().getType()).isInstanceOf(UserDefinedType.class);
    assertThat(table.getColumn("owner").orElseThrow().isStatic()).isTrue();
    assertThat(table.getColumn("emb").orElseThrow().getType())
        .isEqualTo(DataTypes.vectorOf(DataTypes.FLOAT, 3));
  }
}
