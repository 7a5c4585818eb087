package dev.talus;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit log that outgrows its space gets the tables holding its oldest segment flushed. The
 * flush runs on the flush thread: the test waits for its event (a latch), never for a time — it
 * used to poll for 2 s, which a loaded machine can outlast — and counts the segments after {@code
 * close()}, which waits for the flush thread, so the release of the flushed segments has happened.
 */
@Timeout(300) // only ends a hung run
class CommitLogPressureTest {
  @TempDir Path dir;

  private final CountDownLatch flushed = new CountDownLatch(1);

  private long segments() throws IOException {
    try (Stream<Path> s = Files.list(dir.resolve("commitlog"))) {
      return s.filter(p -> p.getFileName().toString().endsWith(".log")).count();
    }
  }

  @Test
  void commitLogPressureFlushesTheTablesHoldingTheOldestSegment() throws Exception {
    TalusOptions options =
        TalusOptions.builder(dir)
            .commitLogSegmentBytes(64 << 10)
            .commitLogTotalSpaceBytes(256 << 10)
            .memtableSpaceBytes(256L << 20) // memory never forces a flush here
            .metricsListener(
                new TalusMetricsListener() {
                  @Override
                  public void onFlush(String table, long bytes) {
                    flushed.countDown();
                  }
                })
            .build();
    try (TalusDb db = TalusDb.open(options)) {
      Table small =
          db.createTable(
              TableSchema.builder("small")
                  .partitionKey("k", DataType.INT)
                  .column("v", DataType.TEXT)
                  .build());
      for (int i = 0; i < 20_000; i++) {
        small.insert().value("k", i % 500).value("v", "value-" + i).execute();
      }
      flushed.await(); // no user flush: only the commit log's pressure can cause one
      assertThat(small.stats().flushes()).as("commit-log pressure flushed the table").isPositive();
    }
    assertThat(segments()).as("old segments were released").isLessThan(40);
  }
}
