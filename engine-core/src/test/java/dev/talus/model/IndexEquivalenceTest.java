package dev.talus.model;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two tables receive the same seeded operations — inserts (some with a TTL), overwrites, static
 * updates, row, clustering-range and partition deletions, flushes, compactions, clock jumps,
 * reopens — on wide partitions with two clustering columns: {@code kept} has its indexes from the
 * start, {@code late} gets them half way, built in the background from its SSTables. From then on
 * every indexed read (equality, range, AND, LIMIT, paging, with the partition key; on regular and
 * on clustering columns) must give the same rows, with every column, on both tables and equal a
 * full scan filtered in the test; {@code kept}'s index on {@code a} is dropped and rebuilt from
 * time to time and must keep giving them. The reads take the row-level path (only the candidate
 * rows of each partition), so range tombstones and partition deletions newer than a row must hide
 * it. Prints its seeds; {@code -Dtalus.index.equivalence.seed=N} replays one.
 */
class IndexEquivalenceTest {
  private static final int STEPS = 160;
  @TempDir Path tmp;

  @Test
  void anIndexBuiltOnExistingDataOrDroppedAndRebuiltAnswersLikeOneKeptFromTheStart()
      throws InterruptedException {
    String replay = System.getProperty("talus.index.equivalence.seed");
    long[] seeds = replay != null ? new long[] {Long.parseLong(replay)} : new long[] {7, 11, 2026};
    for (long seed : seeds) {
      System.out.println(
          "IndexEquivalenceTest seed "
              + seed
              + " (replay: -Dtalus.index.equivalence.seed="
              + seed
              + ")");
      run(seed, tmp.resolve("seed" + seed));
    }
  }

  private static TableSchema schema(String name) {
    return TableSchema.builder(name)
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c1", DataType.INT)
        .clusteringColumn("c2", DataType.TEXT)
        .staticColumn("s", DataType.TEXT)
        .column("a", DataType.TEXT)
        .column("b", DataType.BIGINT)
        .build();
  }

