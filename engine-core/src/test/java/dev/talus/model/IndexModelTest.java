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
import dev.talus.index.VectorSimilarity;
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
 * drops and re-creations, reopens, collection element adds, removals and TTLs, static values (with
 * TTLs, deletions, and partitions holding nothing but static values) — with, after each step,
 * random indexed reads (equality, ranges, AND of two indexes, CONTAINS on a set's elements and a
 * map's values, CONTAINS KEY, a map entry (m[k] = v), equality on a frozen set, case-insensitive
 * equality on an analyzed text index, equality and ranges on a static column (a partition holding
 * only static values is its one row with null clustering, as the scan returns it), LIMIT, paging;
 * ANN ordering on a vector index, also with a page size below its limit) compared with a full scan
 * of the table (which no index serves) filtered — or ranked by the same similarity — in the test. A
 * second table gets the same for indexes on partition key components and clustering columns ({@link
 * IndexKeyModel}). Odd seeds write with a 1 KiB index write buffer, so every flush and compaction
 * spills index terms to runs and merges them ({@code indexWriteBufferBytes}). Prints its seeds;
 * {@code -Dtalus.index.seed=N} replays one.
 */
class IndexModelTest {
  private static final int STEPS = 200;
  @TempDir Path tmp;

  @Test
  void indexedReadsEqualFilteringScans() {
    String replay = System.getProperty("talus.index.seed");
    long[] seeds = replay != null ? new long[] {Long.parseLong(replay)} : new long[] {1, 2, 42};
    // every SSTable gets a vector graph, so that flushes, compactions, drops and reopens write,
    // delete and reopen graphs too; at this size a read's beam covers each file, which answers
    // exactly
    System.setProperty("talus.vector.graphThreshold", "1");
    try {
      for (long seed : seeds) {
        System.out.println(
            "IndexModelTest seed " + seed + " (replay: -Dtalus.index.seed=" + seed + ")");
        run(seed, tmp.resolve("seed" + seed));
      }
    } finally {
      System.clearProperty("talus.vector.graphThreshold");
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
        .column("tags", DataType.set(DataType.INT))
        .column("m", DataType.map(DataType.TEXT, DataType.INT))
        .column("fz", DataType.frozen(DataType.set(DataType.INT)))
        .column("n", DataType.TEXT)
        .column("v", DataType.vector(DataType.FLOAT, 2))
        .column("nt", DataType.set(DataType.TEXT))
        .column("nm", DataType.map(DataType.TEXT, DataType.INT))
        .staticColumn("st", DataType.INT)
        .build();
  }

  private void run(long seed, Path dir) {
    Random rnd = new Random(seed);
    ManualClock clock = ManualClock.startingAtDefault();
    // odd seeds hold at most 1 KiB of index terms per SSTable written: every flush and compaction
    // spills terms to runs on disk and merges them
    long budget = seed % 2 == 1 ? 1024 : 32L << 20;
    UnaryOperator<TalusDb> reopen =
        old -> {
          if (old != null) {
            old.close();
          }
          return TalusDb.open(
              TalusOptions.builder(dir)
                  .clock(clock)
                  .backgroundCompaction(false)
                  .indexWriteBufferBytes(budget)
                  .build());
        };
    TalusDb db = reopen.apply(null);
    try {
      Table t = db.createTable(schema());
      t.createIndex(IndexDef.sai("t_a", "a"));
      t.createIndex(IndexDef.sai("t_b", "b"));
      t.createIndex(IndexDef.sai("t_ts", "ts"));
      t.createIndex(IndexDef.sai("t_tags", "tags"));
      t.createIndex(IndexDef.sai("t_mk", "m").withTarget(IndexDef.Target.KEYS));
      t.createIndex(IndexDef.sai("t_mv", "m").withTarget(IndexDef.Target.VALUES));
      t.createIndex(IndexDef.sai("t_me", "m").withTarget(IndexDef.Target.ENTRIES));
      t.createIndex(IndexDef.sai("t_fz", "fz").withTarget(IndexDef.Target.FULL));
      t.createIndex(IndexDef.sai("t_n", "n").withOption("case_sensitive", "false"));
      t.createIndex(IndexDef.sai("t_v", "v").withOption("similarity_function", "euclidean"));
      t.createIndex(IndexDef.sai("t_st", "st"));
      t.createIndex(IndexDef.sai("t_nt", "nt").withOption("case_sensitive", "false"));
      t.createIndex(
          IndexDef.sai("t_nm", "nm").withTarget(IndexDef.Target.KEYS).withOption("ascii", "true"));
      // key-component targets on a second table, drawn from their own seeded sequence
      Random keyRnd = new Random(seed * 31 + 7);
      Table kt = IndexKeyModel.create(db);
      for (int step = 0; step < STEPS; step++) {
        String keyWhat = IndexKeyModel.step(keyRnd, kt);
        String what = step(rnd, t, clock);
        if (what.equals("reopen")) {
          db = reopen.apply(db);
          t = db.table("t");
          kt = db.table(IndexKeyModel.TABLE);
          awaitBuilt(t); // a build stopped by the close resumes at open
          awaitBuilt(kt);
        }
        for (int q = 0; q < 3; q++) {
          check(rnd, t, "seed " + seed + ", step " + step + " (" + what + ")");
        }
        for (int q = 0; q < 2; q++) {
          IndexKeyModel.check(
              keyRnd, kt, "seed " + seed + ", step " + step + " (" + keyWhat + ", " + what + ")");
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
    if (rnd.nextInt(3) == 0) {
      return collectionStep(rnd, t, p, c);
    }
    if (rnd.nextInt(8) == 0) {
      return staticStep(rnd, t, p);
    }
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
      if (rnd.nextInt(3) > 0) {
        ins.value("v", vector(rnd));
      }
      if (rnd.nextInt(5) == 0) {
        ins.ttl(Duration.ofSeconds(1 + rnd.nextInt(20)));
      }
      ins.execute();
      return "insert";
    } else if (k < 55) {
      t.update().set("a", "v" + rnd.nextInt(5)).where("p", p).where("c", c).execute();
      return "update a";
    } else if (k < 60) {
      t.update().set("v", vector(rnd)).where("p", p).where("c", c).execute();
      return "update v";
    } else if (k < 65) {
      t.delete().eq("p", p).eq("c", c).execute();
      return "delete row";
    } else if (k < 68) {
      t.delete().eq("p", p).execute();
      return "delete partition";
    } else if (k < 73) {
      String column = List.of("a", "b", "v").get(rnd.nextInt(3));
      t.delete().columns(column).eq("p", p).eq("c", c).execute();
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

  /** A write of the collection and analyzed columns: element adds (some with a TTL), removals. */
  private static String collectionStep(Random rnd, Table t, int p, int c) {
    int k = rnd.nextInt(11);
    var u = t.update().where("p", p).where("c", c);
    if (rnd.nextInt(5) == 0) {
      u.ttl(Duration.ofSeconds(1 + rnd.nextInt(20)));
    }
    switch (k) {
      case 0 -> u.add("tags", new java.util.HashSet<>(List.of(rnd.nextInt(6), rnd.nextInt(6))));
      case 1 -> u.remove("tags", java.util.Set.of(rnd.nextInt(6)));
      case 2 -> u.put("m", "k" + rnd.nextInt(4), rnd.nextInt(5));
      case 3 -> u.set("m", java.util.Map.of("k" + rnd.nextInt(4), rnd.nextInt(5)));
      case 4 -> u.set("fz", new java.util.HashSet<>(List.of(rnd.nextInt(3), rnd.nextInt(3))));
      case 5 -> u.set("n", rnd.nextBoolean() ? "Ada" + rnd.nextInt(3) : "aDA" + rnd.nextInt(3));
      case 6 -> {
        t.delete().eq("p", p).eq("c", c).element("m", "k" + rnd.nextInt(4)).execute();
        return "delete map element";
      }
      case 8 -> u.add("nt", new java.util.HashSet<>(List.of(analyzedWord(rnd), analyzedWord(rnd))));
      case 9 -> u.remove("nt", java.util.Set.of(analyzedWord(rnd)));
      case 10 -> {
        if (rnd.nextBoolean()) {
          u.put("nm", accentedKey(rnd), rnd.nextInt(3));
        } else {
          t.delete().eq("p", p).eq("c", c).element("nm", accentedKey(rnd)).execute();
          return "delete nm key";
        }
      }
      default -> {
        t.delete().columns("tags").eq("p", p).eq("c", c).execute();
        return "delete set";
      }
    }
    u.execute();
    return "collection write " + k;
  }

  /**
   * A write of the static column: a value (sometimes with a TTL, sometimes into partition 8 or 9,
   * which hold nothing but static values), its deletion, or the deletion of such a partition.
   */
  private static String staticStep(Random rnd, Table t, int p) {
    int k = rnd.nextInt(6);
    int ps = k == 1 || k == 4 ? 8 + rnd.nextInt(2) : p;
    if (k == 3) {
      t.delete().columns("st").eq("p", ps).execute();
      return "delete static";
    }
    if (k == 4) {
      t.delete().eq("p", ps).execute();
      return "delete static-only partition";
    }
    var u = t.update().set("st", rnd.nextInt(4)).where("p", ps);
    if (k == 2) {
      u.ttl(Duration.ofSeconds(1 + rnd.nextInt(20)));
    }
    u.execute();
    return "static write " + k;
  }

  /** A word in one of several cases, so that a case-insensitive index has work to do. */
  private static String analyzedWord(Random rnd) {
    return List.of("Ada", "ada", "ADA", "Bob", "bob").get(rnd.nextInt(5)) + rnd.nextInt(2);
  }

  /** A key with or without its accent, so that an ascii-folding index has work to do. */
  private static String accentedKey(Random rnd) {
    return List.of("café", "cafe", "thé", "the").get(rnd.nextInt(4));
  }

  private static String fold(String s) {
    return java.text.Normalizer.normalize(s, java.text.Normalizer.Form.NFD)
        .replaceAll("\\p{M}+", "");
  }

  private static float[] vector(Random rnd) {
    return new float[] {rnd.nextFloat() * 10, rnd.nextFloat() * 10};
  }

  /**
   * An ANN read against the full scan's live rows ranked by the same euclidean score here, exact:
   * the vector index's search is exact, so the two agree (random floats make ties improbable).
   */
  private static void checkAnn(Random rnd, Table t, String where) {
    float[] q = vector(rnd);
    int limit = 1 + rnd.nextInt(8);
    Integer p = rnd.nextBoolean() ? null : rnd.nextInt(8);
    List<ResultRow> live = new ArrayList<>();
    for (ResultRow r : t.select().execute().rows()) {
      if (r.get("v") != null && (p == null || r.getInt("p") == p)) {
        live.add(r);
      }
    }
    live.sort(
        java.util.Comparator.comparingDouble(
            (ResultRow r) -> -VectorSimilarity.EUCLIDEAN.score(q, (float[]) r.get("v"))));
    List<String> expected = rows(live.subList(0, Math.min(limit, live.size())));
    Select s = t.select().orderByAnn("v", q).limit(limit);
    if (p != null) {
      s.eq("p", p);
    }
    assertThat(rows(s.execute()))
        .as(where + ": ANN of " + java.util.Arrays.toString(q) + " limit " + limit + " p " + p)
        .isEqualTo(expected);
    // a page size below the limit: every row in one page, as Cassandra 5.0 reads a top-k query
    int pageSize = 1 + rnd.nextInt(limit);
    ResultSet paged = s.pageSize(pageSize).execute();
    assertThat(rows(paged))
        .as(where + ": the same ANN read, page size " + pageSize)
        .isEqualTo(expected);
    assertThat(paged.pagingState()).as(where + ": ANN page size " + pageSize).isEmpty();
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
    int k = rnd.nextInt(18);
    if (k == 11) {
      checkAnn(rnd, t, where);
      return;
    }
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
    } else if (k == 6) {
      int v = rnd.nextInt(6);
      q = s -> s.contains("tags", v);
      match =
          r ->
              r.getSet("tags", Integer.class) != null
                  && r.getSet("tags", Integer.class).contains(v);
      desc = "tags contains " + v;
    } else if (k == 7) {
      String v = "k" + rnd.nextInt(4);
      q = s -> s.containsKey("m", v);
      match =
          r ->
              r.getMap("m", String.class, Integer.class) != null
                  && r.getMap("m", String.class, Integer.class).containsKey(v);
      desc = "m contains key " + v;
    } else if (k == 8) {
      int v = rnd.nextInt(5);
      int v2 = rnd.nextInt(6);
      q = s -> s.contains("m", v).contains("tags", v2);
      match =
          r ->
              r.getMap("m", String.class, Integer.class) != null
                  && r.getMap("m", String.class, Integer.class).containsValue(v)
                  && r.getSet("tags", Integer.class) != null
                  && r.getSet("tags", Integer.class).contains(v2);
      desc = "m contains " + v + " and tags contains " + v2;
    } else if (k == 9) {
      java.util.Set<Integer> v =
          rnd.nextBoolean()
              ? java.util.Set.of(rnd.nextInt(3))
              : java.util.Set.of(0, 1 + rnd.nextInt(2));
      q = s -> s.eq("fz", v);
      match = r -> v.equals(r.getSet("fz", Integer.class));
      desc = "fz = " + v;
    } else if (k == 10) {
      String v = (rnd.nextBoolean() ? "ADA" : "ada") + rnd.nextInt(3);
      q = s -> s.eq("n", v);
      match = r -> r.getString("n") != null && r.getString("n").equalsIgnoreCase(v);
      desc = "n = " + v + " (case-insensitive)";
    } else if (k == 12) {
      String key = "k" + rnd.nextInt(4);
      int v = rnd.nextInt(5);
      q = s -> s.mapEntry("m", key, v);
      match =
          r ->
              r.getMap("m", String.class, Integer.class) != null
                  && Integer.valueOf(v).equals(r.getMap("m", String.class, Integer.class).get(key));
      desc = "m[" + key + "] = " + v;
    } else if (k == 13) {
      int v = rnd.nextInt(5);
      q = s -> s.eq("st", v);
      match = r -> r.getInt("st") != null && r.getInt("st") == v;
      desc = "st = " + v;
    } else if (k == 14) {
      int lo = rnd.nextInt(5);
      q = s -> s.ge("st", lo);
      match = r -> r.getInt("st") != null && r.getInt("st") >= lo;
      desc = "st >= " + lo;
    } else if (k == 16) {
      String v = analyzedWord(rnd);
      q = s -> s.contains("nt", v);
      match =
          r ->
              r.getSet("nt", String.class) != null
                  && r.getSet("nt", String.class).stream().anyMatch(e -> e.equalsIgnoreCase(v));
      desc = "nt contains " + v + " (case-insensitive)";
    } else if (k == 17) {
      String key = accentedKey(rnd);
      q = s -> s.containsKey("nm", key);
      match =
          r ->
              r.getMap("nm", String.class, Integer.class) != null
                  && r.getMap("nm", String.class, Integer.class).keySet().stream()
                      .anyMatch(e -> fold(e).equals(fold(key)));
      desc = "nm contains key " + key + " (ascii-folded)";
    } else if (k == 15) {
      int v = rnd.nextInt(4);
      String a = "v" + rnd.nextInt(5);
      q = s -> s.eq("st", v).eq("a", a);
      match = r -> r.getInt("st") != null && r.getInt("st") == v && a.equals(r.getString("a"));
      desc = "st = " + v + " and a = " + a;
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
        + r.get("ts")
        + "/"
        + r.get("tags")
        + "/"
        + r.get("m")
        + "/"
        + r.get("fz")
        + "/"
        + r.get("n")
        + "/"
        + r.get("st")
        + "/"
        + r.get("nt")
        + "/"
        + r.get("nm");
  }

  private static List<String> rows(ResultSet rs) {
    return rows(rs.rows());
  }

  private static List<String> rows(List<ResultRow> rs) {
    List<String> out = new ArrayList<>();
    rs.forEach(r -> out.add(row(r)));
    return out;
  }
}
