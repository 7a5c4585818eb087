package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.talus.PagingState;
import dev.talus.cql.CqlInvalidRequestException;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlRow;
import dev.talus.cql.PreparedCql;
import dev.talus.cql.TalusSession;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Paging of a {@code GROUP BY} that ends in a function ({@code GROUP BY sensor, floor(ts, 1h)}):
 * the page size counts groups, a page ends after a whole group, and the paging state resumes after
 * it, also when a group spans several of the engine's pages (one engine group per {@code ts}).
 * Seeded: the concatenated pages, for several page sizes, LIMITs and PER PARTITION LIMITs, must
 * equal a naive grouping in Java of the rows read without GROUP BY.
 */
class GroupByFunctionPagingCqlTest {
  private static final Instant BASE = Instant.parse("2016-02-01T10:00:00Z");

  @TempDir Path dir;
  private CqlDb t;
  private TalusSession cql;

  @BeforeEach
  void open() {
    t = new CqlDb(dir);
    cql = t.cql;
    cql.execute("CREATE TABLE r (sensor int, ts timestamp, v int, PRIMARY KEY (sensor, ts))");
  }

  @AfterEach
  void close() {
    t.close();
  }

  private static List<String> cells(CqlResult page) {
    List<String> out = new ArrayList<>();
    for (CqlRow r : page) {
      List<String> c = new ArrayList<>();
      for (int i = 0; i < r.columns().size(); i++) {
        c.add(String.valueOf(r.get(i)));
      }
      out.add(String.join(" ", c));
    }
    return out;
  }

  /** Every page of {@code q} at {@code fetchSize}, each checked to hold at most that many. */
  private List<String> paged(PreparedCql q, int fetchSize) {
    List<String> all = new ArrayList<>();
    CqlResult page = cql.execute(q.bind().fetchSize(fetchSize));
    while (true) {
      assertThat(page.size()).isLessThanOrEqualTo(fetchSize);
      all.addAll(cells(page));
      if (!page.hasMorePages()) {
        return all;
      }
      page = page.fetchNextPage();
    }
  }

  @Test
  void aPageEndsAfterAWholeGroupAndItsStateResumesAfterIt() {
    PreparedCql ins = cql.prepare("INSERT INTO r (sensor, ts, v) VALUES (?, ?, ?)");
    // hour 0: 3 rows, hour 1: 4 rows, hour 3: 1 row
    int[] minutes = {0, 10, 20, 60, 70, 80, 90, 185};
    for (int i = 0; i < minutes.length; i++) {
      ins.execute(1, BASE.plusSeconds(minutes[i] * 60L), i);
    }
    PreparedCql q =
        cql.prepare(
            "SELECT floor(ts, 1h), count(*), sum(v) FROM r WHERE sensor = 1"
                + " GROUP BY floor(ts, 1h)");
    CqlResult first = cql.execute(q.bind().fetchSize(1));
    assertThat(cells(first)).containsExactly("2016-02-01T10:00:00Z 3 3");
    assertThat(first.hasMorePages()).isTrue();
    // the state resumes after the whole first group, also from a new bind
    PagingState state = first.pagingState().orElseThrow();
    CqlResult second = cql.execute(q.bind().fetchSize(2).pagingState(state));
    assertThat(cells(second))
        .containsExactly("2016-02-01T11:00:00Z 4 18", "2016-02-01T13:00:00Z 1 7");
    assertThat(second.hasMorePages()).isFalse();
    assertThat(paged(q, 2)).containsExactlyElementsOf(paged(q, 100)).hasSize(3);
    // a state of another shape is an invalid request
    assertThatThrownBy(() -> cql.execute(q.bind().pagingState(PagingState.fromString("AAAA"))))
        .isInstanceOf(CqlInvalidRequestException.class)
        .hasMessageContaining("not a paging state");
  }

  /** Random rows and limits, paged through CQL and grouped naively in Java. */
  @Test
  void seededPagesMatchANaiveGrouping() {
    long seed = Long.getLong("talus.seed", System.nanoTime());
    System.out.println(
        "GroupByFunctionPagingCqlTest seed: " + seed + " (replay: -Dtalus.seed=" + seed + ")");
    Random rnd = new Random(seed);
    PreparedCql ins = cql.prepare("INSERT INTO r (sensor, ts, v) VALUES (?, ?, ?)");
    for (int sensor = 0; sensor < 3; sensor++) {
      TreeSet<Integer> minutes = new TreeSet<>();
      int n = rnd.nextInt(40);
      for (int i = 0; i < n; i++) {
        minutes.add(rnd.nextInt(8 * 60));
      }
      for (int m : minutes) {
        ins.execute(sensor, BASE.plusSeconds(m * 60L), rnd.nextInt(100));
      }
    }
    // the naive grouping: rows in primary key order, one group per (sensor, hour)
    Map<String, int[]> groups = new LinkedHashMap<>();
    Map<String, String> firstRow = new LinkedHashMap<>();
    for (CqlRow r : cql.execute("SELECT sensor, ts, v FROM r WHERE sensor IN (0, 1, 2)")) {
      int sensor = r.getInt("sensor");
      Instant ts = r.getInstant("ts");
      long hour = ts.getEpochSecond() / 3600 * 3600;
      String key = sensor + " " + Instant.ofEpochSecond(hour);
      groups.computeIfAbsent(key, k -> new int[] {0, Integer.MIN_VALUE});
      groups.get(key)[0]++;
      groups.get(key)[1] = Math.max(groups.get(key)[1], r.getInt("v"));
      firstRow.putIfAbsent(key, sensor + " " + ts + " " + r.getInt("v"));
    }
    for (int round = 0; round < 12; round++) {
      int limit = rnd.nextBoolean() ? Integer.MAX_VALUE : 1 + rnd.nextInt(12);
      int perPartition = rnd.nextBoolean() ? Integer.MAX_VALUE : 1 + rnd.nextInt(5);
      boolean aggregating = rnd.nextBoolean();
      List<String> expected = new ArrayList<>();
      Map<String, Integer> perSensor = new LinkedHashMap<>();
      for (Map.Entry<String, int[]> g : groups.entrySet()) {
        String sensor = g.getKey().split(" ")[0];
        int taken = perSensor.merge(sensor, 1, Integer::sum);
        if (taken <= perPartition && expected.size() < limit) {
          expected.add(
              aggregating
                  ? g.getKey() + " " + g.getValue()[0] + " " + g.getValue()[1]
                  : firstRow.get(g.getKey()));
        }
      }
      String q =
          (aggregating ? "SELECT sensor, floor(ts, 1h), count(*), max(v)" : "SELECT sensor, ts, v")
              + " FROM r WHERE sensor IN (0, 1, 2) GROUP BY sensor, floor(ts, 1h)"
              + (perPartition == Integer.MAX_VALUE ? "" : " PER PARTITION LIMIT " + perPartition)
              + (limit == Integer.MAX_VALUE ? "" : " LIMIT " + limit);
      PreparedCql p = cql.prepare(q);
      int fetchSize = 1 + rnd.nextInt(4);
      assertThat(paged(p, fetchSize))
          .as("seed %d, fetch size %d: %s", seed, fetchSize, q)
          .containsExactlyElementsOf(expected);
    }
  }
}
