package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ColumnDefinitions;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.data.TupleValue;
import com.datastax.oss.driver.api.core.data.UdtValue;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.type.DataTypes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Element slices with bind markers, {@code writetime()}/{@code ttl()} of collections and of their
 * elements, {@code SELECT DISTINCT} over several pages and {@code INSERT JSON} of composite values,
 * through the real Java driver: the types it is told (a slice has the collection's type, the write
 * times of a collection a {@code list<bigint>}) must be those a Cassandra 5.0 node sends, or its
 * codecs fail.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CollectionSelectorsDriverTest {
  @TempDir static Path dir;
  private DriverFixture fixture;
  private CqlSession session;

  @BeforeAll
  void start() {
    fixture = DriverFixture.open(dir);
    session = fixture.session;
    session.execute(
        "CREATE KEYSPACE cs WITH replication = {'class': 'SimpleStrategy',"
            + " 'replication_factor': 1}");
    session.execute("USE cs");
    session.execute("CREATE TYPE point (x int, y int)");
    session.execute(
        "CREATE TABLE c (k int PRIMARY KEY, s set<int>, m map<text, int>, fs frozen<set<int>>,"
            + " l list<text>, pair tuple<int, text>, at frozen<point>, pts map<text, frozen<point>>)");
    session.execute(
        "INSERT INTO c (k, s, m, fs, l) VALUES (1, {1, 3, 5, 7}, {'a': 1, 'b': 2, 'd': 4},"
            + " {2, 4, 6}, ['x', 'y']) USING TIMESTAMP 1000 AND TTL 100000");
    session.execute("UPDATE c USING TIMESTAMP 2000 SET s = s + {9}, m['c'] = 3 WHERE k = 1");
  }

  @AfterAll
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test
  void slicesWithBindMarkersHaveTheCollectionsTypes() {
    PreparedStatement q =
        session.prepare("SELECT s[?..?], m[?..?], m[?], fs[?..?] FROM c WHERE k = ?");
    ColumnDefinitions vars = q.getVariableDefinitions();
    assertThat(vars.get(0).getType()).isEqualTo(DataTypes.INT);
    assertThat(vars.get(2).getType()).isEqualTo(DataTypes.TEXT);
    assertThat(vars.get(4).getType()).isEqualTo(DataTypes.TEXT);
    assertThat(vars.get(7).getType()).isEqualTo(DataTypes.INT);
    ColumnDefinitions cols = q.getResultSetDefinitions();
    assertThat(cols.get(0).getType()).isEqualTo(DataTypes.setOf(DataTypes.INT));
    assertThat(cols.get(1).getType()).isEqualTo(DataTypes.mapOf(DataTypes.TEXT, DataTypes.INT));
    assertThat(cols.get(2).getType()).isEqualTo(DataTypes.INT);
    assertThat(cols.get(3).getType()).isEqualTo(DataTypes.frozenSetOf(DataTypes.INT));
    Row r = session.execute(q.bind(3, 7, "b", "c", "d", 3, 4, 1)).one();
    assertThat(r.getSet(0, Integer.class)).containsExactly(3, 5, 7);
    assertThat(r.getMap(1, String.class, Integer.class))
        .containsExactly(Map.entry("b", 2), Map.entry("c", 3));
    assertThat(r.getInt(2)).isEqualTo(4);
    assertThat(r.getSet(3, Integer.class)).containsExactly(4);
    // an unset bound leaves that side open; nothing kept is null (frozen: the empty set)
    Row open =
        session
            .execute(
                q.bind()
                    .setInt(0, 4)
                    .setString(2, "a")
                    .setString(4, "zz")
                    .setInt(5, 100)
                    .setInt(6, 200)
                    .setInt(7, 1))
            .one();
    assertThat(open.getSet(0, Integer.class)).containsExactly(5, 7, 9);
    assertThat(open.getMap(1, String.class, Integer.class)).containsOnlyKeys("a", "b", "c", "d");
    assertThat(open.isNull(2)).isTrue();
    assertThat(open.getSet(3, Integer.class)).isEmpty();
    assertThat(open.isNull(3)).isFalse();
    assertThatThrownBy(() -> session.execute(q.bind(null, 7, "b", "c", "d", 3, 4, 1)))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Invalid null value for slice selection on s");
  }

  @Test
  void writetimeAndTtlOfCollectionsAreListsAndOfElementsSingleValues() {
    PreparedStatement q =
        session.prepare(
            "SELECT writetime(s), ttl(s), writetime(m['c']), ttl(m['a']), writetime(s[5..9]),"
                + " maxwritetime(m), writetime(fs), ttl(fs) FROM c WHERE k = ?");
    ColumnDefinitions cols = q.getResultSetDefinitions();
    assertThat(cols.get(0).getType()).isEqualTo(DataTypes.listOf(DataTypes.BIGINT));
    assertThat(cols.get(0).getName().asInternal()).isEqualTo("writetime(s)");
    assertThat(cols.get(1).getType()).isEqualTo(DataTypes.listOf(DataTypes.INT));
    assertThat(cols.get(2).getType()).isEqualTo(DataTypes.BIGINT);
    assertThat(cols.get(3).getType()).isEqualTo(DataTypes.INT);
    assertThat(cols.get(4).getType()).isEqualTo(DataTypes.listOf(DataTypes.BIGINT));
    assertThat(cols.get(5).getType()).isEqualTo(DataTypes.BIGINT);
    assertThat(cols.get(6).getType()).isEqualTo(DataTypes.BIGINT);
    assertThat(cols.get(7).getType()).isEqualTo(DataTypes.INT);
    Row r = session.execute(q.bind(1)).one();
    assertThat(r.getList(0, Long.class)).containsExactly(1000L, 1000L, 1000L, 1000L, 2000L);
    List<Integer> ttls = r.getList(1, Integer.class);
    assertThat(ttls).hasSize(5);
    assertThat(ttls.subList(0, 4)).allSatisfy(t -> assertThat(t).isBetween(1, 100_000));
    assertThat(ttls.get(4)).isNull(); // the element added without a TTL
    assertThat(r.getLong(2)).isEqualTo(2000L);
    assertThat(r.getInt(3)).isBetween(1, 100_000);
    assertThat(r.getList(4, Long.class)).containsExactly(1000L, 1000L, 2000L);
    assertThat(r.getLong(5)).isEqualTo(2000L);
    assertThat(r.getLong(6)).isEqualTo(1000L);
    assertThat(r.getInt(7)).isBetween(1, 100_000);
    Row absent =
        session
            .execute(
                session.prepare("SELECT writetime(m['zz']), ttl(s[100]) FROM c WHERE k = 1").bind())
            .one();
    assertThat(absent.isNull(0)).isTrue();
    assertThat(absent.isNull(1)).isTrue();
  }

  @Test
  void selectDistinctPagesOverPartitionsOfManyRows() {
    session.execute("CREATE TABLE d (p int, c int, st text STATIC, v int, PRIMARY KEY (p, c))");
    PreparedStatement ins = session.prepare("INSERT INTO d (p, c, st, v) VALUES (?, ?, ?, ?)");
    for (int p = 0; p < 23; p++) {
      for (int c = 0; c < 10; c++) {
        session.execute(ins.bind(p, c, "s" + p, c));
      }
    }
    for (int pageSize : new int[] {1, 4, 10}) {
      for (String cql : List.of("SELECT DISTINCT p FROM d", "SELECT DISTINCT p, st FROM d")) {
        ResultSet rs = session.execute(SimpleStatement.newInstance(cql).setPageSize(pageSize));
        assertThat(rs.getAvailableWithoutFetching()).isEqualTo(pageSize);
        List<Integer> keys = new ArrayList<>();
        for (Row r : rs) {
          keys.add(r.getInt("p"));
          if (r.getColumnDefinitions().contains("st")) {
            assertThat(r.getString("st")).isEqualTo("s" + r.getInt("p"));
          }
        }
        assertThat(keys).hasSize(23).doesNotHaveDuplicates();
      }
    }
    PreparedStatement prepared = session.prepare("SELECT DISTINCT p FROM d");
    assertThat(session.execute(prepared.bind().setPageSize(5)).all()).hasSize(23);
  }

  @Test
  void insertJsonOfCompositeValuesReadsBackThroughTheCodecs() {
    PreparedStatement json = session.prepare("INSERT INTO c JSON ?");
    assertThat(json.getVariableDefinitions().get(0).getType()).isEqualTo(DataTypes.TEXT);
    assertThat(json.getVariableDefinitions().get(0).getName().asInternal()).isEqualTo("[json]");
    session.execute(
        json.bind(
            "{\"k\": 7, \"s\": [3, 1], \"m\": {\"a\": 1}, \"fs\": [], \"l\": [\"q\", \"r\"],"
                + " \"pair\": [5, \"five\"], \"at\": {\"x\": 1, \"y\": 2},"
                + " \"pts\": {\"home\": {\"x\": 3}}}"));
    Row r = session.execute("SELECT * FROM c WHERE k = 7").one();
    assertThat(r.getSet("s", Integer.class)).containsExactly(1, 3);
    assertThat(r.getMap("m", String.class, Integer.class)).containsExactly(Map.entry("a", 1));
    assertThat(r.getSet("fs", Integer.class)).isEmpty();
    assertThat(r.getList("l", String.class)).containsExactly("q", "r");
    TupleValue pair = r.getTupleValue("pair");
    assertThat(pair.getInt(0)).isEqualTo(5);
    assertThat(pair.getString(1)).isEqualTo("five");
    UdtValue at = r.getUdtValue("at");
    assertThat(at.getInt("x")).isEqualTo(1);
    assertThat(at.getInt("y")).isEqualTo(2);
    UdtValue home = r.getMap("pts", String.class, UdtValue.class).get("home");
    assertThat(home.getInt("x")).isEqualTo(3);
    assertThat(home.isNull("y")).isTrue();
    // SELECT JSON writes what INSERT JSON reads: the row goes round trip through the driver
    String written = session.execute("SELECT JSON * FROM c WHERE k = 7").one().getString(0);
    session.execute("DELETE FROM c WHERE k = 7");
    session.execute(json.bind(written));
    Row again = session.execute("SELECT * FROM c WHERE k = 7").one();
    assertThat(again.getSet("s", Integer.class)).isEqualTo(Set.of(1, 3));
    assertThat(again.getTupleValue("pair").getString(1)).isEqualTo("five");
    assertThat(again.getMap("pts", String.class, UdtValue.class).get("home").getInt("x"))
        .isEqualTo(3);
  }
}
