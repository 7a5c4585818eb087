package dev.talus.crash;

import dev.talus.CommitLogSync;
import dev.talus.DataType;
import dev.talus.IndexDef;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The child JVM of {@link IndexCrashTest}: on table {@code t} with indexes on {@code a} (text) and
 * {@code b} (bigint) it writes rounds of rows that overwrite earlier ones and flushes each round
 * (components written at flush); every other round it drops and re-creates the index on {@code b}
 * (a build over every SSTable), every third it compacts (components of the outputs); it prints
 * {@code ROUND n} after each, until it is killed. PERIODIC commit log: what is checked is that the
 * indexes agree with the data after the kill, not which writes survived.
 */
public final class IndexCrashChild {
  static final int ROWS = 150;

  private IndexCrashChild() {}

  static TableSchema schema() {
    return TableSchema.builder("t")
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .column("a", DataType.TEXT)
        .column("b", DataType.BIGINT)
        .build();
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int n = Integer.parseInt(args[1]);
    PrintStream out = new PrintStream(System.out, false, "UTF-8");
    TalusDb db = TalusDb.open(EngineCrashChild.options(dir, CommitLogSync.PERIODIC));
    Table t = db.createTableIfNotExists(schema());
    t.createIndex(IndexDef.sai("t_a", "a"), true);
    t.createIndex(IndexDef.sai("t_b", "b"), true);
    out.println("READY");
    out.flush();
    for (int round = 0; ; round++) {
      for (int i = 0; i < ROWS; i++, n++) {
        t.insert()
            .value("p", n % 13)
            .value("c", n % 400)
            .value("a", "v" + (n % 5))
            .value("b", (long) (n % 17))
            .execute();
      }
      t.flush();
      if (round % 2 == 1) {
        t.dropIndex("t_b");
        t.createIndex(IndexDef.sai("t_b", "b"));
      }
      if (round % 3 == 2) {
        t.compact();
      }
      out.println("ROUND " + round);
      out.flush();
    }
  }
}