  private void run(long seed, Path dir) throws InterruptedException {
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
      db.createTable(schema("kept"));
      db.createTable(schema("late"));
      index(db.table("kept"));
      for (int step = 0; step < STEPS; step++) {
        String what = step(rnd, db, clock);
        if (what.equals("reopen")) {
          db = reopen.apply(db);
          awaitAll(db.table("kept"));
          awaitAll(db.table("late"));
        }
        if (step == STEPS / 2) {
          index(db.table("late")); // built from the SSTables and memtable there are
          awaitAll(db.table("late"));
          what += ", indexes created on late";
        }
        if (rnd.nextInt(12) == 0) {
          Table kept = db.table("kept");
          kept.dropIndex("kept_a");
          kept.createIndex(IndexDef.sai("kept_a", "a"));
          awaitAll(kept);
          what += ", kept_a dropped and rebuilt";
        }
        for (int q = 0; q < 3; q++) {
          check(rnd, db, step > STEPS / 2, "seed " + seed + ", step " + step + " (" + what + ")");
        }
      }
    } finally {
      db.close();
    }
  }

  private static void index(Table t) {
    t.createIndex(IndexDef.sai(t.name() + "_a", "a"));
    t.createIndex(IndexDef.sai(t.name() + "_b", "b"));
    t.createIndex(IndexDef.sai(t.name() + "_c1", "c1")); // clustering columns
    t.createIndex(IndexDef.sai(t.name() + "_c2", "c2"));
  }

  private static void awaitAll(Table t) throws InterruptedException {
    for (IndexDef d : t.indexes()) {
      assertThat(t.awaitIndexBuilt(d.name(), Duration.ofMinutes(2))).as(d.name()).isTrue();
    }
  }

  /** One random operation, applied alike to both tables. */
  private static String step(Random rnd, TalusDb db, ManualClock clock) {
    int p = rnd.nextInt(4);
    int c1 = rnd.nextInt(5);
    String c2 = "k" + rnd.nextInt(8);
    int k = rnd.nextInt(100);
    String a = "v" + rnd.nextInt(4);
    long b = rnd.nextInt(12);
    int ttl = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(20) : 0;
    int hi = c1 + rnd.nextInt(3);
    String what;
    for (String name : List.of("kept", "late")) {
      Table t = db.table(name);
      if (k < 50) {
        var ins = t.insert().value("p", p).value("c1", c1).value("c2", c2).value("a", a);
        ins.value("b", b);
        if (ttl > 0) {
          ins.ttl(Duration.ofSeconds(ttl));
        }
        ins.execute();
      } else if (k < 60) {
        t.update().set("a", a).where("p", p).where("c1", c1).where("c2", c2).execute();
      } else if (k < 66) {
        t.update().set("s", a).where("p", p).execute();
      } else if (k < 71) {
        t.delete().eq("p", p).eq("c1", c1).eq("c2", c2).execute();
      } else if (k < 76) {
        t.delete().eq("p", p).ge("c1", c1).le("c1", hi).execute(); // a range tombstone
      } else if (k < 79) {
        t.delete().eq("p", p).execute();
      } else if (k < 83) {
        t.delete().columns("a").eq("p", p).eq("c1", c1).eq("c2", c2).execute();
      } else if (k < 92) {
        t.flush();
      } else if (k < 95) {
        t.compact();
      }
    }
    if (k < 50) {
      what = "insert";
    } else if (k < 60) {
      what = "update a";
    } else if (k < 66) {
      what = "update static";
    } else if (k < 71) {
      what = "delete row";
    } else if (k < 76) {
      what = "delete range";
    } else if (k < 79) {
      what = "delete partition";
    } else if (k < 83) {
      what = "delete cell";
    } else if (k < 92) {
      what = "flush";
    } else if (k < 95) {
      what = "compact";
    } else if (k < 98) {
      clock.advance(Duration.ofSeconds(rnd.nextInt(15)));
      what = "clock";
    } else {
      what = "reopen";
    }
    return what;
  }

  private static void check(Random rnd, TalusDb db, boolean both, String where) {
    int k = rnd.nextInt(9);
    UnaryOperator<Select> q;
    Predicate<ResultRow> match;
    String desc;
    String a = "v" + rnd.nextInt(5);
    long lo = rnd.nextInt(12);
    long hi = lo + rnd.nextInt(5);
    int p = rnd.nextInt(4);
    if (k == 0 || k == 1) {
      q = s -> s.eq("a", a);
      match = r -> a.equals(r.getString("a"));
      desc = "a = " + a;
    } else if (k == 2) {
      q = s -> s.ge("b", lo).le("b", hi);
      match = r -> !r.isNull("b") && r.getLong("b") >= lo && r.getLong("b") <= hi;
      desc = lo + " <= b <= " + hi;
    } else if (k == 3) {
      q = s -> s.eq("a", a).ge("b", lo);
      match = r -> a.equals(r.getString("a")) && !r.isNull("b") && r.getLong("b") >= lo;
      desc = "a = " + a + " and b >= " + lo;
    } else if (k == 4) {
      q = s -> s.eq("p", p).eq("a", a);
      match = r -> r.getInt("p") == p && a.equals(r.getString("a"));
      desc = "p = " + p + " and a = " + a;
    } else if (k == 5) {
      q = s -> s.gt("b", lo);
      match = r -> !r.isNull("b") && r.getLong("b") > lo;
      desc = "b > " + lo;
    } else if (k == 6) {
      int c1 = (int) lo % 6;
      q = s -> s.eq("c1", c1);
      match = r -> !r.isNull("c1") && r.getInt("c1") == c1;
      desc = "c1 = " + c1;
    } else if (k == 7) {
      String c2 = "k" + (lo % 9);
      q = s -> s.eq("c2", c2).ge("b", hi);
      match = r -> c2.equals(r.getString("c2")) && !r.isNull("b") && r.getLong("b") >= hi;
      desc = "c2 = " + c2 + " and b >= " + hi;
    } else {
      int c1 = (int) lo % 6;
      q = s -> s.lt("c1", c1).eq("a", a);
      match = r -> !r.isNull("c1") && r.getInt("c1") < c1 && a.equals(r.getString("a"));
      desc = "c1 < " + c1 + " and a = " + a;
    }
    int limit = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(6) : Integer.MAX_VALUE;
    int pageSize = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(4) : 0;
    String what = where + ": " + desc + " limit " + limit + " page " + pageSize;
    for (String name : both ? List.of("kept", "late") : List.of("kept")) {
      Table t = db.table(name);
      List<String> expected = new ArrayList<>();
      for (ResultRow r : t.select().execute().rows()) {
        if (!r.isNull("c1") && match.test(r) && expected.size() < limit) {
          expected.add(row(r));
        }
      }
      assertThat(read(t, q, limit, pageSize)).as(name + " " + what).isEqualTo(expected);
    }
  }

  private static List<String> read(Table t, UnaryOperator<Select> q, int limit, int pageSize) {
    List<String> out = new ArrayList<>();
    if (pageSize == 0) {
      Select s = q.apply(t.select());
      if (limit != Integer.MAX_VALUE) {
        s.limit(limit);
      }
      s.execute().rows().forEach(r -> out.add(row(r)));
      return out;
    }
    PagingState state = null;
    do {
      Select s = q.apply(t.select()).pageSize(pageSize);
      if (limit != Integer.MAX_VALUE) {
        s.limit(limit);
      }
      if (state != null) {
        s.pagingState(state);
      }
      ResultSet rs = s.execute();
      rs.rows().forEach(r -> out.add(row(r)));
      state = rs.pagingState().orElse(null);
    } while (state != null);
    return out;
  }

  private static String row(ResultRow r) {
    return r.getInt("p")
        + "/"
        + r.getInt("c1")
        + "/"
        + r.getString("c2")
        + " s="
        + r.getString("s")
        + " a="
        + r.getString("a")
        + " b="
        + (r.isNull("b") ? "null" : r.getLong("b"));
  }
}
