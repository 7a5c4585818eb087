package dev.talus.cql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.ClusteringOrder;
import dev.talus.DataType;
import dev.talus.ManualClock;
import dev.talus.ResultRow;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.cql.CqlRow;
import dev.talus.cql.PreparedCql;
import dev.talus.cql.TalusSession;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link CqlModelTest}'s twin for the composite values: the same random operations on a table with
 * a set, a map, a list and a static column, and on a counter table, applied through CQL (prepared
 * statements) and to twin tables through the builder API — whole-collection writes, element adds
 * and removes, map puts and element deletions, list appends and prepends, static writes without a
 * clustering key, row and partition deletions, {@code INSERT JSON} of the composite values (with
 * {@code DEFAULT NULL} and {@code UNSET}), counter increments alone and in counter batches — with
 * flushes, compactions, clock jumps and reopens; every read, asked both ways, must give the same
 * rows. Element and slice selection and writetime/maxwritetime/ttl of collections and of their
 * elements and slices are checked against the builder API's values and per-cell times ({@code
 * ResultRow.writeTimes}/{@code ttls}) of the same rows. The seed is printed; {@code
 * -Dtalus.cql.model.seed=S} replays one and {@code -Dtalus.cql.model.ops=N} lengthens a run.
 */
class CompositeCqlModelTest {
  static final int OPS = Integer.getInteger("talus.cql.model.ops", 500);

  @TempDir Path dir;

  static LongStream seeds() {
    Long one = Long.getLong("talus.cql.model.seed");
    return one != null ? LongStream.of(one) : LongStream.range(2026_12_02L, 2026_12_02L + 3);
  }

  private TalusDb db;
  private TalusSession cql;
  private Table api;
  private Table apiCounters;
  private ManualClock clock;

