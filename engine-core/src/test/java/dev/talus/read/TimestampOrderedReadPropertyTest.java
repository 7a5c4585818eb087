package dev.talus.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.ManualClock;
import dev.talus.ResultRow;
import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.TalusMetricsListener;
import dev.talus.TalusOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random inserts, updates, row, column, range and partition deletions, TTLs (with the clock moving
 * past them) flushes over many SSTables and an occasional compaction, with timestamps out of write
 * order; after each step random named reads (which gather sources newest first and may stop early)
 * must return exactly what the same rows read as a one-row slice (which merges every source)
 * return. Seeds: {@code -Dtalus.tsorder.seed=N} replays one; {@code -Dtalus.tsorder.seeds=N} runs
 * N.
 */
class TimestampOrderedReadPropertyTest {
  @TempDir Path tmp;

  static final int STEPS = 600;

  static List<Long> seeds() {
    Long one = Long.getLong("talus.tsorder.seed");
    if (one != null) {
      return List.of(one);
    }
    List<Long> out = new ArrayList<>();
    for (long s = 1; s <= Integer.getInteger("talus.tsorder.seeds", 4); s++) {
      out.add(s * 7919);
    }
    return out;
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void namedReadsMatchTheFullMerge(long seed) throws Exception {
    System.out.println("TimestampOrderedReadPropertyTest seed " + seed);
    Random rnd = new Random(seed);
    ManualClock clock = ManualClock.startingAtDefault();
    AtomicInteger lastSources = new AtomicInteger();
    TalusMetricsListener listener =
        new TalusMetricsListener() {
          @Override
          public void onRead(String table, long micros, int sstablesTouched, int tombstones) {
            lastSources.set(sstablesTouched);
          }
        };
    Path dir = Files.createDirectories(tmp.resolve("s" + seed));
    int stoppedEarly = 0;
    int compared = 0;
    try (TalusDb db =
        TalusDb.open(
            TalusOptions.builder(dir)
                .clock(clock)
                .backgroundCompaction(false)
                .metricsListener(listener)
                .build())) {
      Table t = db.createTable(TimestampOrderedReadTest.schema("t").build());
      for (int step = 0; step < STEPS; step++) {
        String op = write(t, rnd, clock);
        for (int k = 0; k < 3; k++) {
          int p = rnd.nextInt(2);
          int c = rnd.nextInt(4);
          boolean oneColumn = rnd.nextInt(4) == 0;
          String named = describe(named(t, p, c, oneColumn));
          int namedSources = lastSources.get();
          String full = describe(slice(t, p, c, oneColumn));
          int fullSources = lastSources.get();
          assertThat(named)
              .as("seed %d step %d after %s: read p=%d c=%d", seed, step, op, p, c)
              .isEqualTo(full);
          compared++;
          if (namedSources < fullSources) {
            stoppedEarly++;
          }
        }
        // one named read of two rows at once against the two slices
        int c1 = rnd.nextInt(2);
        int c2 = 2 + rnd.nextInt(2);
        String both = describe(t.select().eq("p", 0).in("c", c1, c2).execute().rows());
        List<ResultRow> slices = new ArrayList<>(slice(t, 0, c1, false));
        slices.addAll(slice(t, 0, c2, false));
        assertThat(both)
            .as("seed %d step %d: IN (%d, %d)", seed, step, c1, c2)
            .isEqualTo(describe(slices));
      }
    }
    System.out.println(
        "TimestampOrderedReadPropertyTest seed "
            + seed
            + ": "
            + compared
            + " reads compared, "
            + stoppedEarly
            + " stopped before the last source");
    assertThat(stoppedEarly).as("seed %d: reads that stopped early", seed).isPositive();
  }

  private static List<ResultRow> named(Table t, int p, int c, boolean oneColumn) {
    var s = t.select().eq("p", p).eq("c", c);
    return (oneColumn ? s.columns("v1") : s).execute().rows();
  }

  private static List<ResultRow> slice(Table t, int p, int c, boolean oneColumn) {
    var s = t.select().eq("p", p).ge("c", c).le("c", c);
    return (oneColumn ? s.columns("v1") : s).execute().rows();
  }

  private static String describe(List<ResultRow> rows) {
    return ResultText.describe(rows, col -> col.startsWith("v"));
  }

  /** One random write (or flush, or clock move); returns what it did, for failure messages. */
  private static String write(Table t, Random rnd, ManualClock clock) {
    int p = rnd.nextInt(2);
    int c = rnd.nextInt(4);
    long ts = 1 + rnd.nextInt(1_000);
    int ttl = rnd.nextInt(5) == 0 ? 1 + rnd.nextInt(20) : 0;
    int kind = rnd.nextInt(100);
    if (kind < 12) {
      t.flush();
      return "flush";
    }
    if (kind < 17) {
      int s = 1 + rnd.nextInt(15);
      clock.advance(Duration.ofSeconds(s));
      return "advance " + s;
    }
    if (kind < 50) {
      var i = t.insert().value("p", p).value("c", c).timestamp(ts);
      boolean v1 = rnd.nextInt(3) > 0;
      boolean v2 = rnd.nextInt(3) > 0;
      if (v1) {
        i.value("v1", rnd.nextBoolean() ? rnd.nextInt(100) : null);
      }
      if (v2) {
        i.value("v2", "s" + rnd.nextInt(100));
      }
      if (ttl > 0) {
        i.ttl(Duration.ofSeconds(ttl));
      }
      i.execute();
      return "insert p=" + p + " c=" + c + " ts=" + ts + " ttl=" + ttl + " v1=" + v1 + " v2=" + v2;
    }
    if (kind < 70) {
      var u = t.update().where("p", p).where("c", c).timestamp(ts);
      if (rnd.nextBoolean()) {
        u.set("v1", rnd.nextInt(100));
      } else {
        u.set("v2", rnd.nextBoolean() ? "u" + rnd.nextInt(100) : null);
      }
      if (ttl > 0) {
        u.ttl(Duration.ofSeconds(ttl));
      }
      u.execute();
      return "update p=" + p + " c=" + c + " ts=" + ts + " ttl=" + ttl;
    }
    if (kind < 80) {
      t.delete().eq("p", p).eq("c", c).timestamp(ts).execute();
      return "delete row p=" + p + " c=" + c + " ts=" + ts;
    }
    if (kind < 87) {
      String col = rnd.nextBoolean() ? "v1" : "v2";
      t.delete().columns(col).eq("p", p).eq("c", c).timestamp(ts).execute();
      return "delete " + col + " p=" + p + " c=" + c + " ts=" + ts;
    }
    if (kind < 95) {
      int hi = c + 1 + rnd.nextInt(2);
      t.delete().eq("p", p).ge("c", c).lt("c", hi).timestamp(ts).execute();
      return "delete range p=" + p + " c in [" + c + ", " + hi + ") ts=" + ts;
    }
    if (kind == 99) {
      t.compact();
      return "compact";
    }
    t.delete().eq("p", p).timestamp(ts).execute();
    return "delete partition p=" + p + " ts=" + ts;
  }
}
