package dev.talus.guardrails;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.DataType;
import dev.talus.ManualClock;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusMetricsListener;
import dev.talus.TalusOptions;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metrics listener receives writes, reads, flushes and compactions; a faulty one is harmless.
 */
class MetricsListenerTest {
  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(Instant.parse("2026-09-14T00:00:00Z"));

  private static final class Recording implements TalusMetricsListener {
    final List<String> events = new CopyOnWriteArrayList<>();

    @Override
    public void onWrite(String table, long micros) {
      assertThat(micros).isNotNegative();
      events.add("write " + table);
    }

    @Override
    public void onRead(String table, long micros, int sstablesTouched, int tombstonesScanned) {
      events.add(
          "read " + table + " sources=" + sstablesTouched + " tombstones=" + tombstonesScanned);
    }

    @Override
    public void onFlush(String table, long bytes) {
      events.add("flush " + table + (bytes > 0 ? " bytes>0" : " bytes=0"));
    }

    @Override
    public void onCompaction(String table, long bytesIn, long bytesOut) {
      events.add("compaction " + table + (bytesIn > 0 && bytesOut > 0 ? " ok" : " empty"));
    }
  }

  private static TableSchema schema() {
    return TableSchema.builder("kv")
        .partitionKey("k", DataType.TEXT)
        .clusteringColumn("c", DataType.INT)
        .column("v", DataType.TEXT)
        .build();
  }

  @Test
  void eventsReachTheListener() {
    Recording r = new Recording();
    try (TalusDb db =
        TalusDb.open(
            TalusOptions.builder(dir)
                .clock(clock)
                .backgroundCompaction(false)
                .metricsListener(r)
                .build())) {
      Table t = db.createTable(schema());
      t.insert().value("k", "a").value("c", 1).value("v", "x").execute();
      t.flush();
      t.insert().value("k", "a").value("c", 2).value("v", "y").execute();
      t.delete().eq("k", "a").eq("c", 2).execute();
      t.flush();
      t.select().eq("k", "a").execute();
      t.compact();
      assertThat(r.events)
          .containsExactly(
              "write kv",
              "flush kv bytes>0",
              "write kv",
              "write kv",
              "flush kv bytes>0",
              "read kv sources=2 tombstones=1",
              "compaction kv ok");
    }
  }

  @Test
  void aThrowingListenerCannotBreakTheEngine() {
    TalusMetricsListener faulty =
        new TalusMetricsListener() {
          @Override
          public void onWrite(String table, long micros) {
            throw new IllegalStateException("boom");
          }

          @Override
          public void onRead(String t, long m, int s, int ts) {
            throw new IllegalStateException("boom");
          }

          @Override
          public void onFlush(String table, long bytes) {
            throw new IllegalStateException("boom");
          }
        };
    try (TalusDb db =
        TalusDb.open(TalusOptions.builder(dir).clock(clock).metricsListener(faulty).build())) {
      Table t = db.createTable(schema());
      for (int i = 0; i < 3; i++) {
        t.insert().value("k", "a").value("c", i).value("v", "x").execute();
      }
      t.flush();
      assertThat(t.select().eq("k", "a").execute().size()).isEqualTo(3);
      assertThat(t.stats().writes()).isEqualTo(3);
    }
  }
}