  private void open() {
    db = TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
    cql = TalusSession.builder(db).keyspace("m").fetchSize(0).build();
    api = db.table("m", "api");
    apiCounters = db.table("m", "apic");
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void cqlAndTheBuilderApiGiveTheSameAnswers(long seed) {
    System.out.println("CompositeCqlModelTest seed " + seed + ", " + OPS + " operations");
    clock = ManualClock.startingAtDefault();
    db = TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
    TalusSession setup = TalusSession.on(db);
    setup.execute(
        "CREATE KEYSPACE m WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    setup.execute(
        "CREATE TABLE m.viacql (k int, c int, s set<int>, mp map<text, int>, l list<int>,"
            + " st text STATIC, PRIMARY KEY (k, c))");
    setup.execute("CREATE TABLE m.viacqlc (k int PRIMARY KEY, n counter)");
    db.createTable(
        TableSchema.builder("api")
            .keyspace("m")
            .partitionKey("k", DataType.INT)
            .clusteringColumn("c", DataType.INT, ClusteringOrder.ASC)
            .column("s", DataType.set(DataType.INT))
            .column("mp", DataType.map(DataType.TEXT, DataType.INT))
            .column("l", DataType.list(DataType.INT))
            .staticColumn("st", DataType.TEXT)
            .build());
    db.createTable(
        TableSchema.builder("apic")
            .keyspace("m")
            .partitionKey("k", DataType.INT)
            .column("n", DataType.COUNTER)
            .build());
    db.close();
    open();
    Random rnd = new Random(seed);
    int reads = 0;
    for (int i = 0; i < OPS; i++) {
      int k = rnd.nextInt(3);
      int c = rnd.nextInt(3);
      int e = rnd.nextInt(5);
      String key = "k" + rnd.nextInt(3);
      int op = rnd.nextInt(18);
      switch (op) {
        case 0 -> {
          Set<Integer> s = Set.of(e, e + 10);
          run("INSERT INTO viacql (k, c, s) VALUES (?, ?, ?)", k, c, s);
          api.insert().value("k", k).value("c", c).value("s", s).execute();
        }
        case 1 -> {
          run("UPDATE viacql SET s = s + {?} WHERE k = ? AND c = ?", e, k, c);
          api.update().where("k", k).where("c", c).add("s", Set.of(e)).execute();
        }
        case 2 -> {
          run("UPDATE viacql SET s = s - {?} WHERE k = ? AND c = ?", e, k, c);
          api.update().where("k", k).where("c", c).remove("s", Set.of(e)).execute();
        }
        case 3 -> {
          run("UPDATE viacql SET mp[?] = ? WHERE k = ? AND c = ?", key, e, k, c);
          api.update().where("k", k).where("c", c).put("mp", key, e).execute();
        }
        case 4 -> {
          run("DELETE mp[?] FROM viacql WHERE k = ? AND c = ?", key, k, c);
          api.delete().eq("k", k).eq("c", c).element("mp", key).execute();
        }
        case 5 -> {
          run("UPDATE viacql SET mp = ? WHERE k = ? AND c = ?", Map.of(key, e), k, c);
          api.update().where("k", k).where("c", c).set("mp", Map.of(key, e)).execute();
        }
        case 6 -> {
          run("UPDATE viacql USING TTL 150 SET l = l + [?] WHERE k = ? AND c = ?", e, k, c);
          api.update()
              .where("k", k)
              .where("c", c)
              .add("l", List.of(e))
              .ttl(Duration.ofSeconds(150))
              .execute();
        }
        case 7 -> {
          run("UPDATE viacql SET l = [?] + l WHERE k = ? AND c = ?", e, k, c);
          api.update().where("k", k).where("c", c).prepend("l", List.of(e)).execute();
        }
        case 8 -> {
          run("INSERT INTO viacql (k, st) VALUES (?, ?)", k, key);
          api.insert().value("k", k).value("st", key).execute();
        }
        case 9 -> {
          run("DELETE FROM viacql WHERE k = ? AND c = ?", k, c);
          api.delete().eq("k", k).eq("c", c).execute();
        }
        case 10 -> {
          if (rnd.nextInt(4) == 0) {
            run("DELETE FROM viacql WHERE k = ?", k);
            api.delete().eq("k", k).execute();
          }
        }
        case 11 -> {
          long d = rnd.nextInt(7) - 3;
          run("UPDATE viacqlc SET n = n + ? WHERE k = ?", d, k);
          apiCounters.update().where("k", k).increment("n", d).execute();
        }
        case 12 -> {
          if (rnd.nextBoolean()) {
            db.table("m", "viacql").flush();
            api.flush();
            db.table("m", "viacqlc").flush();
            apiCounters.flush();
          } else {
            db.table("m", "viacql").compact();
            api.compact();
          }
        }
        case 13 -> {
          clock.advance(Duration.ofSeconds(rnd.nextInt(100)));
        }
        case 14 -> {
          if (rnd.nextInt(5) == 0) {
            db.close();
            open();
          }
        }
        case 15 -> {
          // INSERT JSON: the composite values in their JSON form; DEFAULT NULL writes a null
          // (a tombstone) in every column left out, the static one too, DEFAULT UNSET none
          boolean unset = rnd.nextBoolean();
          String json =
              "{\"k\": %d, \"c\": %d, \"s\": [%d, %d], \"mp\": {\"%s\": %d}, \"l\": \"[%d, %d]\"}"
                  .formatted(k, c, e + 10, e, key, e, e, e);
          run("INSERT INTO viacql JSON ?" + (unset ? " DEFAULT UNSET" : ""), json);
          var insert =
              api.insert()
                  .value("k", k)
                  .value("c", c)
                  .value("s", Set.of(e, e + 10))
                  .value("mp", Map.of(key, e))
                  .value("l", List.of(e, e));
          if (!unset) {
            insert.value("st", null);
          }
          insert.execute();
        }
        case 16 -> {
          long d = rnd.nextInt(7) - 3;
          int other = (k + 1) % 3;
          run(
              "BEGIN COUNTER BATCH UPDATE viacqlc SET n = n + ? WHERE k = ?;"
                  + " UPDATE viacqlc SET n = n - ? WHERE k = ?; APPLY BATCH",
              d,
              k,
              1L,
              other);
          db.batch()
              .add(apiCounters.update().where("k", k).increment("n", d))
              .add(apiCounters.update().where("k", other).increment("n", -1L))
              .execute();
        }
        default -> {
          compare(k);
          if (rnd.nextBoolean()) {
            compareParts(k, rnd);
          }
          reads++;
        }
      }
    }
    for (int k = 0; k < 3; k++) {
      compare(k);
    }
    db.close();
    assertThat(reads).as("seed %d", seed).isPositive();
  }

  /**
   * Element selection, slices and writetime/maxwritetime/ttl of whole collections and of elements,
   * through CQL, against the builder API's values and per-cell times of the same table's rows,
   * sliced and picked naively here.
   */
  private void compareParts(int k, Random rnd) {
    int lo = rnd.nextInt(12);
    int hi = lo + rnd.nextInt(8);
    int e = rnd.nextInt(15);
    String key = "k" + rnd.nextInt(3);
    String q =
        "SELECT c, s[?..?], mp[?], mp[..?], writetime(s), maxwritetime(mp), ttl(l),"
            + " writetime(s[?]), ttl(mp[?]), maxwritetime(s[?..]) FROM viacql WHERE k = ?";
    List<String> viaCql = new ArrayList<>();
    for (CqlRow r : cql.execute(q, lo, hi, key, key, e, key, lo, k).rows()) {
      List<Object> cells = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        cells.add(r.get(i));
      }
      viaCql.add(cells.toString());
    }
    List<String> expected = new ArrayList<>();
    for (ResultRow r : db.table("m", "viacql").select().eq("k", k).execute().rows()) {
      if (r.get("c") == null) {
        continue; // a partition with static data only: one row of nulls both ways
      }
      Set<Integer> set = r.getSet("s", Integer.class);
      Map<String, Integer> map = r.getMap("mp", String.class, Integer.class);
      List<Long> sTimes = r.writeTimes("s");
      List<Long> mTimes = r.writeTimes("mp");
      List<Integer> mTtls = r.ttls("mp");
      List<Object> cells = new ArrayList<>();
      cells.add(r.get("c"));
      cells.add(set == null ? null : nullIfEmpty(set.stream().filter(x -> x >= lo && x <= hi)));
      cells.add(map == null ? null : map.get(key));
      cells.add(map == null ? null : nullIfEmptyMap(map, key));
      cells.add(sTimes);
      cells.add(mTimes == null ? null : mTimes.stream().max(Long::compare).orElse(null));
      cells.add(r.ttls("l"));
      cells.add(at(set, sTimes, x -> x.equals(e)));
      cells.add(map == null ? null : at(map.keySet(), mTtls, x -> x.equals(key)));
      cells.add(maxAt(set, sTimes, x -> x >= lo));
      expected.add(cells.toString());
    }
    if (viaCql.size() == expected.size() + 1) {
      viaCql.remove(0); // the static-only row CQL shows, skipped above
    }
    assertThat(viaCql)
        .as("%s k=%d lo=%d hi=%d key=%s e=%d", q, k, lo, hi, key, e)
        .isEqualTo(expected);
  }

