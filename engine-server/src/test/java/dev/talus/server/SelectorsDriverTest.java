package dev.talus.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ColumnDefinitions;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.internal.core.metadata.token.Murmur3Token;
import dev.talus.TalusDb;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The aggregates and {@code token()} through the real Java driver, judged by its codecs: every
 * result column must carry the type code a Cassandra 5.0 node sends, or the driver's typed getter
 * fails. Each query runs as a simple statement and as a prepared one (whose result metadata the
 * driver keeps from PREPARE and uses to decode every EXECUTE).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SelectorsDriverTest {
  @TempDir static Path dir;
  private DriverFixture fixture;
  private TalusDb db;
  private CqlSession session;

  @BeforeAll
  void start() {
    fixture = DriverFixture.open(dir);
    db = fixture.db;
    session = fixture.session;
    session.execute(
        "CREATE KEYSPACE sel WITH replication = {'class': 'SimpleStrategy',"
            + " 'replication_factor': 1}");
    session.execute("USE sel");
    session.execute(
        "CREATE TABLE nums (k int, c int, i int, b bigint, d double, f float, dec decimal,"
            + " vi varint, si smallint, ti tinyint, t text, ts timestamp, PRIMARY KEY (k, c))");
    PreparedStatement ins =
        session.prepare(
            "INSERT INTO nums (k, c, i, b, d, f, dec, vi, si, ti, t, ts)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (int c = 1; c <= 4; c++) {
      session.execute(
          ins.bind(
              0,
              c,
              c,
              10_000_000_000L * c,
              c / 2.0,
              c * 1.5f,
              new BigDecimal(c + ".25"),
              BigInteger.TEN.pow(20).multiply(BigInteger.valueOf(c)),
              (short) (c * 100),
              (byte) c,
              "t" + c,
              Instant.ofEpochMilli(1_000L * c)));
    }
    session.execute("INSERT INTO nums (k, c) VALUES (0, 5)"); // nulls are skipped
  }

  @AfterAll
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  private static final String AGGREGATES =
      "SELECT count(*), count(i), min(i), max(t), sum(b), avg(d), sum(f), sum(dec), avg(vi),"
          + " sum(si), max(ti), min(ts), avg(i) AS mean FROM nums WHERE k = ";

  private static final List<DataType> AGGREGATE_TYPES =
      List.of(
          DataTypes.BIGINT,
          DataTypes.BIGINT,
          DataTypes.INT,
          DataTypes.TEXT,
          DataTypes.BIGINT,
          DataTypes.DOUBLE,
          DataTypes.FLOAT,
          DataTypes.DECIMAL,
          DataTypes.VARINT,
          DataTypes.SMALLINT,
          DataTypes.TINYINT,
          DataTypes.TIMESTAMP,
          DataTypes.INT);

  @Test
  void everyAggregateHasCassandrasResultTypeAndDecodes() {
    PreparedStatement prepared = session.prepare(AGGREGATES + "?");
    assertThat(types(prepared.getResultSetDefinitions())).isEqualTo(AGGREGATE_TYPES);
    assertThat(prepared.getResultSetDefinitions().get(1).getName().asInternal())
        .isEqualTo("system.count(i)");
    assertThat(prepared.getResultSetDefinitions().get(12).getName().asInternal()).isEqualTo("mean");
    for (Row r :
        List.of(session.execute(AGGREGATES + "0").one(), session.execute(prepared.bind(0)).one())) {
      assertThat(types(r.getColumnDefinitions())).isEqualTo(AGGREGATE_TYPES);
      assertThat(r.getLong(0)).isEqualTo(5L);
      assertThat(r.getLong(1)).isEqualTo(4L);
      assertThat(r.getInt(2)).isEqualTo(1);
      assertThat(r.getString(3)).isEqualTo("t4");
      assertThat(r.getLong(4)).isEqualTo(100_000_000_000L);
      assertThat(r.getDouble(5)).isEqualTo(1.25);
      assertThat(r.getFloat(6)).isEqualTo(15f);
      assertThat(r.getBigDecimal(7)).isEqualByComparingTo("11.00");
      assertThat(r.getBigInteger(8))
          .isEqualTo(
              BigInteger.TEN
                  .pow(20)
                  .multiply(BigInteger.valueOf(10))
                  .divide(BigInteger.valueOf(4)));
      assertThat(r.getShort(9)).isEqualTo((short) 1000);
      assertThat(r.getByte(10)).isEqualTo((byte) 4);
      assertThat(r.getInstant(11)).isEqualTo(Instant.ofEpochMilli(1_000));
      assertThat(r.getInt("mean")).isEqualTo(2); // 10 / 4, truncated as Cassandra does
    }
  }

  @Test
  void aggregatesOverNoRowsGiveOneRowOfZerosAndNulls() {
    Row r = session.execute(session.prepare(AGGREGATES + "?").bind(42)).one();
    assertThat(r.getLong(0)).isZero();
    assertThat(r.getLong(1)).isZero();
    assertThat(r.isNull(2)).isTrue();
    assertThat(r.isNull(3)).isTrue();
    assertThat(r.getLong(4)).isZero();
    assertThat(r.getDouble(5)).isZero();
    assertThat(r.getBigDecimal(7)).isEqualByComparingTo("0");
    assertThat(r.getBigInteger(8)).isEqualTo(BigInteger.ZERO);
    assertThat(r.isNull(11)).isTrue();
  }

  @Test
  void tokenOfThePartitionKeyIsABigintTheDriverReadsAsAMurmur3Token() {
    PreparedStatement q =
        session.prepare("SELECT k, token(k) FROM nums WHERE token(k) >= ? AND token(k) <= ?");
    assertThat(q.getVariableDefinitions().get(0).getType()).isEqualTo(DataTypes.BIGINT);
    assertThat(q.getVariableDefinitions().get(0).getName().asInternal())
        .isEqualTo("partition key token");
    ColumnDefinitions defs = q.getResultSetDefinitions();
    assertThat(defs.get(1).getName().asInternal()).isEqualTo("system.token(k)");
    assertThat(defs.get(1).getType()).isEqualTo(DataTypes.BIGINT);
    List<Row> rows = session.execute(q.bind(Long.MIN_VALUE, Long.MAX_VALUE)).all();
    assertThat(rows).hasSize(5);
    // Talus's token of a key (Murmur3 of its own key encoding, not of Cassandra's serialization)
    long t = db.table("sel", "nums").token(0);
    for (Row r : rows) {
      assertThat(r.getLong(1)).isEqualTo(t);
      assertThat(r.getToken(1)).isInstanceOf(Murmur3Token.class);
      assertThat(((Murmur3Token) r.getToken(1)).getValue()).isEqualTo(t);
    }
    assertThat(session.execute(q.bind(t + 1, Long.MAX_VALUE)).all()).isEmpty();
    assertThat(session.execute(q.bind(t, t)).all()).hasSize(5);
    assertThat(session.execute(q.bind(Long.MIN_VALUE, t - 1)).all()).isEmpty();
  }

  @Test
  void groupByOverGroupsLargerThanThePageGivesEachGroupOnce() {
    session.execute("CREATE TABLE g (p int, c int, v int, PRIMARY KEY (p, c))");
    PreparedStatement ins = session.prepare("INSERT INTO g (p, c, v) VALUES (?, ?, ?)");
    for (int p = 0; p < 6; p++) {
      for (int c = 0; c < 40; c++) {
        session.execute(ins.bind(p, c, c));
      }
    }
    // page size 4 with groups of 40 rows: pages end after whole groups, never inside one
    for (int pageSize : new int[] {1, 4, 7}) {
      SimpleStatement simple =
          SimpleStatement.newInstance("SELECT p, count(*), sum(v) FROM g GROUP BY p")
              .setPageSize(pageSize);
      PreparedStatement prepared = session.prepare("SELECT p, count(*), sum(v) FROM g GROUP BY p");
      for (ResultSet rs :
          List.of(
              session.execute(simple), session.execute(prepared.bind().setPageSize(pageSize)))) {
        assertThat(rs.getAvailableWithoutFetching()).isEqualTo(Math.min(pageSize, 6));
        List<Integer> groups = new java.util.ArrayList<>();
        for (Row r : rs) {
          assertThat(r.getLong(1)).isEqualTo(40L);
          assertThat(r.getInt(2)).isEqualTo(39 * 40 / 2);
          groups.add(r.getInt(0));
        }
        assertThat(groups).hasSize(6).doesNotHaveDuplicates();
      }
    }
    // within one partition, grouped by the clustering column, a paging state handed back later
    SimpleStatement byC =
        SimpleStatement.newInstance("SELECT c, count(*) FROM g WHERE p = 2 GROUP BY c")
            .setPageSize(15);
    ResultSet first = session.execute(byC);
    assertThat(first.getAvailableWithoutFetching()).isEqualTo(15);
    List<Integer> cs = new java.util.ArrayList<>();
    for (int i = 0; i < 15; i++) {
      cs.add(first.one().getInt(0)); // the first page only: no fetch yet
    }
    ResultSet rest =
        session.execute(
            byC.setPagingState(first.getExecutionInfo().getPagingState()).setPageSize(100));
    rest.forEach(r -> cs.add(r.getInt(0)));
    assertThat(cs).hasSize(40).isSorted().doesNotHaveDuplicates();
  }

  private static List<DataType> types(ColumnDefinitions defs) {
    List<DataType> out = new java.util.ArrayList<>();
    defs.forEach(d -> out.add(d.getType()));
    return out;
  }
}
