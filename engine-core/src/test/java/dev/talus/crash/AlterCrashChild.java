package dev.talus.crash;

import dev.talus.CommitLogSync;
import dev.talus.DataType;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The child JVM of {@link AlterCrashTest}: generation after generation it adds column {@code v} to
 * table {@code t} together with gc_grace = the generation in seconds (one ALTER), prints {@code
 * ADDED g}, writes {@value #ROWS} rows with {@code v = g} (flushing half of them), prints {@code
 * WROTE g}, drops {@code v}, prints {@code DROPPED g}, and compacts every other generation; until
 * it is killed. Commit log in BATCH mode, so every printed write is durable.
 */
public final class AlterCrashChild {
  static final int ROWS = 40;

  private AlterCrashChild() {}

  static TableSchema schema() {
    return TableSchema.builder("t")
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .column("g", DataType.INT)
        .build();
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int generation = Integer.parseInt(args[1]);
    PrintStream out = new PrintStream(System.out, false, "UTF-8");
    TalusDb db = TalusDb.open(EngineCrashChild.options(dir, CommitLogSync.BATCH));
    // altered by earlier children: its schema is no longer the one it was created with
    Table t = db.findTable("t").orElseGet(() -> db.createTable(schema()));
    out.println("READY");
    out.flush();
    for (int g = generation; ; g++) {
      t.alter().addColumn("v", DataType.INT).gcGrace(Duration.ofSeconds(g)).apply();
      out.println("ADDED " + g);
      out.flush();
      for (int i = 0; i < ROWS; i++) {
        t.insert().value("p", i % 4).value("c", i).value("g", g).value("v", g).execute();
        if (i == ROWS / 2) {
          t.flush();
        }
      }
      out.println("WROTE " + g);
      out.flush();
      t.alter().dropColumn("v").apply();
      out.println("DROPPED " + g);
      out.flush();
      if (g % 2 == 0) {
        t.compact();
      }
    }
  }
}
