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
import java.util.Random;

/**
 * The process {@link EngineCrashTest} kills: writes rows (and deletes some) through the public API
 * from two threads and prints an acknowledgement line after each write returns. Small memtables
 * make it flush and compact while it runs, so the kill lands anywhere.
 *
 * <p>Arguments: data directory, sync mode, seed, first sequence number, and optionally {@code
 * churn} to flush and compact in a loop meanwhile.
 */
public final class EngineCrashChild {
  private EngineCrashChild() {}

  static TalusOptions options(Path dir, CommitLogSync sync) {
    return TalusOptions.builder(dir)
        .commitLogSync(sync)
        .commitLogSyncPeriod(java.time.Duration.ofMillis(200))
        .commitLogSegmentBytes(1 << 20)
        .memtableSpaceBytes(2L << 20)
        .build();
  }

  static TableSchema schema() {
    return TableSchema.builder("crash")
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT, ClusteringOrder.ASC)
        .column("v", DataType.TEXT)
        .compaction(CompactionOptions.sizeTiered().minThreshold(2).build())
        // long runs delete one row in ten and read whole partitions: the read-side tombstone
        // guard would (rightly) refuse those reads, and durability is what is tested here
        .tombstoneThresholds(10_000_000, Integer.MAX_VALUE)
        .build();
  }

  static String value(int thread, int seq) {
    return "t" + thread + "-" + seq + "-" + "x".repeat(40 + (seq % 50));
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    CommitLogSync sync = CommitLogSync.valueOf(args[1]);
    long seed = Long.parseLong(args[2]);
    int first = Integer.parseInt(args[3]);
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
                Random rnd = new Random(seed * 31 + thread);
                for (int seq = first; ; seq++) {
                  if (seq % 10 == 0 && seq - 25 >= first) {
                    int victim = seq - 25 + rnd.nextInt(5);
                    t.delete().eq("p", thread).eq("c", victim).execute();
                    synchronized (out) {
                      out.println("DEL " + thread + " " + victim);
                      out.flush();
                    }
                  }
                  t.insert()
                      .value("p", thread)
                      .value("c", seq)
                      .value("v", value(thread, seq))
                      .execute();
                  synchronized (out) {
                    out.println("ACK " + thread + " " + seq);
                    out.flush();
                  }
                }
              },
              "crash-writer-" + w);
      writers[w].start();
    }
    if (args.length > 4 && args[4].equals("churn")) {
      // Whitebox-ish: flushes and major compactions back to back, so most kills land inside one.
      Thread churn =
          new Thread(
              () -> {
                for (long n = 1; ; n++) {
                  t.flush();
                  t.compact();
                  synchronized (out) {
                    out.println("CHURN " + n);
                    out.flush();
                  }
                }
              },
              "crash-churn");
      churn.setDaemon(true);
      churn.start();
    }
    for (Thread w : writers) {
      w.join();
    }
  }
}
