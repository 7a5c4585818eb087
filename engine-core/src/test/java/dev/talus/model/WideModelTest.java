package dev.talus.model;

import dev.talus.ClusteringOrder;
import dev.talus.CompactionOptions;
import dev.talus.DataType;
import dev.talus.Delete;
import dev.talus.ManualClock;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import dev.talus.Update;
import dev.talus.longrun.ResumeState;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The second model-based table: a composite partition key (text, int) with an empty text component
 * among its values, DESC timestamp and DESC uuid clustering, bigint/double/boolean/blob columns;
 * explicit and implicit (engine-assigned) timestamps mixed; point reads, slices, reversed and paged
 * reads, and multi-partition {@code in(...)} reads (paged, with limits). On a difference the
 * failure names the seed and the shrunk operation list.
 *
 * <p>Implicit timestamps: the model predicts the engine's (the clock in microseconds, +1 per write
 * within the same microsecond) and every read checks it through {@code writetime(n)}. After a
 * restart the generator advances the clock a second, as a real clock would have, so the prediction
 * does not depend on whether the engine remembers its last timestamp across a restart.
 *
 * <p>Snapshots: a snapshot operation snapshots the table and records the model; a later import
 * check imports that snapshot into a fresh table and compares it with the recorded model ({@link
 * ModelSnapshots}).
 *
 * <p>With {@code -Dtalus.fuzz.minutes=N} (profile {@code -Pfuzz}) {@link #fuzz} runs random seeds
 * of both model tests for N minutes and prints what it checked.
 */
class WideModelTest {
  static final int OPS = Integer.getInteger("talus.model.wide.ops", 2_500);

  @TempDir Path tmp;

  sealed interface Op {}

  /** ts null: implicit (engine-assigned) timestamp. values: column → value (null: tombstone). */
  record Write(
      boolean insert,
      WideModel.Pk pk,
      WideModel.Ck ck,
      Map<String, Object> values,
      int ttl,
      Long ts)
      implements Op {}

  record DeleteRow(WideModel.Pk pk, WideModel.Ck ck, Long ts) implements Op {}

  record DeleteColumn(WideModel.Pk pk, WideModel.Ck ck, String column, Long ts) implements Op {}

  record DeleteRange(WideModel.Pk pk, WideModel.Range range, Long ts) implements Op {}

  record DeletePartition(WideModel.Pk pk, Long ts) implements Op {}

  record Advance(int seconds) implements Op {}

  record Flush() implements Op {}

  record Restart() implements Op {}

  /** Snapshots w and records the model ({@link ModelSnapshots}). */
  record Snapshot() implements Op {}

  /** Imports the newest snapshot into a fresh table and compares it with the recorded model. */
  record ImportCheck() implements Op {}

  record Compact() implements Op {}

  record BackgroundCompactions() implements Op {}

  record SetStrategy(int strategy) implements Op {}

  /**
   * kind 0: whole partitions; 1: ts in [tsLo, tsHi]; 2: ts = tsLo and id in [idLo, idHi]; 3: a
   * point read (ts = tsLo, id = idLo); 4: ts IN tsIn (and id IN idIn if not empty); 5: the
   * multi-column range (ts, id) > (tsLo, idLo) AND (ts, id) <= (tsHi, idHi), each bound strict or
   * not; 6: (ts, id) IN the pairs of tsIn and idIn. More than one partition key: an in(...) read,
   * merged into one order when reversed. perPartitionLimit MAX_VALUE: none.
   */
  record Read(
      List<WideModel.Pk> pks,
      int kind,
      int tsLo,
      int tsHi,
      int idLo,
      int idHi,
      boolean reversed,
      int limit,
      int pageSize,
      List<Integer> tsIn,
      List<Integer> idIn,
      boolean lowerInclusive,
      boolean upperInclusive,
      int perPartitionLimit)
      implements Op {}

  static Stream<Arguments> runs() {
    List<Arguments> runs = new ArrayList<>();
    for (int strategy = 0; strategy < 3; strategy++) {
      for (long seed : new long[] {11, 12, 13, 20260301}) {
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
      List<Op> shrunk = shrink(ops, o -> run(o, tmp.resolve("shrink")));
      throw new AssertionError(
          describe("strategy " + strategy + ", seed " + seed, failure, shrunk));
    }
  }

  static <T> String describe(String run, String failure, List<T> shrunk) {
    return run
        + ": "
        + failure
        + "\nshortest reproducer, "
        + shrunk.size()
        + " ops:\n  "
        + String.join("\n  ", shrunk.stream().map(Object::toString).toList());
  }

  private static WideModel.Pk pk(Random rnd) {
    return new WideModel.Pk(
        WideModel.A_VALUES[rnd.nextInt(WideModel.A_VALUES.length)],
        WideModel.B_VALUES[rnd.nextInt(WideModel.B_VALUES.length)]);
  }

  private static WideModel.Ck ck(Random rnd) {
    return new WideModel.Ck(rnd.nextInt(WideModel.TS_VALUES), rnd.nextInt(WideModel.IDS.length));
  }

  private static Object value(String column, Random rnd) {
    if (rnd.nextInt(8) == 0) {
      return null;
    }
    return switch (column) {
      case "n" -> rnd.nextInt(3) == 0 ? -1L - rnd.nextInt(3) : (long) rnd.nextInt(5);
      case "d" -> rnd.nextInt(4) == 0 ? -0.5 * rnd.nextInt(3) : 1.5 * rnd.nextInt(3);
      case "f" -> rnd.nextBoolean();
      default ->
          HexFormat.of().formatHex(new byte[] {(byte) rnd.nextInt(4), (byte) -rnd.nextInt(2)});
    };
  }

  /**
   * Explicit timestamps lie within ±3 s of the clock, so they interleave with implicit ones; the
   * generator tracks the clock to place them.
   */
  static List<Op> generate(long seed, int n) {
    Random rnd = new Random(seed);
    List<Op> ops = new ArrayList<>();
    long clockSec = 0;
    for (int i = 0; i < n; i++) {
      Long ts =
          rnd.nextInt(3) == 0
              ? null
              : (START.getEpochSecond() + clockSec) * 1_000_000L
                  + rnd.nextInt(6_000_000)
                  - 3_000_000L;
      WideModel.Pk pk = pk(rnd);
      WideModel.Ck ck = ck(rnd);
      int k = rnd.nextInt(100);
      if (k < 38) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (String c : WideModel.COLUMNS) {
          if (rnd.nextInt(3) == 0) {
            values.put(c, value(c, rnd));
          }
        }
        boolean insert = rnd.nextBoolean();
        if (!insert && values.isEmpty()) {
          values.put("n", value("n", rnd));
        }
        int ttl = rnd.nextInt(4) == 0 ? 1 + rnd.nextInt(15) : 0;
        ops.add(new Write(insert, pk, ck, values, ttl, ts));
      } else if (k < 45) {
        ops.add(new DeleteRow(pk, ck, ts));
      } else if (k < 50) {
        ops.add(
            new DeleteColumn(pk, ck, WideModel.COLUMNS[rnd.nextInt(WideModel.COLUMNS.length)], ts));
      } else if (k < 55) {
        int lo = rnd.nextInt(WideModel.TS_VALUES);
        int hi = Math.min(WideModel.TS_VALUES - 1, lo + rnd.nextInt(3));
        WideModel.Range r;
        if (rnd.nextBoolean()) {
          r = new WideModel.Range(lo, hi, null, null);
        } else {
          int a = rnd.nextInt(3);
          int b = rnd.nextInt(3);
          boolean aFirst = WideModel.compareUuid(WideModel.IDS[a], WideModel.IDS[b]) <= 0;
          r = new WideModel.Range(lo, lo, aFirst ? a : b, aFirst ? b : a);
        }
        ops.add(new DeleteRange(pk, r, ts));
      } else if (k < 57) {
        ops.add(new DeletePartition(pk, ts));
      } else if (k < 62) {
        int s = 1 + rnd.nextInt(6);
        clockSec += s;
        ops.add(new Advance(s));
      } else if (k < 64) {
        ops.add(rnd.nextBoolean() ? new Flush() : new BackgroundCompactions());
      } else if (k < 65) {
        int which = rnd.nextInt(12);
        if (which >= 10) {
          ops.add(which == 10 ? new Snapshot() : new ImportCheck());
        } else if (which < 4) {
          ops.add(new Compact());
        } else if (which < 7) {
          ops.add(new Restart());
          ops.add(new Advance(1));
          clockSec += 1;
        } else {
          ops.add(new SetStrategy(rnd.nextInt(3)));
        }
      } else {
        List<WideModel.Pk> pks = new ArrayList<>();
        int count = rnd.nextInt(3) == 0 ? 2 + rnd.nextInt(3) : 1;
        for (int j = 0; j < count; j++) {
          WideModel.Pk p = pk(rnd);
          if (!pks.contains(p)) {
            pks.add(p);
          }
        }
        int kind = rnd.nextInt(7);
        int lo = rnd.nextInt(WideModel.TS_VALUES);
        int hi = Math.min(WideModel.TS_VALUES - 1, lo + rnd.nextInt(3));
        int a = rnd.nextInt(3);
        int b = rnd.nextInt(3);
        boolean aFirst = WideModel.compareUuid(WideModel.IDS[a], WideModel.IDS[b]) <= 0;
        int limit = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(8) : Integer.MAX_VALUE;
        int page = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(5) : Integer.MAX_VALUE;
        boolean reversed = rnd.nextBoolean();
        // IN lists with repeats and in no order; (ts, id) pairs for kind 6
        List<Integer> tsIn = new ArrayList<>();
        List<Integer> idIn = new ArrayList<>();
        int values = kind == 6 ? 1 + rnd.nextInt(4) : rnd.nextInt(4);
        for (int j = 0; j < values; j++) {
          tsIn.add(rnd.nextInt(WideModel.TS_VALUES));
          idIn.add(rnd.nextInt(WideModel.IDS.length));
        }
        if (kind == 4 && rnd.nextBoolean()) {
          idIn.clear();
        }
        // per-partition limits, but not with paging over partitions merged by an order
        int ppl =
            rnd.nextInt(4) == 0 && (!reversed || page == Integer.MAX_VALUE)
                ? 1 + rnd.nextInt(4)
                : Integer.MAX_VALUE;
        ops.add(
            new Read(
                pks,
                kind,
                lo,
                hi,
                aFirst ? a : b,
                aFirst ? b : a,
                reversed,
                limit,
                page,
                tsIn,
                idIn,
                rnd.nextBoolean(),
                rnd.nextBoolean(),
                ppl));
      }
    }
    return ops;
  }

  static final Instant START = Instant.parse("2026-03-01T00:00:00Z");

  static TableSchema schema() {
    return schema("w");
  }

  static TableSchema schema(String name) {
    return TableSchema.builder(name)
        .partitionKey("a", DataType.TEXT)
        .partitionKey("b", DataType.INT)
        .clusteringColumn("ts", DataType.TIMESTAMP, ClusteringOrder.DESC)
        .clusteringColumn("id", DataType.UUID, ClusteringOrder.DESC)
        .column("n", DataType.BIGINT)
        .column("d", DataType.DOUBLE)
        .column("f", DataType.BOOLEAN)
        .column("bl", DataType.BLOB)
        .gcGrace(Duration.ofSeconds(5))
        .compaction(CompactionOptions.sizeTiered().minThreshold(2).build())
        .build();
  }

  /** The model's prediction of the engine's implicit timestamps. */
  private static final class Clock {
    long last = Long.MIN_VALUE;

    long next(ManualClock clock) {
      Instant now = clock.instant();
      long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
      last = Math.max(micros, last + 1);
      return last;
    }
  }

  /** Runs {@code ops} on a fresh database; returns the first difference, or null. */
  static String run(List<Op> ops, Path dir) {
    ModelBasedTest.deleteTree(dir);
    ManualClock clock = new ManualClock(START);
    WideModel model = new WideModel();
    Clock timestamps = new Clock();
    TalusOptions options =
        TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build();
    TalusDb db = TalusDb.open(options);
    ModelSnapshots snapshots = new ModelSnapshots();
    try {
      Table t = db.createTable(schema());
      for (int i = 0; i < ops.size(); i++) {
        Op op = ops.get(i);
        if (op instanceof Restart) {
          db.close();
          db = TalusDb.open(options);
          t = db.table("w");
          timestamps.last = Long.MIN_VALUE;
          continue;
        }
        if (op instanceof Snapshot) {
          snapshots.take(t, model);
          continue;
        }
        if (op instanceof ImportCheck) {
          String diff = snapshots.check(db, clock.instant().getEpochSecond());
          if (diff != null) {
            return "op #" + i + " " + op + ": " + diff;
          }
          continue;
        }
        String diff = apply(op, t, model, clock, timestamps);
        if (diff != null) {
          return "op #" + i + " " + op + ": " + diff;
        }
      }
    } finally {
      db.close();
    }
    return null;
  }

  private static Object engineValue(String column, Object v) {
    return column.equals("bl") && v != null ? HexFormat.of().parseHex((String) v) : v;
  }

  private static long ts(Long explicit, ManualClock clock, Clock timestamps) {
    return explicit != null ? explicit : timestamps.next(clock);
  }

  private static String apply(
      Op op, Table t, WideModel model, ManualClock clock, Clock timestamps) {
    long now = clock.instant().getEpochSecond();
    if (op instanceof Write w) {
      long ts = ts(w.ts, clock, timestamps);
      if (w.insert) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("a", w.pk.a());
        values.put("b", w.pk.b());
        values.put("ts", w.ck.instant());
        values.put("id", w.ck.uuid());
        w.values.forEach((c, v) -> values.put(c, engineValue(c, v)));
        ModelInserts.insert(t, values, Duration.ofSeconds(w.ttl), w.ts, ModelInserts.prepared(w));
        model.marker(w.pk, w.ck, ts, w.ttl, now);
      } else {
        Update up =
            t.update()
                .where("a", w.pk.a())
                .where("b", w.pk.b())
                .where("ts", w.ck.instant())
                .where("id", w.ck.uuid());
        w.values.forEach((c, v) -> up.set(c, engineValue(c, v)));
        if (w.ts != null) {
          up.timestamp(w.ts);
        }
        up.ttl(Duration.ofSeconds(w.ttl)).execute();
      }
      w.values.forEach((c, v) -> model.cell(w.pk, w.ck, c, v, ts, w.ttl, now));
    } else if (op instanceof DeleteRow d) {
      long ts = ts(d.ts, clock, timestamps);
      Delete del = rowDelete(t, d.pk, d.ck);
      if (d.ts != null) {
        del.timestamp(d.ts);
      }
      del.execute();
      model.deleteRow(d.pk, d.ck, ts);
    } else if (op instanceof DeleteColumn d) {
      long ts = ts(d.ts, clock, timestamps);
      Delete del = rowDelete(t, d.pk, d.ck).columns(d.column);
      if (d.ts != null) {
        del.timestamp(d.ts);
      }
      del.execute();
      model.cell(d.pk, d.ck, d.column, null, ts, 0, now);
    } else if (op instanceof DeleteRange d) {
      long ts = ts(d.ts, clock, timestamps);
      Delete del = t.delete().eq("a", d.pk.a()).eq("b", d.pk.b());
      WideModel.Range r = d.range;
      if (r.idLo() != null) {
        del.eq("ts", WideModel.T0.plusSeconds(r.tsLo()))
            .ge("id", WideModel.IDS[r.idLo()])
            .le("id", WideModel.IDS[r.idHi()]);
      } else {
        del.ge("ts", WideModel.T0.plusSeconds(r.tsLo()))
            .le("ts", WideModel.T0.plusSeconds(r.tsHi()));
      }
      if (d.ts != null) {
        del.timestamp(d.ts);
      }
      del.execute();
      model.deleteRange(d.pk, r, ts);
    } else if (op instanceof DeletePartition d) {
      long ts = ts(d.ts, clock, timestamps);
      Delete del = t.delete().eq("a", d.pk.a()).eq("b", d.pk.b());
      if (d.ts != null) {
        del.timestamp(d.ts);
      }
      del.execute();
      model.deletePartition(d.pk, ts);
    } else if (op instanceof Flush) {
      t.flush();
    } else if (op instanceof Compact) {
      t.compact();
    } else if (op instanceof BackgroundCompactions) {
      t.awaitCompactions();
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
      return WideModelReads.check(r, t, model, now);
    }
    return null;
  }

  private static Delete rowDelete(Table t, WideModel.Pk pk, WideModel.Ck ck) {
    return t.delete().eq("a", pk.a()).eq("b", pk.b()).eq("ts", ck.instant()).eq("id", ck.uuid());
  }

  /** Greedy delta debugging: drop chunks, then single ops, while the run still fails. */
  static <T> List<T> shrink(List<T> ops, Function<List<T>, String> run) {
    List<T> current = new ArrayList<>(ops);
    for (int chunk = Math.max(1, current.size() / 4); chunk >= 1; chunk /= 2) {
      boolean progress = true;
      while (progress) {
        progress = false;
        for (int i = 0; i + chunk <= current.size(); i += chunk) {
          List<T> candidate = new ArrayList<>(current.subList(0, i));
          candidate.addAll(current.subList(i + chunk, current.size()));
          if (run.apply(candidate) != null) {
            current = candidate;
            progress = true;
            break;
          }
        }
      }
    }
    return current;
  }

  /**
   * Long fuzzing ({@code mvn -B verify -Pfuzz -Dtalus.fuzz.minutes=10}): random seeds, strategies
   * and lengths for both model tests until the time is up; prints the operations and reads checked.
   * {@code -Dtalus.fuzz.ops=N} ends the run once N operations are checked in all (the time limit is
   * then unlimited unless given too). With {@code -Dtalus.fuzz.resume=/abs/file} the run's seed and
   * totals are saved after every model run and a later run with the same file goes on with the next
   * seed of the same sequence, so 10,000,000 operations can go in chunks of {@code
   * talus.fuzz.minutes} each; every chunk prints its own line and the total.
   */
  @Test
  @Tag("slow")
  @Tag("fuzz")
  void fuzz() {
    long target = Long.getLong("talus.fuzz.ops", Long.MAX_VALUE);
    String defaultMinutes = target == Long.MAX_VALUE ? "1" : "1e9";
    double minutes = Double.parseDouble(System.getProperty("talus.fuzz.minutes", defaultMinutes));
    long start = System.nanoTime();
    long budget = (long) Math.min(minutes * 60e9, Long.MAX_VALUE / 2.0);
    ResumeState resume = ResumeState.fromProperty("talus.fuzz.resume");
    long baseSeed = Long.getLong("talus.fuzz.seed", resume.get("seed", System.nanoTime()));
    resume.requireSame("seed", Long.toString(baseSeed));
    Random seeds = new Random(baseSeed);
    long ops = resume.get("ops", 0);
    long reads = resume.get("reads", 0);
    int runs = (int) resume.get("runs", 0);
    for (int i = 0; i < runs; i++) { // the seeds earlier chunks used
      seeds.nextLong();
      seeds.nextInt(3);
      seeds.nextInt(6_000);
    }
    long opsBefore = ops;
    int runsBefore = runs;
    System.out.println("[fuzz] seed sequence " + baseSeed + ", " + resume.describe());
    while (System.nanoTime() - start < budget && ops < target) {
      long seed = seeds.nextLong();
      int strategy = seeds.nextInt(3);
      int length = 1_000 + seeds.nextInt(6_000);
      String failure;
      List<?> list;
      if (runs % 2 == 0) {
        List<Op> w = new ArrayList<>(List.of(new SetStrategy(strategy)));
        w.addAll(generate(seed, length));
        list = w;
        failure = run(w, tmp.resolve("fuzz-w"));
        if (failure != null) {
          List<Op> shrunk = shrink(w, o -> run(o, tmp.resolve("shrink-w")));
          throw new AssertionError(describe("wide model, seed " + seed, failure, shrunk));
        }
        reads += w.stream().filter(o -> o instanceof Read).count();
      } else {
        List<ModelBasedTest.Op> m =
            new ArrayList<>(List.of(new ModelBasedTest.SetStrategy(strategy)));
        m.addAll(ModelBasedTest.generate(seed, length));
        list = m;
        failure = ModelBasedTest.run(m, tmp.resolve("fuzz-m"));
        if (failure != null) {
          List<ModelBasedTest.Op> shrunk =
              shrink(m, o -> ModelBasedTest.run(o, tmp.resolve("shrink-m")));
          throw new AssertionError(describe("first model, seed " + seed, failure, shrunk));
        }
        reads += m.stream().filter(o -> o instanceof ModelBasedTest.Read).count();
      }
      ops += list.size();
      runs++;
      resume.put("ops", ops);
      resume.put("reads", reads);
      resume.put("runs", runs);
      resume.save();
    }
    System.out.printf(
        "[fuzz] this chunk: %.1f min, %d runs, %d operations; total: %d runs, %d operations"
            + " checked, of which %d reads; mismatches = 0%s%n",
        (System.nanoTime() - start) / 60e9,
        runs - runsBefore,
        ops - opsBefore,
        runs,
        ops,
        reads,
        target == Long.MAX_VALUE ? "" : ops >= target ? " (target reached)" : " (run again)");
  }
}
