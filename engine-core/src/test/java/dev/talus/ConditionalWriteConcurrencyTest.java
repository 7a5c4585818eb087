package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Conditional writes are linearizable per partition: of threads racing {@code IF NOT EXISTS} on one
 * key exactly one wins, and a compare-and-set counter driven by racing threads reaches the exact
 * total while flushes and compactions run. Nothing here waits for time: threads start together on a
 * latch and the outcome is checked exactly.
 */
class ConditionalWriteConcurrencyTest {
  private static final int THREADS = 6;

  @TempDir Path dir;
  private TalusDb db;
  private Table t;
  private ExecutorService pool;

  @BeforeEach
  void open() {
    db = TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
    t =
        db.createTable(
            TableSchema.builder("cas")
                .partitionKey("k", DataType.INT)
                .column("v", DataType.INT)
                .column("owner", DataType.INT)
                .build());
    pool = Executors.newFixedThreadPool(THREADS + 1);
  }

  @AfterEach
  void close() {
    pool.shutdownNow();
    db.close();
  }

  @Test
  void exactlyOneOfRacingInsertsIfNotExistsWins() throws Exception {
    for (int key = 0; key < 30; key++) {
      int k = key;
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < THREADS; i++) {
        int me = i;
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  return t.insert()
                      .value("k", k)
                      .value("v", 0)
                      .value("owner", me)
                      .ifNotExists()
                      .executeConditional()
                      .applied();
                }));
      }
      start.countDown();
      int winner = -1;
      int wins = 0;
      for (int i = 0; i < THREADS; i++) {
        if (results.get(i).get()) {
          wins++;
          winner = i;
        }
      }
      assertThat(wins).as("winners for key %d", k).isEqualTo(1);
      assertThat(t.select().eq("k", k).one().orElseThrow().getInt("owner")).isEqualTo(winner);
    }
  }

  @Test
  void compareAndSetCounterReachesTheExactTotalWithFlushesAndCompactions() throws Exception {
    int perThread = 150;
    t.insert().value("k", 1).value("v", 0).execute();
    AtomicBoolean done = new AtomicBoolean();
    CountDownLatch start = new CountDownLatch(1);
    Future<Integer> maintenance =
        pool.submit(
            () -> {
              start.await();
              int rounds = 0;
              while (!done.get()) {
                t.flush();
                if (++rounds % 3 == 0) {
                  t.compact();
                }
              }
              return rounds;
            });
    List<Future<Integer>> workers = new ArrayList<>();
    for (int i = 0; i < THREADS; i++) {
      Callable<Integer> worker =
          () -> {
            start.await();
            int conflicts = 0;
            for (int n = 0; n < perThread; ) {
              int seen = t.select().eq("k", 1).one().orElseThrow().getInt("v");
              boolean applied =
                  t.update()
                      .where("k", 1)
                      .set("v", seen + 1)
                      .onlyIf(Condition.eq("v", seen))
                      .executeConditional()
                      .applied();
              if (applied) {
                n++;
              } else {
                conflicts++;
              }
            }
            return conflicts;
          };
      workers.add(pool.submit(worker));
    }
    start.countDown();
    for (Future<Integer> w : workers) {
      w.get();
    }
    done.set(true);
    maintenance.get();
    assertThat(t.select().eq("k", 1).one().orElseThrow().getInt("v"))
        .isEqualTo(THREADS * perThread);
    t.flush();
    t.compact();
    assertThat(t.select().eq("k", 1).one().orElseThrow().getInt("v"))
        .isEqualTo(THREADS * perThread);
  }
}
