package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ColumnDefinitions;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.type.DataTypes;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Aggregates, GROUP BY, DISTINCT and token ranges through the real Java driver: the result columns'
 * names and types as a Cassandra 5.0 node sends them ({@code count} a bigint, {@code system.sum(v)}
 * an int), the driver's automatic paging over groups, and a table read by splitting the token ring
 * the way drivers and Spark do.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AggregatesDriverTest {
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
        "CREATE KEYSPACE IF NOT EXISTS agg WITH replication = {'class': 'SimpleStrategy',"
            + " 'replication_factor': 1}");
    session.execute(
        "CREATE TABLE agg.r (sensor int, day int, at int, v int, PRIMARY KEY (sensor, day, at))");
    PreparedStatement ins =
        session.prepare("INSERT INTO agg.r (sensor, day, at, v) VALUES (?, ?, ?, ?)");
    for (int sensor = 0; sensor < 5; sensor++) {
      for (int day = 0; day < 4; day++) {
        for (int at = 0; at < 3; at++) {
          session.execute(ins.bind(sensor, day, at, day * 10 + at));
        }
      }
    }
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
  void countAndAggregatesHaveCassandrasNamesAndTypes() {
    Row row =
        session
            .execute("SELECT count(*), sum(v), avg(v), max(v) FROM agg.r WHERE sensor = 1")
            .one();
    ColumnDefinitions defs = row.getColumnDefinitions();
    assertThat(defs.get(0).getName().asInternal()).isEqualTo("count");
    assertThat(defs.get(0).getType()).isEqualTo(DataTypes.BIGINT);
    assertThat(defs.get(1).getName().asInternal()).isEqualTo("system.sum(v)");
    assertThat(defs.get(1).getType()).isEqualTo(DataTypes.INT);
    assertThat(row.getLong("count")).isEqualTo(12L);
    assertThat(row.getInt(1)).isEqualTo(3 * (0 + 10 + 20 + 30) + 4 * (0 + 1 + 2));
    assertThat(row.getInt(3)).isEqualTo(32);
    assertThat(session.execute("SELECT count(1) FROM agg.r").one().getLong(0)).isEqualTo(60L);
  }

  @Test
  void groupByIsPagedByTheDriverOneGroupAtATime() {
    SimpleStatement q =
        SimpleStatement.newInstance("SELECT sensor, day, count(*) FROM agg.r GROUP BY sensor, day")
            .setPageSize(3);
    ResultSet rs = session.execute(q);
    assertThat(rs.getAvailableWithoutFetching()).isEqualTo(3);
    List<String> groups = new ArrayList<>();
    for (Row r : rs) {
      assertThat(r.getLong(2)).isEqualTo(3L);
      groups.add(r.getInt(0) + ":" + r.getInt(1));
    }
    assertThat(groups).hasSize(20).doesNotHaveDuplicates();
  }

  @Test
  void distinctPartitionKeysAndTokenRangesSplitTheTable() {
    List<Row> keys = session.execute("SELECT DISTINCT sensor FROM agg.r").all();
    assertThat(keys).hasSize(5);
    PreparedStatement range =
        session.prepare(
            "SELECT sensor, day, at, token(sensor) FROM agg.r WHERE token(sensor) > ? AND token(sensor) <= ?");
    PreparedStatement first =
        session.prepare("SELECT sensor, day, at FROM agg.r WHERE token(sensor) <= ?");
    long mid = 0;
    Set<String> seen = new HashSet<>();
    int rows = 0;
    for (Row r : session.execute(first.bind(mid))) {
      seen.add(r.getInt(0) + ":" + r.getInt(1) + ":" + r.getInt(2));
      rows++;
    }
    for (Row r : session.execute(range.bind(mid, Long.MAX_VALUE))) {
      assertThat(r.getLong(3)).isGreaterThan(mid);
      seen.add(r.getInt(0) + ":" + r.getInt(1) + ":" + r.getInt(2));
      rows++;
    }
    assertThat(rows).isEqualTo(60);
    assertThat(seen).hasSize(60);
  }

  @Test
  void invalidGroupByComesBackAsAnInvalidQuery() {
    assertThatThrownBy(() -> session.execute("SELECT count(*) FROM agg.r GROUP BY v"))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining(
            "Group by is currently only supported on the columns of the PRIMARY KEY");
  }
}