  private static Object nullIfEmpty(java.util.stream.Stream<Integer> kept) {
    List<Integer> l = kept.toList();
    return l.isEmpty() ? null : new java.util.TreeSet<>(l);
  }

  private static Object nullIfEmptyMap(Map<String, Integer> map, String upTo) {
    Map<String, Integer> kept = new java.util.TreeMap<>();
    map.forEach(
        (mk, v) -> {
          if (mk.compareTo(upTo) <= 0) {
            kept.put(mk, v);
          }
        });
    return kept.isEmpty() ? null : kept;
  }

  private static <T, V> V at(
      java.util.Collection<T> keys, List<V> times, java.util.function.Predicate<T> which) {
    if (keys == null || times == null) {
      return null;
    }
    int i = 0;
    for (T x : keys) {
      if (which.test(x)) {
        return times.get(i);
      }
      i++;
    }
    return null;
  }

  private static Long maxAt(
      java.util.Collection<Integer> keys,
      List<Long> times,
      java.util.function.Predicate<Integer> which) {
    if (keys == null || times == null) {
      return null;
    }
    Long best = null;
    int i = 0;
    for (Integer x : keys) {
      if (which.test(x) && times.get(i) != null && (best == null || times.get(i) > best)) {
        best = times.get(i);
      }
      i++;
    }
    return best;
  }

  private void run(String statement, Object... values) {
    PreparedCql p = cql.prepare(statement);
    p.bind(values).execute();
  }

  private void compare(int k) {
    List<List<Object>> viaCql = new ArrayList<>();
    for (CqlRow r : cql.execute("SELECT c, s, mp, l, st FROM viacql WHERE k = ?", k).rows()) {
      viaCql.add(java.util.Arrays.asList(r.get(0), r.get(1), r.get(2), r.get(3), r.get(4)));
    }
    List<List<Object>> viaApi = new ArrayList<>();
    for (ResultRow r : api.select().eq("k", k).execute().rows()) {
      viaApi.add(
          java.util.Arrays.asList(r.get("c"), r.get("s"), r.get("mp"), r.get("l"), r.get("st")));
    }
    assertThat(viaCql).as("partition %d", k).isEqualTo(viaApi);
    List<Object> n = new ArrayList<>();
    cql.execute("SELECT n FROM viacqlc WHERE k = ?", k).rows().forEach(r -> n.add(r.get(0)));
    List<Object> m = new ArrayList<>();
    apiCounters.select().eq("k", k).execute().rows().forEach(r -> m.add(r.get("n")));
    assertThat(n).as("counter %d", k).isEqualTo(m);
  }
}
