package dev.talus.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.CompactionOptions;
import dev.talus.DataType;
import dev.talus.IndexDef;
import dev.talus.ManualClock;
import dev.talus.PagingState;
import dev.talus.ResultRow;
import dev.talus.ResultSet;
import dev.talus.Select;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded random operations on a table with storage-attached indexes — inserts, overwrites, cell,
 * row and partition deletes, TTLs, clock jumps, flushes, compactions, strategy switches, index
 * drops and re-creations, reopens — with, after each step, random indexed reads (equality, ranges,
 * AND of two indexes, LIMIT, paging) compared with a full scan of the table (which no index serves)
 * filtered by the same condition in the test. Prints its seeds; {@code -Dtalus.index.seed=N}
 * replays one.
 */
class IndexModelTest {
  private static final int STEPS = 200;
  @TempDir Path tmp;

  @Test
  void indexedReadsEqualFilteringScans() {
    String replay = System.getProperty("talus.index.seed");
    long[] seeds = replay != null ? new long[] {Long.parseLong(replay)} : new long[] {1, 2, 42};
    for (long seed : seeds) {
      System.out.println(
          "IndexModelTest seed " + seed + " (replay: -Dtalus.index.seed=" + seed + ")");
      run(seed, tmp.resolve("seed" + seed));
    }
  }

  private static TableSchema schema() {
    return TableSchema.builder("t")
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .column("a", DataType.TEXT)
        .column("b", DataType.BIGINT)
        .column("ts", DataType.TIMESTAMP)
        .column("x", DataType.INT)
        .build();
  }

  private void run(long seed, Path dir) {
    Random rnd = new Random(seed);
    ManualClock clock = ManualClock.startingAtDefault();
    UnaryOperator<TalusDb> reopen =
        old -> {
          if (old != null) {
            old.close();
          }
          return TalusDb.open(
              TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
        };
    TalusDb db = reopen.apply(null);
    try {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("t_a", "a"));
      t.createIndex(IndexDef.sai("t_b", "b"));
      t.createIndex(IndexDef.sai("t_ts", "ts"));
      for (int step = 0; step < STEPS; step++) {
        String what = step(rnd, t, clock);
        if (what.equals("reopen")) {
          db = reopen.apply(db);
          t = db.table("t");
          awaitBuilt(t); // a build stopped by the close resumes at open
        }
        for (int q = 0; q < 3; q++) {
          check(rnd, t, "seed " + seed + ", step " + step + " (" + what + ")");
        }
      }
    } finally {
      db.close();
    }
  }

  private static String step(Random rnd, Table t, ManualClock clock) {
    int p = rnd.nextInt(8);
    int c = rnd.nextInt(6);
    int k = rnd.nextInt(100);
    if (k < 45) {
      var ins = t.insert().value("p", p).value("c", c);
      if (rnd.nextInt(4) > 0) {
        ins.value("a", "v" + rnd.nextInt(5));
      }
      if (rnd.nextInt(4) > 0) {
        ins.value("b", (long) rnd.nextInt(20) - 10);
      }
      if (rnd.nextBoolean()) {
        ins.value("ts", Instant.ofEpochSecond(1_700_000_000L + rnd.nextInt(10)));
      }
      ins.value("x", rnd.nextInt(3));
      if (rnd.nextInt(5) == 0) {
        ins.ttl(Duration.ofSeconds(1 + rnd.nextInt(20)));
      }
      ins.execute();
      return "insert";
    } else if (k < 60) {
      t.update().set("a", "v" + rnd.nextInt(5)).where("p", p).where("c", c).execute();
      return "update a";
    } else if (k < 65) {
      t.delete().eq("p", p).eq("c", c).execute();
      return "delete row";
    } else if (k < 68) {
      t.delete().eq("p", p).execute();
      return "delete partition";
    } else if (k < 73) {
      t.delete().columns(rnd.nextBoolean() ? "a" : "b").eq("p", p).eq("c", c).execute();
      return "delete cell";
    } else if (k < 80) {
      clock.advance(Duration.ofSeconds(rnd.nextInt(15)));
      return "clock";
    } else if (k < 88) {
      t.flush();
      return "flush";
    } else if (k < 92) {
      t.compact();
      return "compact";
    } else if (k < 94) {
      t.alter()
          .compaction(
              rnd.nextBoolean()
                  ? CompactionOptions.leveled().build()
                  : CompactionOptions.sizeTiered().minThreshold(2).build())
          .apply();
      return "strategy";
    } else if (k < 96) {
      t.dropIndex("t_b");
      t.createIndex(IndexDef.sai("t_b", "b"));
      awaitBuilt(t); // built in the background from the SSTables there are
      return "drop and recreate t_b";
    } else {
      return "reopen";
    }
  }

  private static void awaitBuilt(Table t) {
    for (IndexDef d : t.indexes()) {
      try {
        assertThat(t.awaitIndexBuilt(d.name(), Duration.ofMinutes(2))).as(d.name()).isTrue();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  private static void check(Random rnd, Table t, String where) {
    int k = rnd.nextInt(6);
    UnaryOperator<Select> q;
    Predicate<ResultRow> match;
    String desc;
    if (k == 0) {
      String v = "v" + rnd.nextInt(6);
      q = s -> s.eq("a", v);
      match = r -> v.equals(r.getString("a"));
      desc = "a = " + v;
    } else if (k == 1) {
      long v = rnd.nextInt(22) - 11;
      q = s -> s.eq("b", v);
      match = r -> r.getLong("b") != null && r.getLong("b") == v;
      desc = "b = " + v;
    } else if (k == 2) {
      long lo = rnd.nextInt(22) - 11;
      long hi = lo + rnd.nextInt(10);
      q = s -> s.ge("b", lo).lt("b", hi);
      match = r -> r.getLong("b") != null && r.getLong("b") >= lo && r.getLong("b") < hi;
      desc = lo + " <= b < " + hi;
    } else if (k == 3) {
      String v = "v" + rnd.nextInt(5);
      long lo = rnd.nextInt(20) - 10;
      q = s -> s.eq("a", v).gt("b", lo);
      match = r -> v.equals(r.getString("a")) && r.getLong("b") != null && r.getLong("b") > lo;
      desc = "a = " + v + " and b > " + lo;
    } else if (k == 4) {
      Instant at = Instant.ofEpochSecond(1_700_000_000L + rnd.nextInt(10));
      q = s -> s.le("ts", at);
      match = r -> r.getInstant("ts") != null && !r.getInstant("ts").isAfter(at);
      desc = "ts <= " + at;
    } else {
      int p = rnd.nextInt(8);
      String v = "v" + rnd.nextInt(5);
      q = s -> s.eq("p", p).eq("a", v);
      match = r -> r.getInt("p") == p && v.equals(r.getString("a"));
      desc = "p = " + p + " and a = " + v;
    }
    // the model: every row of a full scan (no index involved), filtered here
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
    return r.getInt("p")
        + "/"
        + r.getInt("c")
        + "/"
        + r.getString("a")
        + "/"
        + r.getLong("b")
        + "/"
        + r.get("ts");
  }

  private static List<String> rows(ResultSet rs) {
    List<String> out = new ArrayList<>();
    rs.rows().forEach(r -> out.add(row(r)));
    return out;
  }
}
