package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlRow;
import dev.talus.cql.CqlUnsupportedException;
import dev.talus.cql.PreparedCql;
import dev.talus.cql.TalusSession;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GROUP BY} and {@code SELECT DISTINCT} through CQL, with Cassandra 5.0's semantics: a row
 * per group (its aggregates, or its first row's values), groups of the partition key or of a
 * clustering prefix, LIMIT / PER PARTITION LIMIT / page size counting groups; DISTINCT of the
 * partition key and static columns; Cassandra's errors for invalid groupings and distinct reads.
 */
class GroupByCqlTest {
  @TempDir Path dir;
  private CqlDb t;
  private TalusSession cql;

  @BeforeEach
  void schema() {
    t = new CqlDb(dir);
    cql = t.cql;
    cql.execute(
        "CREATE TABLE r (sensor int, day int, at int, v int, place text static,"
            + " PRIMARY KEY (sensor, day, at))");
    PreparedCql ins = cql.prepare("INSERT INTO r (sensor, day, at, v) VALUES (?, ?, ?, ?)");
    for (int sensor = 0; sensor < 3; sensor++) {
      for (int day = 0; day < 3; day++) {
        for (int at = 0; at < 4; at++) {
          ins.execute(sensor, day, at, sensor * 100 + day * 10 + at);
        }
      }
      cql.execute("UPDATE r SET place = ? WHERE sensor = ?", "p" + sensor, sensor);
    }
    cql.execute("INSERT INTO r (sensor, place) VALUES (9, 'nowhere')"); // statics only
  }

  @AfterEach
  void close() {
    t.close();
  }

  private static List<String> cells(CqlResult r) {
    List<String> out = new ArrayList<>();
    for (CqlRow row : r) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < row.columns().size(); i++) {
        sb.append(i == 0 ? "" : ",").append(row.get(i));
      }
      out.add(sb.toString());
    }
    return out;
  }

  @Test
  void dailyAveragePerSensor() {
    CqlResult r =
        cql.execute("SELECT sensor, day, avg(v), count(*) FROM r WHERE sensor = 1 GROUP BY day");
    assertThat(r.columns())
        .extracting(CqlColumn::name)
        .containsExactly("sensor", "day", "system.avg(v)", "count");
    assertThat(cells(r)).containsExactly("1,0,101,4", "1,1,111,4", "1,2,121,4");
  }

  @Test
  void groupsOfAScanByPartitionKeyWithAndWithoutAggregates() {
    List<String> counts =
        cells(cql.execute("SELECT sensor, count(*), max(v) FROM r GROUP BY sensor"));
    // the partition with static data only has no row of these columns, as in Cassandra
    assertThat(counts).containsExactlyInAnyOrder("0,12,23", "1,12,123", "2,12,223");
    // without aggregates: the first row of each group
    assertThat(
            cells(
                cql.execute("SELECT sensor, day, at FROM r WHERE sensor = 2 GROUP BY sensor, day")))
        .containsExactly("2,0,0", "2,1,0", "2,2,0");
  }

  @Test
  void limitsAndPagesCountGroups() {
    assertThat(
            cells(cql.execute("SELECT day, count(*) FROM r WHERE sensor = 0 GROUP BY day LIMIT 2")))
        .containsExactly("0,4", "1,4");
    assertThat(
            cells(
                cql.execute(
                    "SELECT sensor, day, count(*) FROM r WHERE sensor IN (0, 1) GROUP BY sensor, day"
                        + " PER PARTITION LIMIT 1")))
        .containsExactly("0,0,4", "1,0,4");
    PreparedCql p =
        cql.prepare(
            "SELECT sensor, day, sum(v) FROM r WHERE sensor IN (0, 1, 2) GROUP BY sensor, day");
    List<String> all = new ArrayList<>();
    CqlResult page = cql.execute(p.bind().fetchSize(2));
    int pages = 1;
    while (true) {
      assertThat(page.size()).isLessThanOrEqualTo(2);
      all.addAll(cells(page));
      if (!page.hasMorePages()) {
        break;
      }
      page = page.fetchNextPage();
      pages++;
    }
    assertThat(pages).isEqualTo(5);
    assertThat(all).hasSize(9).startsWith("0,0,6", "0,1,46").endsWith("2,2,886");
  }

  @Test
  void distinctPartitionKeysAndStatics() {
    assertThat(cells(cql.execute("SELECT DISTINCT sensor, place FROM r")))
        .containsExactlyInAnyOrder("0,p0", "1,p1", "2,p2", "9,nowhere");
    assertThat(cells(cql.execute("SELECT DISTINCT sensor FROM r WHERE sensor IN (1, 9)")))
        .containsExactly("1", "9");
    assertThat(cells(cql.execute("SELECT count(*) FROM r WHERE sensor = 1 AND day = 2")))
        .containsExactly("4");
  }

  @Test
  void invalidGroupingsAndDistinctsAreRefusedAsCassandraRefusesThem() {
    assertThatThrownBy(() -> cql.execute("SELECT count(*) FROM r WHERE sensor = 1 GROUP BY v"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("only supported on the columns of the PRIMARY KEY, got v");
    assertThatThrownBy(() -> cql.execute("SELECT count(*) FROM r WHERE sensor = 1 GROUP BY at"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("following their declared order in the PRIMARY KEY");
    assertThatThrownBy(() -> cql.execute("SELECT count(*) FROM r GROUP BY day"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("following their declared order in the PRIMARY KEY");
    assertThatThrownBy(() -> cql.execute("SELECT DISTINCT sensor FROM r GROUP BY sensor, day"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("Grouping on clustering columns is not allowed for SELECT DISTINCT");
    assertThatThrownBy(() -> cql.execute("SELECT DISTINCT sensor, v FROM r"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("must only request partition key columns and/or static columns");
    assertThatThrownBy(
            () -> cql.execute("SELECT DISTINCT sensor FROM r WHERE sensor = 1 AND day = 1"))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("only supports restriction by partition key and/or static columns");
    assertThatThrownBy(
            () -> cql.execute("SELECT count(*) FROM r WHERE sensor = 1 GROUP BY (int) day"))
        .isInstanceOf(CqlUnsupportedException.class);
  }
}
