package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers and readers on one table at once. Each writer owns its own partition, so its final state
 * is known exactly; readers must never fail and never see a value no writer wrote.
 */
class ConcurrencyTest {
  private static final int WRITERS = 4;
  private static final int READERS = 2;
  private static final int OPS_PER_WRITER = 5_000;
  private static final int ROWS_PER_WRITER = 300;

  @TempDir Path dir;

  @Test
  void concurrentWritersAndReadersEndInTheExactExpectedState() throws Exception {
    ManualClock clock = ManualClock.startingAtDefault();
    try (TalusDb db = TalusDb.open(TalusOptions.builder(dir).clock(clock).readThreads(2).build())) {
      Table t =
          db.createTable(
              TableSchema.builder("conc")
                  .partitionKey("writer", DataType.INT)
                  .clusteringColumn("row", DataType.INT)
                  .column("value", DataType.TEXT)
                  .column("n", DataType.BIGINT)
                  .build());
      ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
      CountDownLatch start = new CountDownLatch(1);
      AtomicBoolean writing = new AtomicBoolean(true);
      ConcurrentLinkedQueue<Throwable> readerErrors = new ConcurrentLinkedQueue<>();
      AtomicLong rowsRead = new AtomicLong();
      List<Future<Map<Integer, String>>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        int writer = w;
        writers.add(pool.submit(() -> write(t, writer, start)));
      }
      List<Future<?>> readers = new ArrayList<>();
      for (int r = 0; r < READERS; r++) {
        int reader = r;
        readers.add(pool.submit(() -> read(t, reader, start, writing, readerErrors, rowsRead)));
      }
      start.countDown();
      List<Map<Integer, String>> expected = new ArrayList<>();
      for (Future<Map<Integer, String>> f : writers) {
        expected.add(f.get(60, TimeUnit.SECONDS));
      }
      writing.set(false);
      for (Future<?> f : readers) {
        f.get(60, TimeUnit.SECONDS);
      }
      pool.shutdown();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
      assertThat(readerErrors).isEmpty();
      assertThat(rowsRead.get()).isPositive();

      clock.advance(Duration.ofSeconds(1));
      for (int w = 0; w < WRITERS; w++) {
        Map<Integer, String> got = new HashMap<>();
        for (ResultRow r : t.select().eq("writer", w).execute()) {
          got.put(r.getInt("row"), r.getString("value"));
        }
        assertThat(got).as("writer %d", w).isEqualTo(expected.get(w));
        // The same state, row by row through point lookups.
        for (int row = 0; row < ROWS_PER_WRITER; row++) {
          String value =
              t.select()
                  .eq("writer", w)
                  .eq("row", row)
                  .one()
                  .map(r -> r.getString("value"))
                  .orElse(null);
          assertThat(value).isEqualTo(expected.get(w).get(row));
        }
      }
    }
  }

  /** Seeded random inserts, overwrites and deletes of this writer's rows; returns the oracle. */
  private static Map<Integer, String> write(Table t, int writer, CountDownLatch start)
      throws InterruptedException {
    start.await();
    Random random = new Random(1_000L + writer);
    Map<Integer, String> oracle = new HashMap<>();
    for (int op = 0; op < OPS_PER_WRITER; op++) {
      int row = random.nextInt(ROWS_PER_WRITER);
      int kind = random.nextInt(10);
      String value = "w" + writer + "-r" + row + "-op" + op;
      if (kind < 6) {
        t.insert()
            .value("writer", writer)
            .value("row", row)
            .value("value", value)
            .value("n", (long) op)
            .execute();
        oracle.put(row, value);
      } else if (kind < 8) {
        // Overwrite only the value of an existing row, or create an update-only row.
        t.update().where("writer", writer).where("row", row).set("value", value).execute();
        oracle.put(row, value);
      } else if (kind < 9) {
        t.delete().eq("writer", writer).eq("row", row).execute();
        oracle.remove(row);
      } else {
        // Delete a small range of rows.
        int to = Math.min(ROWS_PER_WRITER, row + 3);
        t.delete().eq("writer", writer).ge("row", row).lt("row", to).execute();
        for (int r = row; r < to; r++) {
          oracle.remove(r);
        }
      }
    }
    return oracle;
  }

  private static void read(
      Table t,
      int reader,
      CountDownLatch start,
      AtomicBoolean writing,
      ConcurrentLinkedQueue<Throwable> errors,
      AtomicLong rowsRead) {
    try {
      start.await();
      Random random = new Random(reader);
      int reads = 0;
      // Bounded: at most this many reads, and stop once the writers are done.
      while (writing.get() && reads < 200_000) {
        reads++;
        int writer = random.nextInt(WRITERS);
        ResultSet rs =
            switch (reads % 3) {
              case 0 -> t.select().eq("writer", writer).execute();
              case 1 ->
                  t.select()
                      .in("writer", 0, 1, 2, 3)
                      .ge("row", random.nextInt(300))
                      .limit(50)
                      .execute();
              default -> t.select().eq("writer", writer).reversed().pageSize(20).execute();
            };
        for (ResultRow r : rs) {
          String v = r.getString("value");
          int w = r.getInt("writer");
          if (v != null && !v.startsWith("w" + w + "-r" + r.getInt("row") + "-op")) {
            throw new AssertionError("value " + v + " in row " + r);
          }
          rowsRead.incrementAndGet();
        }
      }
    } catch (Throwable e) {
      errors.add(e);
    }
  }
}
