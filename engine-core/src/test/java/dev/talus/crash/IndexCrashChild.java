package dev.talus.crash;

import dev.talus.CommitLogSync;
import dev.talus.DataType;
import dev.talus.IndexDef;
import dev.talus.Insert;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Random;

/**
 * The child JVM of {@link IndexCrashTest}: on table {@code t} with indexes on {@code a} (text),
 * {@code b} (bigint) and the vector column {@code v} (cosine) it writes rounds of rows that
 * overwrite earlier ones (every third write leaves {@code v} as it was) and flushes each round
 * (components written at flush); every other round it drops and re-creates the indexes on {@code b}
 * and {@code v} (builds over every SSTable, running while it goes on), every third it compacts
 * (components of the outputs); it prints {@code ROUND n} after each, {@code VBUILD n} when it has
 * re-created the vector index in round {@code n} and {@code VBUILT n} when that build is done,
 * until it is killed. PERIODIC commit log: what is checked is that the indexes agree with the data
 * after the kill, not which writes survived.
 */
public final class IndexCrashChild {
  static final int ROWS = 150;
  static final int DIM = 8;

  private IndexCrashChild() {}

  static TableSchema schema() {
    return TableSchema.builder("t")
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .column("a", DataType.TEXT)
        .column("b", DataType.BIGINT)
        .column("v", DataType.vector(DataType.FLOAT, DIM))
        .build();
  }

  static IndexDef vectorIndex() {
    return IndexDef.sai("t_v", "v");
  }

  /** The vector written by write {@code n}: Gaussian, so never zero (which cosine refuses). */
  static float[] vector(int n) {
    Random r = new Random(n);
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) r.nextGaussian();
    }
    return v;
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int n = Integer.parseInt(args[1]);
    PrintStream out = new PrintStream(System.out, false, "UTF-8");
    TalusDb db = TalusDb.open(EngineCrashChild.options(dir, CommitLogSync.PERIODIC));
    Table t = db.createTableIfNotExists(schema());
    t.createIndex(IndexDef.sai("t_a", "a"), true);
    t.createIndex(IndexDef.sai("t_b", "b"), true);
    t.createIndex(vectorIndex(), true);
    out.println("READY");
    out.flush();
    for (int round = 0; ; round++) {
      for (int i = 0; i < ROWS; i++, n++) {
        Insert insert =
            t.insert()
                .value("p", n % 13)
                .value("c", n % 400)
                .value("a", "v" + (n % 5))
                .value("b", (long) (n % 17));
        if (n % 3 != 0) {
          insert.value("v", vector(n));
        }
        insert.execute();
      }
      t.flush();
      if (round % 2 == 1) {
        t.dropIndex("t_b");
        t.createIndex(IndexDef.sai("t_b", "b"));
        t.dropIndex("t_v");
        t.createIndex(vectorIndex());
        out.println("VBUILD " + round);
        out.flush();
        announceBuilt(t, round, out);
      }
      if (round % 3 == 2) {
        t.compact();
      }
      out.println("ROUND " + round);
      out.flush();
    }
  }

  /** Prints {@code VBUILT round} once the vector index's build started in that round is done. */
  private static void announceBuilt(Table t, int round, PrintStream out) {
    Thread watcher =
        new Thread(
            () -> {
              try {
                if (t.awaitIndexBuilt("t_v", java.time.Duration.ofMinutes(10))) {
                  out.println("VBUILT " + round);
                  out.flush();
                }
              } catch (InterruptedException | RuntimeException e) {
                // dropped again by a later round: that round's watcher reports
              }
            },
            "vector-build-watcher");
    watcher.setDaemon(true);
    watcher.start();
  }
}
