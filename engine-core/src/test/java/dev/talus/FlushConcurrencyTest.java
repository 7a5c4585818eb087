package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flushes and compactions while writers and readers run: nothing is lost, nothing duplicated, every
 * read sees a consistent row, and everything is there again after a restart (part from SSTables,
 * part replayed from the commit log).
 */
class FlushConcurrencyTest {
  @TempDir Path dir;

  @Test
  void flushDuringConcurrentWritesAndReadsLosesAndDuplicatesNothing() throws Exception {
    TalusOptions options =
        TalusOptions.builder(dir).memtableSpaceBytes(4L << 20).build(); // small: many flushes
    Map<Integer, Integer> expected = new ConcurrentHashMap<>();
    List<Throwable> errors = new CopyOnWriteArrayList<>();
    try (TalusDb db = TalusDb.open(options)) {
      Table t =
          db.createTable(
              TableSchema.builder("f")
                  .partitionKey("p", DataType.INT)
                  .clusteringColumn("c", DataType.INT)
                  .column("v", DataType.INT)
                  .compaction(CompactionOptions.sizeTiered().minThreshold(2).build())
                  .build());
      AtomicBoolean stop = new AtomicBoolean();
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < 3; w++) {
        int writer = w;
        threads.add(
            new Thread(
                () -> {
                  try {
                    for (int i = 0; i < 6_000; i++) {
                      int c = writer * 100_000 + i;
                      t.insert().value("p", c % 20).value("c", c).value("v", i).execute();
                      expected.put(c, i);
                    }
                  } catch (Throwable e) {
                    errors.add(e);
                  }
                }));
      }
      Thread flusher =
          new Thread(
              () -> {
                try {
                  while (!stop.get()) {
                    t.flush();
                  }
                } catch (Throwable e) {
                  errors.add(e);
                }
              });
      Thread reader =
          new Thread(
              () -> {
                try {
                  while (!stop.get()) {
                    for (int p = 0; p < 20; p++) {
                      java.util.Set<Integer> seen = new java.util.HashSet<>();
                      for (ResultRow r : t.select().eq("p", p).execute()) {
                        assertThat(seen.add(r.getInt("c"))).as("no duplicate rows").isTrue();
                        assertThat(r.getInt("c") % 20).isEqualTo(p);
                        assertThat(r.getInt("v")).isEqualTo(r.getInt("c") % 100_000);
                      }
                    }
                  }
                } catch (Throwable e) {
                  errors.add(e);
                }
              });
      threads.forEach(Thread::start);
      flusher.start();
      reader.start();
      for (Thread th : threads) {
        th.join();
      }
      stop.set(true);
      flusher.join();
      reader.join();
      assertThat(errors).isEmpty();
      assertThat(t.stats().flushes()).isGreaterThan(1);
      assertThat(count(t)).isEqualTo(expected.size());
      t.insert().value("p", 0).value("c", -1).value("v", 1).execute(); // only in the commit log
      expected.put(-1, 1);
    }
    try (TalusDb db = TalusDb.open(options)) {
      Table t = db.table("f");
      assertThat(count(t)).isEqualTo(expected.size());
      for (ResultRow r : t.select().eq("p", 0).execute()) {
        assertThat(r.getInt("v")).isEqualTo(expected.get(r.getInt("c")));
      }
    }
  }

  private static int count(Table t) {
    int n = 0;
    for (int p = 0; p < 20; p++) {
      n += t.select().eq("p", p).execute().size();
    }
    return n;
  }
}
