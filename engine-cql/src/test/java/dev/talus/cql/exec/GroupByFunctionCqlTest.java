package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlRow;
import dev.talus.cql.PreparedCql;
import dev.talus.cql.TalusSession;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GROUP BY} ending in a function of a clustering column ({@code GROUP BY sensor, floor(ts,
 * 1h)}) and {@code floor()} of timestamps, timeuuids, dates and times, as Cassandra 5.0 runs them:
 * consecutive rows whose key columns and function value agree form a group; LIMIT and PER PARTITION
 * LIMIT count those groups; Cassandra's errors for a misplaced or unsuitable function. A seeded
 * comparison checks random groupings against a naive grouping in Java.
 */
class GroupByFunctionCqlTest {
  private static final Instant BASE = Instant.parse("2016-02-01T10:00:00Z");

  @TempDir Path dir;
  private CqlDb t;
  private TalusSession cql;

  @BeforeEach
  void schema() {
    t = new CqlDb(dir);
    cql = t.cql;
    cql.execute(
        "CREATE TABLE r (sensor int, ts timestamp, v int, at timestamp,"
            + " PRIMARY KEY (sensor, ts))");
    PreparedCql ins = cql.prepare("INSERT INTO r (sensor, ts, v, at) VALUES (?, ?, ?, ?)");
    int[] minutes1 = {0, 20, 59, 60, 90, 185};
    for (int i = 0; i < minutes1.length; i++) {
      ins.execute(1, at(minutes1[i]), i, at(0));
    }
    ins.execute(2, at(10), 100, at(0));
    ins.execute(2, at(120), 200, at(0));
  }

  @AfterEach
  void close() {
    t.close();
  }

  private static Instant at(int minutes) {
    return BASE.plusSeconds(minutes * 60L);
  }

  private List<String> rows(String query) {
    List<String> out = new ArrayList<>();
    for (CqlRow r : cql.execute(query).rows()) {
      List<String> cells = new ArrayList<>();
      for (int i = 0; i < r.columns().size(); i++) {
        cells.add(String.valueOf(r.get(i)));
      }
      out.add(String.join(" ", cells));
    }
    return out;
  }

  @Test
  void groupsByTheHourOfOnePartition() {
    String q =
        "SELECT sensor, floor(ts, 1h), count(*), max(v) FROM r WHERE sensor = 1"
            + " GROUP BY floor(ts, 1h)";
    assertThat(cql.execute(q).columns())
        .extracting(CqlColumn::name)
        .containsExactly("sensor", "system.floor(ts, 1h)", "count", "system.max(v)");
    assertThat(rows(q))
        .containsExactly(
            "1 2016-02-01T10:00:00Z 3 2",
            "1 2016-02-01T11:00:00Z 2 4",
            "1 2016-02-01T13:00:00Z 1 5");
  }

  @Test
  void groupsByThePartitionAndTheHourOfAScanWithLimits() {
    String q = "SELECT sensor, floor(ts, 1h), sum(v) FROM r GROUP BY sensor, floor(ts, 1h)";
    assertThat(rows(q))
        .containsExactlyInAnyOrder(
            "1 2016-02-01T10:00:00Z 3",
            "1 2016-02-01T11:00:00Z 7",
            "1 2016-02-01T13:00:00Z 5",
            "2 2016-02-01T10:00:00Z 100",
            "2 2016-02-01T12:00:00Z 200");
    assertThat(rows(q + " PER PARTITION LIMIT 1"))
        .containsExactlyInAnyOrder("1 2016-02-01T10:00:00Z 3", "2 2016-02-01T10:00:00Z 100");
    assertThat(rows(q.replace("FROM r", "FROM r WHERE sensor = 1") + " LIMIT 2"))
        .containsExactly("1 2016-02-01T10:00:00Z 3", "1 2016-02-01T11:00:00Z 7");
  }

  @Test
  void aStartTimeShiftsTheBucketsAndWithoutAggregatesEachGroupShowsItsFirstRow() {
    assertThat(
            rows(
                "SELECT floor(ts, 2h, '2016-02-01 09:00:00+0000'), count(*) FROM r"
                    + " WHERE sensor = 1 GROUP BY floor(ts, 2h, '2016-02-01 09:00:00+0000')"))
        .containsExactly(
            "2016-02-01T09:00:00Z 3", "2016-02-01T11:00:00Z 2", "2016-02-01T13:00:00Z 1");
    assertThat(rows("SELECT ts, v FROM r WHERE sensor = 1 GROUP BY sensor, floor(ts, 1h)"))
        .containsExactly(
            "2016-02-01T10:00:00Z 0", "2016-02-01T11:00:00Z 3", "2016-02-01T13:05:00Z 5");
  }

  @Test
  void floorOfEachTimeTypeAsASelector() {
    CqlRow r =
        cql.execute(
                "SELECT floor((timestamp) '2016-03-17 10:37:12.345+0000', 1mo), floor(ts, 15m),"
                    + " floor(toDate(ts), 7d), floor(maxTimeuuid(ts), 1d),"
                    + " floor((time) '10:37:12', 15m) FROM r WHERE sensor = 1 AND ts = ?",
                at(90))
            .rows()
            .get(0);
    assertThat(r.get(0)).isEqualTo(Instant.parse("2016-03-01T00:00:00Z"));
    assertThat(r.get(1)).isEqualTo(Instant.parse("2016-02-01T11:30:00Z"));
    // days since 1970-01-01 rounded down to a multiple of 7
    assertThat(r.get(2))
        .isEqualTo(LocalDate.ofEpochDay(LocalDate.of(2016, 2, 1).toEpochDay() / 7 * 7));
    assertThat(r.get(3)).isEqualTo(Instant.parse("2016-02-01T00:00:00Z"));
    assertThat(r.get(4)).isEqualTo(LocalTime.of(10, 30));
    assertThat(
            cql.execute(
                    "SELECT floor(ts, 1mo, '2016-01-15 00:00:00+0000') FROM r WHERE sensor = 1"
                        + " LIMIT 1")
                .rows()
                .get(0)
                .get(0))
        .isEqualTo(Instant.parse("2016-01-15T00:00:00Z"));
    // a whole-month step from a start inside a month never passes the value
    assertThat(
            cql.execute(
                    "SELECT floor((timestamp) '2016-03-10 00:00:00+0000', 1mo,"
                        + " '2016-01-15 00:00:00+0000') FROM r WHERE sensor = 1 LIMIT 1")
                .rows()
                .get(0)
                .get(0))
        .isEqualTo(Instant.parse("2016-02-15T00:00:00Z"));
  }

