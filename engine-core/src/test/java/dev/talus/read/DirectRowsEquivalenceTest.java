package dev.talus.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.ClusteringOrder;
import dev.talus.DataType;
import dev.talus.ManualClock;
import dev.talus.ResultRow;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusMetricsListener;
import dev.talus.TalusOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Forward slices of a partition held by one SSTable, or by the memtable alone, stream straight from
 * its bytes ({@link DirectRows}); reversed slices still merge. Through random inserts, updates,
 * row, range and partition deletions, TTLs with the clock moving past them, flushes and
 * compactions, every forward slice must return the reverse of the reversed slice, value for value
 * with write times and TTLs, and scan the same number of tombstones. Seeded: the parameter is the
 * seed.
 */
class DirectRowsEquivalenceTest {
  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(longs = {101, 202, 303})
  void forwardSlicesEqualReversedOnes(long seed) throws Exception {
    System.out.println("DirectRowsEquivalenceTest seed " + seed);
    Random rnd = new Random(seed);
    ManualClock clock = ManualClock.startingAtDefault();
    AtomicInteger lastTombstones = new AtomicInteger();
    AtomicInteger lastSources = new AtomicInteger();
    TalusMetricsListener listener =
        new TalusMetricsListener() {
          @Override
          public void onRead(String table, long micros, int sstables, int tombstones) {
            lastTombstones.set(tombstones);
            lastSources.set(sstables);
          }
        };
    Path dir = Files.createDirectories(tmp.resolve("s" + seed));
    int compared = 0;
    int rowsSeen = 0;
    int streamed = 0;
    int memtableOnly = 0;
    try (TalusDb db =
        TalusDb.open(
            TalusOptions.builder(dir)
                .clock(clock)
                .backgroundCompaction(false)
                .metricsListener(listener)
                .build())) {
      Table t =
          db.createTable(
              TableSchema.builder("t")
                  .partitionKey("p", DataType.INT)
                  .clusteringColumn("c", DataType.INT, ClusteringOrder.DESC)
                  .column("v", DataType.TEXT)
                  .column("n", DataType.BIGINT)
                  .column("b", DataType.BLOB)
                  .tombstoneThresholds(100_000, 1_000_000)
                  .build());
      for (int step = 0; step < 400; step++) {
        write(t, rnd, clock);
        boolean compacted = step % 40 == 39;
        if (compacted) {
          t.flush();
          t.compact(); // one SSTable and an empty memtable: forward slices stream it
        }
        for (int k = 0; k < (compacted ? 40 : 3); k++) {
          int p = rnd.nextInt(3);
          int lo = rnd.nextInt(30);
          int hi = lo + rnd.nextInt(30);
          boolean oneColumn = rnd.nextInt(4) == 0;
          var fwd = t.select().eq("p", p).ge("c", lo).le("c", hi);
          var rev = t.select().eq("p", p).ge("c", lo).le("c", hi).reversed();
          if (oneColumn) {
            fwd.columns("b");
            rev.columns("b");
          }
          List<ResultRow> forward = fwd.execute().rows();
          int forwardTombstones = lastTombstones.get();
          if (compacted && lastSources.get() == 1) {
            streamed++;
          }
          if (step < 39 && !forward.isEmpty()) {
            memtableOnly++; // nothing flushed yet: the memtable alone, streamed from its chunks
          }
          List<ResultRow> backward = new ArrayList<>(rev.execute().rows());
          int backwardTombstones = lastTombstones.get();
          Collections.reverse(backward);
          String where = "seed " + seed + " step " + step + " p=" + p + " c in " + lo + ".." + hi;
          assertThat(describe(forward)).as(where).isEqualTo(describe(backward));
          assertThat(forwardTombstones).as(where + " tombstones").isEqualTo(backwardTombstones);
          int limit = 1 + rnd.nextInt(5);
          assertThat(describe(t.select().eq("p", p).limit(limit).execute().rows()))
              .as(where + " limit " + limit)
              .isEqualTo(describe(first(t.select().eq("p", p).reversed(), limit)));
          compared++;
          rowsSeen += forward.size();
        }
      }
    }
    System.out.println(
        "DirectRowsEquivalenceTest seed "
            + seed
            + ": "
            + compared
            + " slices, "
            + rowsSeen
            + " rows, "
            + streamed
            + " one-source slices after a compaction, "
            + memtableOnly
            + " non-empty slices of the memtable alone");
    assertThat(rowsSeen).isGreaterThan(500);
    assertThat(streamed).as("slices read from one SSTable alone").isGreaterThan(200);
    assertThat(memtableOnly).as("slices read from the memtable alone").isGreaterThan(30);
  }

  /** The first {@code limit} rows in clustering order, from a reversed read of everything. */
  private static List<ResultRow> first(dev.talus.Select reversed, int limit) {
    List<ResultRow> all = new ArrayList<>(reversed.execute().rows());
    Collections.reverse(all);
    return all.subList(0, Math.min(limit, all.size()));
  }

  private static String describe(List<ResultRow> rows) {
    return ResultText.describe(rows, col -> !col.equals("p") && !col.equals("c"));
  }

  private static void write(Table t, Random rnd, ManualClock clock) {
    int p = rnd.nextInt(3);
    int c = rnd.nextInt(30);
    int kind = rnd.nextInt(100);
    int ttl = rnd.nextInt(6) == 0 ? 1 + rnd.nextInt(20) : 0;
    if (kind < 45) {
      var i = t.insert().value("p", p).value("c", c);
      if (rnd.nextBoolean()) {
        i.value("v", "s" + rnd.nextInt(100));
      }
      if (rnd.nextBoolean()) {
        i.value("n", (long) rnd.nextInt(1000));
      }
      if (rnd.nextInt(3) == 0) {
        i.value("b", new byte[] {(byte) rnd.nextInt(256), (byte) c});
      }
      if (ttl > 0) {
        i.ttl(Duration.ofSeconds(ttl));
      }
      i.execute();
    } else if (kind < 60) {
      var u = t.update().where("p", p).where("c", c);
      if (rnd.nextBoolean()) {
        u.set("v", rnd.nextBoolean() ? null : "u" + rnd.nextInt(100));
      } else {
        u.set("n", (long) rnd.nextInt(1000));
      }
      if (ttl > 0) {
        u.ttl(Duration.ofSeconds(ttl));
      }
      u.execute();
    } else if (kind < 80) {
      t.delete().eq("p", p).eq("c", c).execute();
    } else if (kind < 86) {
      t.delete().columns("v").eq("p", p).eq("c", c).execute();
    } else if (kind < 92) {
      t.delete().eq("p", p).ge("c", c).lt("c", c + 1 + rnd.nextInt(5)).execute();
    } else if (kind < 94) {
      t.delete().eq("p", p).execute();
    } else {
      clock.advance(Duration.ofSeconds(1 + rnd.nextInt(10)));
    }
  }
}
