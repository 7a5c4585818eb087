package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.InvalidQueryException;
import dev.talus.ResultRow;
import dev.talus.Select;
import dev.talus.Table;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlRow;
import dev.talus.cql.TalusSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;

/**
 * The reads of {@link CqlModelTest} that compute over rows — aggregates (also cast and {@code
 * toJson()} of them), {@code GROUP BY}, {@code DISTINCT} and {@code token()} ranges — asked through
 * CQL and answered naively in Java from the builder API's plain rows of the twin table. The rows
 * the builder API returns are the oracle; this class only folds, groups or filters them.
 */
final class CqlModelSelectors {
  private final TalusSession cql;
  private final Table api;

  CqlModelSelectors(TalusSession cql, Table api) {
    this.cql = cql;
    this.api = api;
  }

  /** One read of a random computing shape; returns the rows it compared. */
  int read(Random rnd) {
    return switch (rnd.nextInt(4)) {
      case 0 -> aggregates(rnd);
      case 1 -> groupBy(rnd);
      case 2 -> distinct(rnd);
      default -> tokenRange(rnd);
    };
  }

  private List<ResultRow> apiRows(Select s) {
    List<ResultRow> out = new ArrayList<>();
    for (ResultRow r : s.execute()) {
      out.add(r);
    }
    return out;
  }

  private int aggregates(Random rnd) {
    int k = rnd.nextInt(3);
    int c = rnd.nextInt(4);
    boolean slice = rnd.nextBoolean();
    String where = "k = " + k + (slice ? " AND c >= " + c : "");
    Select s = api.select().columns("k", "c", "d", "v1", "v2").eq("k", k);
    if (slice) {
      s.ge("c", c);
    }
    List<ResultRow> rows = apiRows(s);
    long count = rows.size();
    long countV1 = 0;
    long sum = 0;
    long withV2 = 0;
    String max = null;
    Integer minC = null;
    for (ResultRow r : rows) {
      String v1 = r.getString("v1");
      if (v1 != null) {
        countV1++;
        max = max == null || v1.compareTo(max) > 0 ? v1 : max;
      }
      Long v2 = r.getLong("v2");
      if (v2 != null) {
        sum += v2;
        withV2++;
      }
      int rc = r.getInt("c");
      minC = minC == null || rc < minC ? rc : minC;
    }
    String expected =
        count
            + " "
            + countV1
            + " "
            + sum
            + " "
            + (withV2 == 0 ? 0 : sum / withV2)
            + " "
            + max
            + " "
            + minC
            + " "
            + (int) count
            + " "
            + (max == null ? "null" : "\"" + max + "\"");
    String q =
        "SELECT count(*), count(v1), sum(v2), avg(v2), max(v1), min(c), cast(count(*) AS int),"
            + " toJson(max(v1)) FROM viacql WHERE "
            + where;
    CqlResult r = cql.execute(q);
    assertThat(r.rows()).as(q).hasSize(1);
    assertThat(line(r.rows().get(0))).as(q).isEqualTo(expected);
    return rows.size();
  }

  private int groupBy(Random rnd) {
    boolean scan = rnd.nextBoolean();
    boolean byC = rnd.nextBoolean();
    int k = rnd.nextInt(3);
    int fetch = rnd.nextBoolean() ? 0 : 1 + rnd.nextInt(3);
    String q =
        "SELECT k, c, d, count(*), max(v2) FROM viacql"
            + (scan ? "" : " WHERE k = " + k)
            + " GROUP BY k"
            + (byC ? ", c" : "");
    Select s = api.select().columns("k", "c", "d", "v1", "v2");
    if (!scan) {
      s.eq("k", k);
    }
    List<String> expected = new ArrayList<>();
    Object[] key = null;
    ResultRow first = null;
    long n = 0;
    Long max = null;
    for (ResultRow r : apiRows(s)) {
      Object[] next = {r.get("k"), byC ? r.get("c") : null};
      if (key == null || !java.util.Arrays.equals(key, next)) {
        if (first != null) {
          expected.add(group(first, n, max));
        }
        key = next;
        first = r;
        n = 0;
        max = null;
      }
      n++;
      Long v2 = r.getLong("v2");
      if (v2 != null && (max == null || v2 > max)) {
        max = v2;
      }
    }
    if (first != null) {
      expected.add(group(first, n, max));
    }
    List<String> actual = new ArrayList<>();
    CqlResult page = cql.prepare(q).bind().fetchSize(fetch).execute();
    while (true) {
      for (CqlRow row : page) {
        actual.add(line(row));
      }
      if (!page.hasMorePages()) {
        break;
      }
      page = page.fetchNextPage();
    }
    assertThat(actual).as(q + " fetch size " + fetch).isEqualTo(expected);
    return expected.size();
  }

  private static String group(ResultRow first, long n, Long max) {
    return first.get("k") + " " + first.get("c") + " " + first.get("d") + " " + n + " " + max;
  }

  private int distinct(Random rnd) {
    List<String> expected = new ArrayList<>();
    for (ResultRow r : apiRows(api.select().columns("k", "c"))) {
      String k = String.valueOf(r.get("k"));
      if (expected.isEmpty() || !expected.get(expected.size() - 1).equals(k)) {
        expected.add(k);
      }
    }
    List<String> actual = new ArrayList<>();
    for (CqlRow row : cql.execute("SELECT DISTINCT k FROM viacql").rows()) {
      actual.add(line(row));
    }
    assertThat(actual).as("SELECT DISTINCT k").isEqualTo(expected);
    return expected.size();
  }

  private int tokenRange(Random rnd) {
    long lo = tokenOf(rnd.nextInt(4));
    long hi = rnd.nextInt(5) == 0 ? Long.MAX_VALUE : tokenOf(rnd.nextInt(4));
    List<String> expected = new ArrayList<>();
    for (ResultRow r : apiRows(api.select().columns("k", "c", "d", "v1"))) {
      long t = api.token(r.get("k"));
      if (t > lo && t <= hi) {
        expected.add(
            r.get("k") + " " + r.get("c") + " " + r.get("d") + " " + r.get("v1") + " " + t);
      }
    }
    String q = "SELECT k, c, d, v1, token(k) FROM viacql WHERE token(k) > ? AND token(k) <= ?";
    List<String> actual = new ArrayList<>();
    try {
      for (CqlRow row : cql.execute(q, lo, hi).rows()) {
        actual.add(line(row));
      }
    } catch (InvalidQueryException e) {
      actual.add("refused: " + e.getMessage());
    }
    assertThat(actual).as(q + " " + lo + " " + hi).isEqualTo(expected);
    return expected.size();
  }

  private long tokenOf(int k) {
    return api.token(k);
  }

  private static String line(CqlRow r) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < r.columns().size(); i++) {
      sb.append(i == 0 ? "" : " ").append(Objects.toString(r.get(i)));
    }
    return sb.toString();
  }
}
