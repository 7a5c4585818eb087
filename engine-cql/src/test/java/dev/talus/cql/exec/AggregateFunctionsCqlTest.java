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
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Functions and casts of aggregates, as Cassandra 5.0 runs them: the aggregate folds the rows of
 * its group and the function or cast is applied to its result ({@code cast(count(*) as int)},
 * {@code toJson(max(x))}, {@code blobAsBigint(bigintAsBlob(count(*)))}), named as Cassandra names
 * them ({@code cast(count as int)}, {@code system.tojson(system.max(i))}), aliased, per group of a
 * {@code GROUP BY}, and over no rows.
 */
class AggregateFunctionsCqlTest {
  @TempDir Path dir;
  private CqlDb t;
  private TalusSession cql;

  @BeforeEach
  void schema() {
    t = new CqlDb(dir);
    cql = t.cql;
    cql.execute("CREATE TABLE m (k int, c int, i int, b bigint, PRIMARY KEY (k, c))");
    PreparedCql ins = cql.prepare("INSERT INTO m (k, c, i, b) VALUES (?, ?, ?, ?)");
    for (int k = 0; k < 3; k++) {
      for (int c = 0; c < 4; c++) {
        ins.execute(k, c, k * 10 + c, (long) c);
      }
    }
  }

  @AfterEach
  void close() {
    t.close();
  }

  private CqlRow one(String query) {
    CqlResult r = cql.execute(query);
    assertThat(r.rows()).hasSize(1);
    return r.rows().get(0);
  }

  @Test
  void castOfAnAggregateCastsItsResult() {
    CqlResult r = cql.execute("SELECT cast(count(*) AS int), CAST(max(i) AS text) FROM m");
    assertThat(r.columns())
        .extracting(CqlColumn::name)
        .containsExactly("cast(count as int)", "cast(system.max(i) as text)");
    assertThat(r.columns())
        .extracting(CqlColumn::type)
        .containsExactly(ColumnType.of(DataType.INT), ColumnType.of(DataType.TEXT));
    assertThat(r.rows().get(0).get(0)).isEqualTo(12);
    assertThat(r.rows().get(0).get(1)).isEqualTo("23");
  }

  @Test
  void functionsOfAggregatesAndNestedFunctions() {
    CqlRow r =
        one(
            "SELECT toJson(max(i)), blobAsBigint(bigintAsBlob(count(*))), toJson(min(b))"
                + " FROM m WHERE k = 1");
    assertThat(r.columns())
        .extracting(CqlColumn::name)
        .containsExactly(
            "system.tojson(system.max(i))",
            "system.blobasbigint(system.bigintasblob(count))",
            "system.tojson(system.min(b))");
    assertThat(r.get(0)).isEqualTo("13");
    assertThat(r.get(1)).isEqualTo(4L);
    assertThat(r.get(2)).isEqualTo("0");
  }

  @Test
  void aliasesNameTheResult() {
    CqlRow r =
        one("SELECT cast(sum(b) AS int) AS total, toJson(avg(i)) AS mean FROM m WHERE k = 2");
    assertThat(r.columns()).extracting(CqlColumn::name).containsExactly("total", "mean");
    assertThat(r.get("total")).isEqualTo(6);
    assertThat(r.get("mean")).isEqualTo("21");
  }

  @Test
  void eachGroupOfAGroupByGetsItsOwnResult() {
    CqlResult r =
        cql.execute("SELECT k, cast(sum(i) AS bigint), toJson(count(*)) FROM m GROUP BY k");
    assertThat(r.rows()).hasSize(3);
    for (CqlRow row : r.rows()) {
      int k = (Integer) row.get(0);
      assertThat(row.get(1)).isEqualTo((long) (k * 40 + 6));
      assertThat(row.get(2)).isEqualTo("4");
    }
  }

  @Test
  void overNoRowsTheFunctionSeesTheEmptyResult() {
    CqlRow r =
        one(
            "SELECT cast(count(*) AS int), toJson(max(i)), cast(sum(i) AS text) FROM m"
                + " WHERE k = 7");
    assertThat(r.get(0)).isEqualTo(0);
    assertThat(r.get(1)).isEqualTo("null");
    assertThat(r.get(2)).isEqualTo("0");
  }

  @Test
  void selectJsonAndAPlainColumnBesideAFunctionOfAnAggregate() {
    assertThat(one("SELECT JSON k, cast(count(*) AS int) FROM m WHERE k = 2").get(0))
        .isEqualTo("{\"k\": 2, \"\\\"cast(count as int)\\\"\": 4}");
  }

  @Test
  void aCastToTheSameTypeIsTheValueItself() {
    CqlResult r = cql.execute("SELECT CAST(i AS int), CAST(b AS int) FROM m WHERE k = 0 AND c = 1");
    assertThat(r.columns()).extracting(CqlColumn::name).containsExactly("i", "cast(b as int)");
    assertThat(List.of(r.rows().get(0).get(0), r.rows().get(0).get(1))).containsExactly(1, 1);
  }

  @Test
  void anAggregateOfAFunctionOfAnAggregateIsRefused() {
    assertThatThrownBy(() -> cql.execute("SELECT max(cast(count(*) AS int)) FROM m"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("Aggregate functions cannot be used as arguments of aggregate");
  }
}
