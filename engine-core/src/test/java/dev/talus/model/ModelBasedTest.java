package dev.talus.model;

import dev.talus.ClusteringOrder;
import dev.talus.CompactionOptions;
import dev.talus.DataType;
import dev.talus.Delete;
import dev.talus.ManualClock;
import dev.talus.PagingState;
import dev.talus.ResultRow;
import dev.talus.ResultSet;
import dev.talus.Select;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.Update;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random operations against the engine and against {@link Model}, with clock jumps between them;
 * every read is compared. On a difference the failure names the seed and a shrunk operation list
 * that still reproduces it. Later capabilities (flush, compaction, restart) join the operation mix
 * as they land: a non-frozen set column written element by element and whole, a static column, a
 * counter table beside the main one (flushed, compacted and reopened with it), scans of the whole
 * table with their aggregates ({@link ModelScans}), conditional writes whose outcome the model
 * predicts ({@link ModelConditional}), and ALTER TABLE dropping a column and adding it again.
 */
class ModelBasedTest {
  static final int PARTITIONS = 3;

  /** Operations per run; 3 strategies × 10 seeds × 7,000 = 210,000 checked operations. */
  static final int OPS = Integer.getInteger("talus.model.ops", 7_000);

  @TempDir Path tmp;

  interface Op {}

  /** Replaces the whole set (null: deletes it), as {@code UPDATE ... SET tags = {...}}. */
  record SetTags(int p, int c1, String c2, List<String> tags, int ttl, long ts) implements Op {}

  /** {@code tags = tags + {...}} ({@code add}) or {@code tags = tags - {...}}. */
  record ChangeTags(int p, int c1, String c2, boolean add, List<String> tags, int ttl, long ts)
      implements Op {}

  /** Writes (null: deletes) the partition's static column with an update naming the partition. */
  record WriteStatic(int p, Integer value, int ttl, long ts) implements Op {}

  /** Increments counter (p, c) of the counter table by {@code delta}. */
  record Increment(int p, int c, long delta) implements Op {}

  /** Reads every counter of partition {@code p}. */
  record ReadCounters(int p) implements Op {}

  record Write(
      boolean insert,
      int p,
      int c1,
      String c2,
      Object v1,
      Object v2,
      boolean setV1,
      boolean setV2,
      int ttl,
      long ts)
      implements Op {}

  record DeleteRow(int p, int c1, String c2, long ts) implements Op {}

  record DeleteColumns(int p, int c1, String c2, String column, long ts) implements Op {}

  record DeleteRange(int p, Model.Range range, long ts) implements Op {}

  record DeletePartition(int p, long ts) implements Op {}

  record Advance(int seconds) implements Op {}

  /** Writes the memtable to an SSTable. */
  record Flush() implements Op {}

  /** Closes and reopens the database. */
  record Restart() implements Op {}

  /** A major compaction. */
  record Compact() implements Op {}

  /** Runs whatever the strategy proposes until it proposes nothing. */
  record BackgroundCompactions() implements Op {}

  /** Switches the compaction strategy: 0 size-tiered, 1 leveled, 2 time-window. */
  record SetStrategy(int strategy) implements Op {}

  /**
   * ALTER TABLE: drops column v2 and adds it again, empty: no value written before comes back, from
   * memtables, SSTables or the commit log.
   */
  record DropAndReAddV2() implements Op {}

  /** kind 0: whole partition; 1: c1 range; 2: c1 = x and c2 range. */
  record Read(
      int p,
      int kind,
      int lo,
      int hi,
      String c2Lo,
      String c2Hi,
      boolean reversed,
      int limit,
      int pageSize)
      implements Op {}

  static Stream<Arguments> runs() {
    List<Arguments> runs = new ArrayList<>();
    long[] seeds = {1, 2, 3, 4, 5, 6, 7, 8, 20261129, 0xC0FFEE};
    for (int strategy = 0; strategy < 3; strategy++) {
      for (long seed : seeds) {
        runs.add(Arguments.of(strategy, seed));
      }
    }
    return runs.stream();
  }

  @ParameterizedTest(name = "strategy {0}, seed {1}")
  @MethodSource("runs")
  void engineMatchesModel(int strategy, long seed) {
    List<Op> ops = new ArrayList<>();
    ops.add(new SetStrategy(strategy));
    ops.addAll(generate(seed, OPS));
    String failure = run(ops, tmp.resolve("run"));
    if (failure != null) {
      List<Op> shrunk = shrink(ops, failure);
      throw new AssertionError(
          "strategy "
              + strategy
              + ", seed "
              + seed
              + ": "
              + failure
              + "\nshrunk to "
              + shrunk.size()
              + " ops:\n  "
              + String.join("\n  ", shrunk.stream().map(Object::toString).toList()));
    }
  }