  private String refusal(String query) {
    CqlInvalidRequestException e =
        catchThrowableOfType(CqlInvalidRequestException.class, () -> cql.execute(query));
    assertThat(e).as(query).isNotNull();
    return e.reason();
  }

  @Test
  void misplacedOrUnsuitableFunctionsAreRefusedAsCassandraRefusesThem() {
    assertThat(refusal("SELECT count(*) FROM r WHERE sensor = 1 GROUP BY floor(ts, 1h), sensor"))
        .isEqualTo("Functions are only supported on the last element of the GROUP BY clause");
    assertThat(refusal("SELECT count(*) FROM r GROUP BY sensor, floor(at, 1h)"))
        .isEqualTo("Group by functions are only supported on clustering columns, got at");
    assertThat(refusal("SELECT count(*) FROM r GROUP BY sensor, max(ts)"))
        .isEqualTo(
            "Aggregate functions are not supported within the GROUP BY clause, got: system.max");
    assertThat(refusal("SELECT count(*) FROM r GROUP BY sensor, floor(currentTimestamp(), 1h)"))
        .isEqualTo("GROUP BY functions must have one clustering column name as parameter");
    assertThat(refusal("SELECT floor(ts, 1us) FROM r WHERE sensor = 1"))
        .isEqualTo(
            "The floor cannot be computed for the 1us duration as precision is below 1 millisecond");
    assertThat(refusal("SELECT floor(ts, 1h, '2099-01-01') FROM r WHERE sensor = 1"))
        .isEqualTo("The floor function starting time is greater than the provided time");
    assertThat(refusal("SELECT floor(toDate(ts), 1h) FROM r WHERE sensor = 1"))
        .isEqualTo(
            "The floor on date values cannot be computed for the 1h duration as precision is"
                + " below 1 day");
    cql.execute("CREATE TABLE r2 (k int, a int, ts timestamp, PRIMARY KEY (k, a, ts))");
    assertThat(refusal("SELECT count(*) FROM r2 WHERE k = 1 GROUP BY k, floor(ts, 1h)"))
        .contains(
            "Group by currently only support groups of columns following their declared order");
    assertThat(
            cql.execute("SELECT count(*) FROM r2 WHERE k = 1 AND a = 2 GROUP BY k, floor(ts, 1h)")
                .rows())
        .isEmpty();
  }

  /** Random rows and bucket sizes, grouped through CQL and naively in Java. */
  @Test
  void seededGroupingsMatchANaiveGrouping() {
    long seed = Long.getLong("talus.seed", System.nanoTime());
    System.out.println(
        "GroupByFunctionCqlTest seed: " + seed + " (replay: -Dtalus.seed=" + seed + ")");
    Random rnd = new Random(seed);
    cql.execute("CREATE TABLE g (k int, ts timestamp, v int, PRIMARY KEY (k, ts))");
    PreparedCql ins = cql.prepare("INSERT INTO g (k, ts, v) VALUES (?, ?, ?)");
    Map<Integer, TreeMap<Long, Integer>> model = new TreeMap<>();
    for (int i = 0; i < 400; i++) {
      int k = rnd.nextInt(4);
      long ms = BASE.toEpochMilli() + rnd.nextInt(3 * 86_400) * 1000L;
      int v = rnd.nextInt(100);
      ins.execute(k, Instant.ofEpochMilli(ms), v);
      model.computeIfAbsent(k, x -> new TreeMap<>()).put(ms, v);
      if (i == 200) {
        t.db.table("g").flush();
      }
    }
    String[] units = {"15m", "1h", "6h", "1d"};
    long[] millis = {900_000L, 3_600_000L, 21_600_000L, 86_400_000L};
    for (int round = 0; round < 8; round++) {
      int u = rnd.nextInt(units.length);
      int k = rnd.nextInt(4);
      List<String> expected = new ArrayList<>();
      TreeMap<Long, long[]> buckets = new TreeMap<>();
      for (Map.Entry<Long, Integer> e : model.getOrDefault(k, new TreeMap<>()).entrySet()) {
        long b = e.getKey() - e.getKey() % millis[u];
        long[] acc = buckets.computeIfAbsent(b, x -> new long[2]);
        acc[0]++;
        acc[1] += e.getValue();
      }
      buckets.forEach(
          (b, acc) -> expected.add(Instant.ofEpochMilli(b) + " " + acc[0] + " " + (int) acc[1]));
      String q =
          "SELECT floor(ts, "
              + units[u]
              + "), count(*), sum(v) FROM g WHERE k = "
              + k
              + " GROUP BY k, floor(ts, "
              + units[u]
              + ")";
      assertThat(rows(q)).as("seed %d: %s", seed, q).containsExactlyElementsOf(expected);
    }
  }
}
