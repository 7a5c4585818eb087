package dev.talus.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.ClusteringOrder;
import dev.talus.DataType;
import dev.talus.IndexDef;
import dev.talus.PagingState;
import dev.talus.ResultRow;
import dev.talus.ResultSet;
import dev.talus.Select;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The key-component targets of {@link IndexModelTest}: a table with a composite partition key (g,
 * h) and clustering (c, d DESC), a static column, indexes on g, h, c, d, a regular and the static
 * column, seeded random writes (inserts with and without TTL, overwrites, row, clustering range and
 * partition deletions, cell deletions, static values with and without TTL, partitions holding only
 * static values, static deletions), flushes, compactions, index drop and re-creation, and reads
 * without the partition key (equality and ranges on key components and the static column, AND with
 * the regular column's index, LIMIT, paging) compared with a full scan of the table filtered here:
 * a partition holding only static values is its one row with null clustering, as Cassandra returns
 * it. The reopen is the caller's.
 */
final class IndexKeyModel {
  static final String TABLE = "kt";

  private IndexKeyModel() {}

  static Table create(TalusDb db) {
    Table t =
        db.createTable(
            TableSchema.builder(TABLE)
                .partitionKey("g", DataType.INT)
                .partitionKey("h", DataType.TEXT)
                .clusteringColumn("c", DataType.INT)
                .clusteringColumn("d", DataType.BIGINT, ClusteringOrder.DESC)
                .column("a", DataType.TEXT)
                .column("b", DataType.INT)
                .staticColumn("s", DataType.INT)
                .build());
    t.createIndex(IndexDef.sai("kt_g", "g"));
    t.createIndex(IndexDef.sai("kt_h", "h"));
    t.createIndex(IndexDef.sai("kt_c", "c"));
    t.createIndex(IndexDef.sai("kt_d", "d"));
    t.createIndex(IndexDef.sai("kt_a", "a"));
    t.createIndex(IndexDef.sai("kt_s", "s"));
    return t;
  }

  /** One random operation on {@code t}; returns what it was. */
  static String step(Random rnd, Table t) {
    int g = rnd.nextInt(4);
    String h = "h" + rnd.nextInt(3);
    int c = rnd.nextInt(5);
    long d = rnd.nextInt(4) - 2;
    int k = rnd.nextInt(100);
    if (rnd.nextInt(6) == 0) {
      return staticStep(rnd, t, g, h);
    }
    if (k < 50) {
      var ins = t.insert().value("g", g).value("h", h).value("c", c).value("d", d);
      if (rnd.nextInt(4) > 0) {
        ins.value("a", "v" + rnd.nextInt(4));
      }
      if (rnd.nextBoolean()) {
        ins.value("b", rnd.nextInt(10));
      }
      if (rnd.nextInt(5) == 0) {
        ins.ttl(Duration.ofSeconds(1 + rnd.nextInt(20)));
      }
      ins.execute();
      return "insert";
    } else if (k < 60) {
      t.update()
          .set("a", "v" + rnd.nextInt(4))
          .where("g", g)
          .where("h", h)
          .where("c", c)
          .where("d", d)
          .execute();
      return "update a";
    } else if (k < 68) {
      t.delete().eq("g", g).eq("h", h).eq("c", c).eq("d", d).execute();
      return "delete row";
    } else if (k < 73) {
      t.delete().eq("g", g).eq("h", h).ge("c", c).execute();
      return "delete c >= " + c;
    } else if (k < 76) {
      t.delete().eq("g", g).eq("h", h).execute();
      return "delete partition";
    } else if (k < 81) {
      t.delete().columns("a").eq("g", g).eq("h", h).eq("c", c).eq("d", d).execute();
      return "delete cell";
    } else if (k < 90) {
      t.flush();
      return "flush";
    } else if (k < 95) {
      t.compact();
      return "compact";
    } else {
      String index = rnd.nextBoolean() ? "kt_c" : "kt_h";
      String column = index.equals("kt_c") ? "c" : "h";
      t.dropIndex(index);
      t.createIndex(IndexDef.sai(index, column));
      try {
        assertThat(t.awaitIndexBuilt(index, Duration.ofMinutes(2))).as(index).isTrue();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
      return "drop and recreate " + index;
    }
  }

  /**
   * A write of the static column: a value (sometimes with a TTL, sometimes into a partition of its
   * own that holds nothing but static values, g = 9), its deletion, or the deletion of such a
   * partition.
   */
  private static String staticStep(Random rnd, Table t, int g, String h) {
    int k = rnd.nextInt(6);
    int gs = k == 1 || k == 4 ? 9 : g; // g = 9 only ever holds static values
    if (k == 3) {
      t.delete().columns("s").eq("g", gs).eq("h", h).execute();
      return "delete static";
    }
    if (k == 4) {
      t.delete().eq("g", gs).eq("h", h).execute();
      return "delete static-only partition";
    }
    var u = t.update().set("s", rnd.nextInt(4)).where("g", gs).where("h", h);
    if (k == 2) {
      u.ttl(Duration.ofSeconds(1 + rnd.nextInt(20)));
    }
    u.execute();
    return "static write " + k;
  }

  private static boolean is(Number v, long wanted) {
    return v != null && v.longValue() == wanted;
  }

  /** One random indexed read of {@code t} checked against a filtered full scan. */
  static void check(Random rnd, Table t, String where) {
    int k = rnd.nextInt(10);
    UnaryOperator<Select> q;
    Predicate<ResultRow> match;
    String desc;
    int g = rnd.nextInt(6) == 0 ? 9 : rnd.nextInt(5); // 9: partitions holding only statics
    String h = "h" + rnd.nextInt(4);
    int c = rnd.nextInt(6);
    long d = rnd.nextInt(5) - 2;
    String a = "v" + rnd.nextInt(4);
    int sv = rnd.nextInt(5);
    switch (k) {
      case 0 -> {
        q = s -> s.eq("g", g);
        match = r -> r.getInt("g") == g;
        desc = "g = " + g;
      }
      case 1 -> {
        q = s -> s.eq("h", h);
        match = r -> r.getString("h").equals(h);
        desc = "h = " + h;
      }
      case 2 -> {
        q = s -> s.ge("g", g).lt("g", g + 2);
        match = r -> r.getInt("g") >= g && r.getInt("g") < g + 2;
        desc = g + " <= g < " + (g + 2);
      }
      case 3 -> {
        q = s -> s.eq("c", c);
        match = r -> is(r.getInt("c"), c);
        desc = "c = " + c;
      }
      case 4 -> {
        q = s -> s.gt("d", d);
        match = r -> r.getLong("d") != null && r.getLong("d") > d;
        desc = "d > " + d;
      }
      case 5 -> {
        q = s -> s.le("c", c).eq("a", a);
        match = r -> r.getInt("c") != null && r.getInt("c") <= c && a.equals(r.getString("a"));
        desc = "c <= " + c + " and a = " + a;
      }
      case 6 -> {
        q = s -> s.eq("h", h).gt("c", c).le("d", d);
        match =
            r ->
                r.getString("h").equals(h)
                    && r.getInt("c") != null
                    && r.getInt("c") > c
                    && r.getLong("d") <= d;
        desc = "h = " + h + " and c > " + c + " and d <= " + d;
      }
      case 8 -> {
        q = s -> s.eq("s", sv);
        match = r -> is(r.getInt("s"), sv);
        desc = "s = " + sv;
      }
      case 9 -> {
        q = s -> s.eq("h", h).ge("s", sv);
        match = r -> r.getString("h").equals(h) && r.getInt("s") != null && r.getInt("s") >= sv;
        desc = "h = " + h + " and s >= " + sv;
      }
      default -> {
        q = s -> s.eq("g", g).eq("d", d);
        match = r -> r.getInt("g") == g && is(r.getLong("d"), d);
        desc = "g = " + g + " and d = " + d;
      }
    }
    List<String> expected = new ArrayList<>();
    for (ResultRow r : t.select().execute().rows()) {
      if (match.test(r)) {
        expected.add(row(r));
      }
    }
    assertThat(rows(q.apply(t.select()).execute())).as(where + ": " + desc).isEqualTo(expected);
    int limit = 1 + rnd.nextInt(5);
    assertThat(rows(q.apply(t.select()).limit(limit).execute()))
        .as(where + ": " + desc + " limit " + limit)
        .isEqualTo(expected.subList(0, Math.min(limit, expected.size())));
    int pageSize = 1 + rnd.nextInt(4);
    List<String> paged = new ArrayList<>();
    PagingState state = null;
    int pages = 0;
    do {
      Select s = q.apply(t.select()).pageSize(pageSize);
      ResultSet rs = (state == null ? s : s.pagingState(state)).execute();
      paged.addAll(rows(rs));
      state = rs.pagingState().orElse(null);
    } while (state != null && ++pages < 1000);
    assertThat(paged).as(where + ": " + desc + " pages of " + pageSize).isEqualTo(expected);
  }

  private static String row(ResultRow r) {
    return r.getInt("g")
        + "/"
        + r.getString("h")
        + "/"
        + r.getInt("c")
        + "/"
        + r.getLong("d")
        + "/"
        + r.getString("a")
        + "/"
        + r.get("b")
        + "/"
        + r.get("s");
  }

  private static List<String> rows(ResultSet rs) {
    List<String> out = new ArrayList<>();
    rs.rows().forEach(r -> out.add(row(r)));
    return out;
  }
}
