package dev.talus.crash;

import dev.talus.ClusteringOrder;
import dev.talus.CommitLogSync;
import dev.talus.CompactionOptions;
import dev.talus.DataType;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The process {@link CounterCrashTest} kills: two threads increment one shared counter and one
 * counter each through the public API, printing {@code ACK thread} after each increment returns,
 * while a third thread flushes and compacts in a loop, so the kill lands anywhere.
 *
 * <p>Arguments: data directory, sync mode.
 */
public final class CounterCrashChild {
  private CounterCrashChild() {}

  static TalusOptions options(Path dir, CommitLogSync sync) {
    return TalusOptions.builder(dir)
        .commitLogSync(sync)
        .commitLogSyncPeriod(java.time.Duration.ofMillis(200))
        .commitLogSegmentBytes(1 << 20)
        .memtableSpaceBytes(1L << 20)
        .build();
  }

  static TableSchema schema() {
    return TableSchema.builder("counts")
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT, ClusteringOrder.ASC)
        .column("n", DataType.COUNTER)
        .compaction(CompactionOptions.sizeTiered().minThreshold(2).build())
        .build();
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    CommitLogSync sync = CommitLogSync.valueOf(args[1]);
    PrintStream out = new PrintStream(System.out, false, "UTF-8");
    TalusDb db = TalusDb.open(options(dir, sync));
    Table t = db.createTableIfNotExists(schema());
    out.println("READY");
    out.flush();
    Thread[] writers = new Thread[2];
    for (int w = 0; w < writers.length; w++) {
      int thread = w;
      writers[w] =
          new Thread(
              () -> {
                while (true) {
                  // one batch: both increments are logged as one record, so both or neither
                  // survive a crash
                  db.batch()
                      .add(t.update().where("p", 0).where("c", 0).increment("n", 1))
                      .add(
                          t.update()
                              .where("p", thread + 1)
                              .where("c", 0)
                              .increment("n", thread + 2))
                      .execute();
                  synchronized (out) {
                    out.println("ACK " + thread);
                    out.flush();
                  }
                }
              },
              "counter-writer-" + w);
      writers[w].start();
    }
    Thread churn =
        new Thread(
            () -> {
              while (true) {
                t.flush();
                t.compact();
              }
            },
            "counter-churn");
    churn.setDaemon(true);
    churn.start();
    for (Thread w : writers) {
      w.join();
    }
  }
}
