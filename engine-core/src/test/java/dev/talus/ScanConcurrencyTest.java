package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scans while the table changes: token ranges read page by page under concurrent writes, flushes
 * and compactions still return every row written before the scan exactly once (and no row twice); a
 * scan holds no SSTable after it returns, so compaction deletes the files it replaced.
 */
class ScanConcurrencyTest {
  private static final int PARTITIONS = 200;
  private static final int ROWS = 5;

  @TempDir Path dir;

  private static Table table(TalusDb db) {
    return db.createTable(
        TableSchema.builder("ring")
            .partitionKey("p", DataType.INT)
            .clusteringColumn("c", DataType.INT)
            .column("v", DataType.INT)
            .build());
  }

  @Test
  void tokenRangesReadEveryRowOnceUnderWritesFlushesAndCompactions() throws Exception {
    try (TalusDb db =
        TalusDb.open(
            TalusOptions.builder(dir)
                .clock(ManualClock.startingAtDefault())
                .backgroundCompaction(false)
                .build())) {
      Table t = table(db);
      Set<String> before = new HashSet<>();
      for (int p = 0; p < PARTITIONS; p++) {
        for (int c = 0; c < ROWS; c++) {
          t.insert().value("p", p).value("c", c).value("v", 0).execute();
          before.add(p + ":" + c);
        }
        if (p % 50 == 49) {
          t.flush();
        }
      }
      ExecutorService pool = Executors.newFixedThreadPool(2);
      AtomicBoolean scanning = new AtomicBoolean(true);
      Future<?> writer =
          pool.submit(
              () -> {
                // new partitions and overwrites of old rows (same key, new value)
                for (int i = 0; scanning.get() && i < 3_000; i++) {
                  t.insert().value("p", PARTITIONS + i).value("c", 0).value("v", i).execute();
                  t.insert()
                      .value("p", i % PARTITIONS)
                      .value("c", i % ROWS)
                      .value("v", i)
                      .execute();
                }
              });
      Future<?> maintenance =
          pool.submit(
              () -> {
                while (scanning.get()) {
                  t.flush();
                  t.compact();
                }
              });
      long[] cuts = {Long.MIN_VALUE, Long.MIN_VALUE / 2, 0, Long.MAX_VALUE / 3};
      List<String> seen = new ArrayList<>();
      try {
        for (int round = 0; round < 2; round++) {
          seen.clear();
          seen.addAll(scanKeys(t.select().tokenLe(Long.MIN_VALUE)));
          for (int i = 0; i < cuts.length; i++) {
            seen.addAll(scanPaged(t, cuts, i));
          }
          assertThat(seen).doesNotHaveDuplicates();
          assertThat(new HashSet<>(seen)).containsAll(before);
        }
      } finally {
        scanning.set(false);
        writer.get(60, TimeUnit.SECONDS);
        maintenance.get(60, TimeUnit.SECONDS);
        pool.shutdown();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
      }
    }
  }

  private static List<String> scanKeys(Select s) {
    List<String> out = new ArrayList<>();
    s.execute().forEach(r -> out.add(r.getInt("p") + ":" + r.getInt("c")));
    return out;
  }

  /** Range {@code i} of the cuts, in pages of 7 rows. */
  private static List<String> scanPaged(Table t, long[] cuts, int i) {
    List<String> out = new ArrayList<>();
    PagingState state = null;
    do {
      Select s = t.select().tokenGt(cuts[i]).pageSize(7);
      if (i + 1 < cuts.length) {
        s.tokenLe(cuts[i + 1]);
      }
      ResultSet page = (state == null ? s : s.pagingState(state)).execute();
      page.forEach(r -> out.add(r.getInt("p") + ":" + r.getInt("c")));
      state = page.pagingState().orElse(null);
    } while (state != null);
    return out;
  }

  @Test
  void anAbandonedPagedScanHoldsNoSSTable() throws IOException {
    try (TalusDb db =
        TalusDb.open(
            TalusOptions.builder(dir)
                .clock(ManualClock.startingAtDefault())
                .backgroundCompaction(false)
                .build())) {
      Table t = table(db);
      for (int p = 0; p < 50; p++) {
        t.insert().value("p", p).value("c", 0).value("v", p).execute();
        if (p % 10 == 9) {
          t.flush();
        }
      }
      assertThat(t.sstables()).hasSize(5);
      ResultSet first = t.select().pageSize(3).execute();
      assertThat(first.pagingState()).isPresent(); // never resumed
      t.compact();
      assertThat(t.sstables()).hasSize(1);
      long live = t.sstables().get(0).generation();
      try (Stream<Path> files = Files.walk(dir.resolve("tables"))) {
        List<String> data =
            files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith("-Data.db")).toList();
        assertThat(data).containsExactly("nb-" + live + "-Data.db");
      }
      assertThat(t.select().execute().size()).isEqualTo(50);
    }
  }
}
