package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.DataType;
import dev.talus.cql.ColumnType;
import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlRow;
import dev.talus.cql.PreparedCql;
import dev.talus.cql.TalusSession;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cassandra 5.0's native aggregates through CQL: {@code count(*)}/{@code count(1)} named {@code
 * count}, the others named {@code system.f(arg)}; result types as Cassandra's AggregateFcts
 * declares them (count a bigint, sum and avg of an int an int, of a varint a varint, and so on);
 * over a partition, a slice and a whole-table scan; one row even over no rows; plain columns beside
 * aggregates showing the first row's value.
 */
class AggregatesCqlTest {
  @TempDir Path dir;
  private CqlDb t;
  private TalusSession cql;

  @BeforeEach
  void schema() {
    t = new CqlDb(dir);
    cql = t.cql;
    cql.execute(
        "CREATE TABLE m (k int, c int, i int, b bigint, vi varint, d double, dec decimal, txt text,"
            + " PRIMARY KEY (k, c))");
    PreparedCql ins =
        cql.prepare("INSERT INTO m (k, c, i, b, vi, d, dec, txt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    for (int k = 0; k < 3; k++) {
      for (int c = 0; c < 4; c++) {
        ins.execute(
            k,
            c,
            k * 10 + c,
            (long) c,
            BigInteger.valueOf(c),
            c + 0.5,
            new BigDecimal(c + ".25"),
            "t" + (3 - c));
      }
    }
    cql.execute("INSERT INTO m (k, c) VALUES (9, 0)"); // a row with no values
  }

  @AfterEach
  void close() {
    t.close();
  }

  private CqlRow one(String query, Object... values) {
    CqlResult r = cql.execute(query, values);
    assertThat(r.rows()).hasSize(1);
    return r.rows().get(0);
  }

  @Test
  void countStarAndCountOneAreNamedCountAndTypedBigint() {
    for (String q : List.of("SELECT count(*) FROM m", "SELECT COUNT(1) FROM m")) {
      CqlResult r = cql.execute(q);
      assertThat(r.columns()).extracting(CqlColumn::name).containsExactly("count");
      assertThat(r.columns().get(0).type()).isEqualTo(ColumnType.of(DataType.BIGINT));
      assertThat(r.rows().get(0).get(0)).isEqualTo(13L);
    }
  }

  @Test
  void aggregatesOfAPartitionASliceAndAScan() {
    assertThat(one("SELECT count(*) FROM m WHERE k = 1").get(0)).isEqualTo(4L);
    assertThat(one("SELECT count(*) FROM m WHERE k = 1 AND c > 1").get(0)).isEqualTo(2L);
    assertThat(one("SELECT count(*) FROM m WHERE k IN (0, 2, 7)").get(0)).isEqualTo(8L);
    CqlRow scan = one("SELECT count(i), min(i), max(i), sum(i), avg(i) FROM m");
    assertThat(scan.columns())
        .extracting(CqlColumn::name)
        .containsExactly(
            "system.count(i)", "system.min(i)", "system.max(i)", "system.sum(i)", "system.avg(i)");
    // i = k * 10 + c for k 0..2, c 0..3: 0..3, 10..13, 20..23; k = 9 has no i
    assertThat(List.of(scan.get(0), scan.get(1), scan.get(2), scan.get(3), scan.get(4)))
        .containsExactly(12L, 0, 23, 138, 11);
    CqlRow slice = one("SELECT sum(b), avg(d), max(txt), min(txt) FROM m WHERE k = 2 AND c >= 2");
    assertThat(List.of(slice.get(0), slice.get(1), slice.get(2), slice.get(3)))
        .containsExactly(5L, 3.0, "t1", "t0");
  }

