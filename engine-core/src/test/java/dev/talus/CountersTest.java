package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Counter tables (Cassandra's CountersTest and its rules): increments and decrements by any long,
 * exact totals under concurrent writers across memtables, flushes and compactions, and across a
 * reopen that replays the commit log (every logged increment counted once); what is refused and
 * why; a deleted counter stays deleted.
 */
class CountersTest {
  @TempDir Path dir;
  private final ManualClock clock = ManualClock.startingAtDefault();

  private static final TableSchema VIEWS =
      TableSchema.builder("video_views")
          .partitionKey("video", DataType.INT)
          .clusteringColumn("day", DataType.INT)
          .column("views", DataType.COUNTER)
          .column("likes", DataType.COUNTER)
          .build();

  private TalusDb open() {
    return TalusDb.open(TalusOptions.builder(dir).clock(clock).backgroundCompaction(false).build());
  }

  private static Long views(Table t, int video, int day) {
    return t.select()
        .eq("video", video)
        .eq("day", day)
        .one()
        .map(r -> r.getLong("views"))
        .orElse(null);
  }

  private static void inc(Table t, int video, int day, long delta) {
    t.update().where("video", video).where("day", day).increment("views", delta).execute();
  }

  @Test
  void incrementsAndDecrementsByAnyLong() {
    try (TalusDb db = open()) {
      Table t = db.createTable(VIEWS);
      inc(t, 1, 1, 1);
      assertThat(views(t, 1, 1)).isEqualTo(1L);
      t.update().where("video", 1).where("day", 1).decrement("views", 4).execute();
      assertThat(views(t, 1, 1)).isEqualTo(-3L);
      t.flush();
      inc(t, 1, 1, Long.MAX_VALUE / 2);
      t.flush();
      t.compact();
      assertThat(views(t, 1, 1)).isEqualTo(Long.MAX_VALUE / 2 - 3);
      ResultRow r = t.select().eq("video", 1).eq("day", 1).one().orElseThrow();
      assertThat(r.get("likes")).isNull();
      assertThatThrownBy(() -> r.writeTime("views"))
          .hasMessage("Cannot use selection function writeTime on counter column views");
    }
  }

  @Test
  void countersRefuseWhatCassandraRefuses() {
    try (TalusDb db = open()) {
      Table t = db.createTable(VIEWS);
      assertThatThrownBy(
              () -> t.insert().value("video", 1).value("day", 1).value("views", 3).execute())
          .isInstanceOf(InvalidQueryException.class)
          .hasMessageContaining(
              "INSERT statements are not allowed on counter tables, use UPDATE instead");
      assertThatThrownBy(
              () -> t.update().where("video", 1).where("day", 1).set("views", 3).execute())
          .hasMessageContaining(
              "Cannot set the value of counter column views (counters can only be"
                  + " incremented/decremented, not set)");
      assertThatThrownBy(
              () ->
                  t.update()
                      .where("video", 1)
                      .where("day", 1)
                      .increment("views", 1)
                      .ttl(Duration.ofDays(1))
                      .execute())
          .hasMessage("Cannot provide custom TTL for counter updates");
      assertThatThrownBy(
              () ->
                  t.update()
                      .where("video", 1)
                      .where("day", 1)
                      .increment("views", 1)
                      .timestamp(5)
                      .execute())
          .hasMessage("Cannot provide custom timestamp for counter updates");
      assertThat(views(t, 1, 1)).as("nothing was stored").isNull();
    }
  }

  @Test
  void aDeletedCounterStaysDeletedButARowDeletionStartsItAgain() {
    try (TalusDb db = open()) {
      Table t = db.createTable(VIEWS);
      inc(t, 1, 1, 5);
      t.delete().eq("video", 1).eq("day", 1).columns("views").execute();
      t.flush();
      inc(t, 1, 1, 3);
      assertThat(views(t, 1, 1)).as("Cassandra: a deleted counter cannot be used again").isNull();
      t.compact();
      inc(t, 1, 1, 3);
      assertThat(views(t, 1, 1)).isNull();
      // a row deletion is an ordinary deletion: later increments count from zero
      inc(t, 2, 1, 5);
      t.delete().eq("video", 2).eq("day", 1).execute();
      inc(t, 2, 1, 2);
      assertThat(views(t, 2, 1)).isEqualTo(2L);
    }
  }

  @Test
  void aBatchCountsTwoIncrementsOfOneCounterTwice() {
    try (TalusDb db = open()) {
      Table t = db.createTable(VIEWS);
      inc(t, 1, 1, 10);
      db.batch()
          .add(t.update().where("video", 1).where("day", 1).increment("views", 1))
          .add(t.update().where("video", 1).where("day", 1).increment("views", 2))
          .add(t.update().where("video", 1).where("day", 2).increment("views", 7))
          .execute();
      assertThat(views(t, 1, 1)).isEqualTo(13L);
      assertThat(views(t, 1, 2)).isEqualTo(7L);
    }
  }

  @Test
  void replayingTheCommitLogCountsEveryIncrementOnce() {
    try (TalusDb db = open()) {
      Table t = db.createTable(VIEWS);
      for (int i = 0; i < 100; i++) {
        inc(t, 1, i % 3, 1);
      }
      t.flush(); // part of the log is covered by an SSTable, part is not
      for (int i = 0; i < 50; i++) {
        inc(t, 1, i % 3, 2);
      }
    } // close does not flush: the next open replays the tail
    for (int reopen = 0; reopen < 2; reopen++) {
      try (TalusDb db = open()) {
        Table t = db.table("video_views");
        assertThat(views(t, 1, 0)).isEqualTo(34L + 2 * 17);
        assertThat(views(t, 1, 1)).isEqualTo(33L + 2 * 17);
        assertThat(views(t, 1, 2)).isEqualTo(33L + 2 * 16);
      }
    }
  }

  /**
   * The failure: 10,000 increments from concurrent writers must all count, here with
   * flushes and compactions running in between and a reopen at the end.
   */
  @Test
  void concurrentIncrementsAreExactAcrossFlushesAndCompactions() throws Exception {
    int threads = 4;
    int perThread = 2_500;
    try (TalusDb db = open()) {
      Table t = db.createTable(VIEWS);
      ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
      CountDownLatch start = new CountDownLatch(1);
      AtomicBoolean done = new AtomicBoolean();
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < threads; w++) {
        int id = w;
        writers.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < perThread; i++) {
                    inc(t, 7, i % 2, 1);
                    if (i % 10 == 0) {
                      t.update()
                          .where("video", 7)
                          .where("day", 9)
                          .increment("likes", id + 1)
                          .execute();
                    }
                  }
                  return null;
                }));
      }
      Future<?> churn =
          pool.submit(
              () -> {
                start.await();
                int n = 0;
                while (!done.get()) {
                  t.flush();
                  if (++n % 3 == 0) {
                    t.compact();
                  }
                }
                return null;
              });
      start.countDown();
      for (Future<?> f : writers) {
        f.get();
      }
      done.set(true);
      churn.get();
      pool.shutdown();
      assertThat(views(t, 7, 0) + views(t, 7, 1)).isEqualTo((long) threads * perThread);
      assertThat(t.select().eq("video", 7).eq("day", 9).one().orElseThrow().getLong("likes"))
          .isEqualTo((perThread / 10) * (1L + 2 + 3 + 4));
    }
    try (TalusDb db = open()) {
      Table t = db.table("video_views");
      assertThat(views(t, 7, 0) + views(t, 7, 1)).isEqualTo((long) threads * perThread);
    }
  }
}