  static List<Op> generate(long seed, int n) {
    Random rnd = new Random(seed);
    List<Op> ops = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long ts = 1_000_000L + i * 10L + rnd.nextInt(31) - 15;
      int p = rnd.nextInt(PARTITIONS);
      int c1 = rnd.nextInt(Model.C1_VALUES);
      String c2 = Model.C2_VALUES[rnd.nextInt(Model.C2_VALUES.length)];
      int ttl = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(20) : 0;
      int k = rnd.nextInt(100);
      if (rnd.nextInt(40) == 0) {
        ops.add(ModelConditional.generate(rnd, p, c1, c2));
      } else if (rnd.nextInt(5) == 0) {
        ops.add(valueKindOp(rnd, p, c1, c2, ttl, ts));
      } else if (k < 40) {
        boolean setV1 = rnd.nextBoolean() || k < 10;
        boolean setV2 = rnd.nextBoolean();
        Object v1 = rnd.nextInt(8) == 0 ? null : rnd.nextInt(7) - 3;
        Object v2 = rnd.nextInt(8) == 0 ? null : "s" + rnd.nextInt(5);
        boolean insert = rnd.nextBoolean();
        if (!insert && !setV1 && !setV2) {
          setV1 = true;
        }
        ops.add(new Write(insert, p, c1, c2, v1, v2, setV1, setV2, ttl, ts));
      } else if (k < 48) {
        ops.add(new DeleteRow(p, c1, c2, ts));
      } else if (k < 54) {
        String column =
            switch (rnd.nextInt(3)) {
              case 0 -> "v1";
              case 1 -> "v2";
              default -> "tags";
            };
        ops.add(new DeleteColumns(p, c1, c2, column, ts));
      } else if (k < 60) {
        int lo = rnd.nextInt(Model.C1_VALUES);
        int hi = lo + rnd.nextInt(3);
        Model.Range r =
            switch (rnd.nextInt(3)) {
              case 0 -> new Model.Range(lo, lo, null, null);
              case 1 -> new Model.Range(lo, hi, null, null);
              default -> {
                String a = Model.C2_VALUES[rnd.nextInt(4)];
                String b = Model.C2_VALUES[rnd.nextInt(4)];
                yield new Model.Range(lo, lo, min(a, b), max(a, b));
              }
            };
        ops.add(new DeleteRange(p, r, ts));
      } else if (k < 62) {
        ops.add(new DeletePartition(p, ts));
      } else if (k < 67) {
        ops.add(new Advance(1 + rnd.nextInt(8)));
      } else if (k < 68) {
        ops.add(new Flush());
      } else if (k < 69) {
        int which = rnd.nextInt(11);
        ops.add(
            which < 5
                ? new BackgroundCompactions()
                : which < 8
                    ? new Compact()
                    : which < 9
                        ? new Restart()
                        : which < 10 ? new SetStrategy(rnd.nextInt(3)) : new DropAndReAddV2());
      } else if (k < 70) {
        ops.add(rnd.nextBoolean() ? new Flush() : new BackgroundCompactions());
      } else {
        int kind = rnd.nextInt(3);
        int lo = rnd.nextInt(Model.C1_VALUES);
        int hi = lo + rnd.nextInt(4);
        String a = Model.C2_VALUES[rnd.nextInt(4)];
        String b = Model.C2_VALUES[rnd.nextInt(4)];
        int limit = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(6) : Integer.MAX_VALUE;
        int page = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(4) : Integer.MAX_VALUE;
        if (k >= 95) {
          ops.add(new ModelScans.Scan(kind, lo, hi, limit, page));
        } else {
          ops.add(new Read(p, kind, lo, hi, min(a, b), max(a, b), rnd.nextBoolean(), limit, page));
        }
      }
    }
    return ops;
  }

  static final String[] TAGS = {"x", "y", "z"};

  private static List<String> tags(Random rnd) {
    List<String> out = new ArrayList<>();
    for (String t : TAGS) {
      if (rnd.nextInt(3) == 0) {
        out.add(t);
      }
    }
    return out;
  }

  private static Op valueKindOp(Random rnd, int p, int c1, String c2, int ttl, long ts) {
    int k = rnd.nextInt(10);
    if (k < 2) {
      return new SetTags(p, c1, c2, rnd.nextInt(6) == 0 ? null : tags(rnd), ttl, ts);
    } else if (k < 5) {
      List<String> t = tags(rnd);
      if (t.isEmpty()) {
        t.add(TAGS[rnd.nextInt(TAGS.length)]);
      }
      return new ChangeTags(p, c1, c2, rnd.nextInt(3) > 0, t, ttl, ts);
    } else if (k < 7) {
      return new WriteStatic(p, rnd.nextInt(6) == 0 ? null : rnd.nextInt(100), ttl, ts);
    } else if (k < 9) {
      return new Increment(p, rnd.nextInt(3), rnd.nextInt(21) - 10);
    }
    return new ReadCounters(p);
  }

  private static String min(String a, String b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static String max(String a, String b) {
    return a.compareTo(b) <= 0 ? b : a;
  }

  /** Runs {@code ops} on a fresh database; returns the first difference, or null. */
  static String run(List<Op> ops, Path dir) {
    deleteTree(dir);
    ManualClock clock = new ManualClock(Instant.parse("2026-03-01T00:00:00Z"));
    Model model = new Model();
    TalusOptions options =
        TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build();
    TalusDb db = TalusDb.open(options);
    try {
      Table t =
          db.createTable(
              TableSchema.builder("m")
                  .partitionKey("p", DataType.INT)
                  .clusteringColumn("c1", DataType.INT, ClusteringOrder.ASC)
                  .clusteringColumn("c2", DataType.TEXT, ClusteringOrder.DESC)
                  .column("v1", DataType.INT)
                  .column("v2", DataType.TEXT)
                  .column("tags", DataType.set(DataType.TEXT))
                  .staticColumn("s", DataType.INT)
                  .gcGrace(Duration.ofSeconds(5))
                  .compaction(CompactionOptions.sizeTiered().minThreshold(2).build())
                  .chunkLengthKb(1) // the smallest: rows and partitions straddle chunks
                  .build());
      Table counters =
          db.createTable(
              TableSchema.builder("counts")
                  .partitionKey("p", DataType.INT)
                  .clusteringColumn("c", DataType.INT, ClusteringOrder.ASC)
                  .column("n", DataType.COUNTER)
                  .build());
      Map<List<Integer>, Long> counts = new TreeMap<>(ModelBasedTest::compareKeys);
      for (int i = 0; i < ops.size(); i++) {
        Op op = ops.get(i);
        long now = clock.instant().getEpochSecond();
        if (op instanceof Restart) {
          db.close();
          db = TalusDb.open(options);
          t = db.table("m");
          counters = db.table("counts");
          continue;
        }
        String diff =
            op instanceof Increment || op instanceof ReadCounters
                ? counterOp(op, counters, counts)
                : apply(op, t, model, clock, now);
        if (op instanceof Flush) {
          counters.flush();
        } else if (op instanceof Compact || op instanceof BackgroundCompactions) {
          counters.compact();
        }
        if (diff != null) {
          return "op #" + i + " " + op + ": " + diff;
        }
      }
    } finally {
      db.close();
    }
    return null;
  }

  private static int compareKeys(List<Integer> a, List<Integer> b) {
    int c = Integer.compare(a.get(0), b.get(0));
    return c != 0 ? c : Integer.compare(a.get(1), b.get(1));
  }

  /** Counters: the model is the running total of every increment, exact. */
  private static String counterOp(Op op, Table counters, Map<List<Integer>, Long> counts) {
    if (op instanceof Increment inc) {
      counters.update().where("p", inc.p).where("c", inc.c).increment("n", inc.delta).execute();
      counts.merge(List.of(inc.p, inc.c), inc.delta, Long::sum);
      return null;
    }
    int p = ((ReadCounters) op).p;
    Map<Integer, Long> expected = new TreeMap<>();
    counts.forEach(
        (key, n) -> {
          if (key.get(0) == p) {
            expected.put(key.get(1), n);
          }
        });
    Map<Integer, Long> actual = new TreeMap<>();
    for (ResultRow r : counters.select().eq("p", p).execute()) {
      actual.put(r.getInt("c"), r.getLong("n"));
    }
    return expected.equals(actual) ? null : "counters: expected " + expected + " but got " + actual;
  }

  @SuppressWarnings("unchecked")
  static Set<String> stringSet(Object set) {
    return (Set<String>) set;
  }

  private static Set<String> tagSet(List<String> tags) {
    return tags == null ? null : Set.copyOf(tags);
  }

  private static String apply(Op op, Table t, Model model, ManualClock clock, long now) {
    if (op instanceof Write w) {
      Model.RowKey k = new Model.RowKey(w.c1, w.c2);
      if (w.insert) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("p", w.p);
        values.put("c1", w.c1);
        values.put("c2", w.c2);
        if (w.setV1) {
          values.put("v1", w.v1);
        }
        if (w.setV2) {
          values.put("v2", w.v2);
        }
        ModelInserts.insert(t, values, Duration.ofSeconds(w.ttl), w.ts, ModelInserts.prepared(w));
        model.marker(w.p, k, w.ts, w.ttl, now);
      } else {
        Update up = t.update().where("p", w.p).where("c1", w.c1).where("c2", w.c2).timestamp(w.ts);
        if (w.setV1) {
          up.set("v1", w.v1);
        }
        if (w.setV2) {
          up.set("v2", w.v2);
        }
        up.ttl(Duration.ofSeconds(w.ttl)).execute();
      }
      if (w.setV1) {
        model.cell(w.p, k, "v1", w.v1, w.ts, w.ttl, now);
      }
      if (w.setV2) {
        model.cell(w.p, k, "v2", w.v2, w.ts, w.ttl, now);
      }
    } else if (op instanceof SetTags w) {
      Model.RowKey k = new Model.RowKey(w.c1, w.c2);
      t.update()
          .where("p", w.p)
          .where("c1", w.c1)
          .where("c2", w.c2)
          .set("tags", tagSet(w.tags))
          .ttl(Duration.ofSeconds(w.ttl))
          .timestamp(w.ts)
          .execute();
      model.deleteTags(w.p, k, w.ts - 1); // Cassandra's overwrite: a deletion at ts - 1
      if (w.tags != null) {
        for (String e : w.tags) {
          model.tag(w.p, k, e, true, w.ts, w.ttl, now);
        }
      }
    } else if (op instanceof ChangeTags w) {
      Model.RowKey k = new Model.RowKey(w.c1, w.c2);
      Update up = t.update().where("p", w.p).where("c1", w.c1).where("c2", w.c2);
      if (w.add) {
        up.add("tags", tagSet(w.tags));
      } else {
        up.remove("tags", tagSet(w.tags));
      }
      up.ttl(Duration.ofSeconds(w.ttl)).timestamp(w.ts).execute();
      for (String e : w.tags) {
        model.tag(w.p, k, e, w.add, w.ts, w.ttl, now);
      }
    } else if (op instanceof WriteStatic w) {
      t.update()
          .where("p", w.p)
          .set("s", w.value)
          .ttl(Duration.ofSeconds(w.ttl))
          .timestamp(w.ts)
          .execute();
      model.staticCell(w.p, w.value, w.ts, w.ttl, now);
    } else if (op instanceof DeleteRow d) {
      t.delete().eq("p", d.p).eq("c1", d.c1).eq("c2", d.c2).timestamp(d.ts).execute();
      model.deleteRow(d.p, new Model.RowKey(d.c1, d.c2), d.ts);
    } else if (op instanceof DeleteColumns d) {
      t.delete()
          .eq("p", d.p)
          .eq("c1", d.c1)
          .eq("c2", d.c2)
          .columns(d.column)
          .timestamp(d.ts)
          .execute();
      if (d.column.equals("tags")) {
        model.deleteTags(d.p, new Model.RowKey(d.c1, d.c2), d.ts);
      } else {
        model.cell(d.p, new Model.RowKey(d.c1, d.c2), d.column, null, d.ts, 0, now);
      }
    } else if (op instanceof DeleteRange d) {
      Delete del = t.delete().eq("p", d.p).timestamp(d.ts);
      Model.Range r = d.range;
      if (r.c1Lo() == r.c1Hi()) {
        del.eq("c1", r.c1Lo());
        if (r.c2Lo() != null) {
          del.ge("c2", r.c2Lo()).le("c2", r.c2Hi());
        }
      } else {
        del.ge("c1", r.c1Lo()).le("c1", r.c1Hi());
      }
      del.execute();
      model.deleteRange(d.p, r, d.ts);
    } else if (op instanceof DeletePartition d) {
      t.delete().eq("p", d.p).timestamp(d.ts).execute();
      model.deletePartition(d.p, d.ts);
    } else if (op instanceof Flush) {
      t.flush();
    } else if (op instanceof Compact) {
      t.compact();
    } else if (op instanceof BackgroundCompactions) {
      t.awaitCompactions();
    } else if (op instanceof DropAndReAddV2) {
      t.alter().dropColumn("v2").apply();
      t.alter().addColumn("v2", DataType.TEXT).apply();
      model.dropColumn("v2");
    } else if (op instanceof SetStrategy st) {
      t.setCompaction(
          switch (st.strategy) {
            case 0 -> CompactionOptions.sizeTiered().minThreshold(2).build();
            case 1 -> CompactionOptions.leveled().sstableSizeBytes(64 << 10).build();
            default ->
                CompactionOptions.timeWindow()
                    .windowUnit(java.time.temporal.ChronoUnit.MINUTES)
                    .minThreshold(2)
                    .build();
          });
    } else if (op instanceof Advance a) {
      clock.advance(Duration.ofSeconds(a.seconds));
    } else if (op instanceof Read r) {
      return check(r, t, model, now);
    } else if (op instanceof ModelScans.Scan r) {
      return ModelScans.check(r, t, model, now);
    } else if (op instanceof ModelConditional.Cas c) {
      return ModelConditional.apply(c, t, model, now);
    }
    return null;
  }

  private static String check(Read r, Table t, Model model, long now) {
    List<Model.ModelRow> expected = new ArrayList<>();
    for (Model.ModelRow row : model.partition(r.p, now, r.kind == 0)) {
      boolean in =
          switch (r.kind) {
            case 0 -> true;
            case 1 -> row.c1() >= r.lo && row.c1() <= r.hi;
            default ->
                row.c1() == r.lo
                    && row.c2().compareTo(r.c2Lo) >= 0
                    && row.c2().compareTo(r.c2Hi) <= 0;
          };
      if (in) {
        expected.add(row);
      }
    }
    if (r.reversed) {
      Collections.reverse(expected);
    }
    if (expected.size() > r.limit) {
      expected = expected.subList(0, r.limit);
    }
    List<Model.ModelRow> actual = new ArrayList<>();
    PagingState state = null;
    int pages = 0;
    do {
      Select s = t.select().eq("p", r.p);
      switch (r.kind) {
        case 0 -> {}
        case 1 -> s.ge("c1", r.lo).le("c1", r.hi);
        default -> s.eq("c1", r.lo).ge("c2", r.c2Lo).le("c2", r.c2Hi);
      }
      if (r.reversed) {
        s.reversed();
      }
      if (r.limit != Integer.MAX_VALUE) {
        s.limit(r.limit);
      }
      if (r.pageSize != Integer.MAX_VALUE) {
        s.pageSize(r.pageSize);
      }
      if (state != null) {
        s.pagingState(state);
      }
      ResultSet rs = s.execute();
      for (ResultRow row : rs) {
        actual.add(
            new Model.ModelRow(
                row.getInt("p"),
                row.getInt("c1"),
                row.getString("c2"),
                row.getInt("v1"),
                row.getString("v2"),
                row.writeTime("v1"),
                stringSet(row.get("tags")),
                row.getInt("s")));
      }
      state = rs.pagingState().orElse(null);
      if (++pages > 1000) {
        return "paging does not terminate";
      }
    } while (state != null);
    return expected.equals(actual) ? null : "expected " + expected + "\n   but got " + actual;
  }

  /** Greedy delta debugging: drop chunks, then single ops, while the run still fails. */
  private List<Op> shrink(List<Op> ops, String failure) {
    List<Op> current = new ArrayList<>(ops);
    Path dir = tmp.resolve("shrink");
    for (int chunk = Math.max(1, current.size() / 4); chunk >= 1; chunk /= 2) {
      boolean progress = true;
      while (progress) {
        progress = false;
        for (int i = 0; i + chunk <= current.size(); i += chunk) {
          List<Op> candidate = new ArrayList<>(current.subList(0, i));
          candidate.addAll(current.subList(i + chunk, current.size()));
          if (run(candidate, dir) != null) {
            current = candidate;
            progress = true;
            break;
          }
        }
      }
    }
    return current;
  }

  static void deleteTree(Path d) {
    if (!Files.exists(d)) {
      return;
    }
    try (Stream<Path> s = Files.walk(d)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