  @Test
  void resultTypesFollowCassandra() {
    CqlResult r = cql.execute("SELECT sum(i), avg(i), sum(vi), avg(dec), sum(d), max(txt) FROM m");
    assertThat(r.columns())
        .extracting(CqlColumn::type)
        .containsExactly(
            ColumnType.of(DataType.INT),
            ColumnType.of(DataType.INT),
            ColumnType.of(DataType.VARINT),
            ColumnType.of(DataType.DECIMAL),
            ColumnType.of(DataType.DOUBLE),
            ColumnType.of(DataType.TEXT));
    CqlRow row = r.rows().get(0);
    assertThat(row.get(2)).isEqualTo(BigInteger.valueOf(18)); // 3 * (0 + 1 + 2 + 3)
    assertThat(row.get(3)).isEqualTo(new BigDecimal("1.75"));
    assertThat(row.get(4)).isEqualTo(24.0);
  }

  @Test
  void noRowsStillGiveOneRow() {
    CqlRow r = one("SELECT count(*), sum(i), max(i), k FROM m WHERE k = 5");
    assertThat(r.get(0)).isEqualTo(0L);
    assertThat(r.get(1)).isEqualTo(0);
    assertThat(r.get(2)).isNull();
    assertThat(r.get(3)).isNull();
  }

  @Test
  void plainColumnsBesideAggregatesShowTheFirstRow() {
    CqlRow r = one("SELECT k, c, max(c) AS top, writetime(i) FROM m WHERE k = 1");
    assertThat(r.get("k")).isEqualTo(1);
    assertThat(r.get("c")).isEqualTo(0);
    assertThat(r.get("top")).isEqualTo(3);
  }

  @Test
  void aggregatesOfComputedSelectorsAndPerPartitionLimit() {
    CqlRow r = one("SELECT max(writetime(i)), count(token(k)) FROM m WHERE k = 0");
    assertThat(r.columns().get(0).name()).isEqualTo("system.max(writetime(i))");
    assertThat(r.get(0)).isInstanceOf(Long.class);
    assertThat(r.get(1)).isEqualTo(4L);
    assertThat(one("SELECT count(*) FROM m PER PARTITION LIMIT 2").get(0)).isEqualTo(7L);
    assertThat(one("SELECT count(*) FROM m WHERE k = 1 LIMIT 1").get(0)).isEqualTo(4L);
  }

  @Test
  void aggregatesReadPastTheInternalPageAndAreNeverPaged() {
    PreparedCql ins = cql.prepare("INSERT INTO m (k, c, i) VALUES (?, ?, ?)");
    int rows = 10_007; // more than two internal pages of 5 000 rows
    for (int c = 0; c < rows; c++) {
      ins.execute(100, c, 1);
    }
    t.db.table("m").flush();
    CqlResult r =
        cql.execute(
            cql.prepare("SELECT count(*), sum(i) FROM m WHERE k = 100").bind().fetchSize(3));
    assertThat(r.rows().get(0).get(0)).isEqualTo((long) rows);
    assertThat(r.rows().get(0).get(1)).isEqualTo(rows);
    assertThat(r.hasMorePages()).isFalse();
  }

  @Test
  void selectJsonOfAggregates() {
    assertThat(one("SELECT JSON count(*), max(c) FROM m WHERE k = 0").get(0))
        .isEqualTo("{\"count\": 4, \"\\\"system.max(c)\\\"\": 3}"); // quoted as a CQL name
  }

  @Test
  void invalidAggregatesAreRefusedAsCassandraRefusesThem() {
    assertThatThrownBy(() -> cql.execute("SELECT sum(txt) FROM m"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("sum needs a numeric column");
    assertThatThrownBy(() -> cql.execute("SELECT count(2) FROM m"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("Only COUNT(1) is supported, got COUNT(2)");
    assertThatThrownBy(() -> cql.execute("SELECT max(i, c) FROM m"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("1 required but 2 provided");
    assertThatThrownBy(() -> cql.execute("SELECT max(count(*)) FROM m"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("cannot be used as arguments of aggregate functions");
    assertThatThrownBy(() -> cql.execute("SELECT * FROM m WHERE k = max(1)"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("can only be used in the selection of a SELECT");
  }
}
