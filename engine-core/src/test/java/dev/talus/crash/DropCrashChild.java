package dev.talus.crash;

import dev.talus.CommitLogSync;
import dev.talus.DataType;
import dev.talus.Table;
import dev.talus.TableSchema;
import dev.talus.TalusDb;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The child JVM of {@link DropCrashTest}: generation after generation it fills table {@code t} with
 * {@value #ROWS} rows of its generation number (flushing half of them), prints {@code WROTE g},
 * then drops the table (or truncates it) and prints {@code GONE g}; until it is killed. Commit log
 * in BATCH mode, so every printed write is durable.
 */
public final class DropCrashChild {
  static final int ROWS = 40;

  private DropCrashChild() {}

  static TableSchema schema() {
    return TableSchema.builder("t")
        .partitionKey("p", DataType.INT)
        .clusteringColumn("c", DataType.INT)
        .column("g", DataType.INT)
        .build();
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    boolean truncate = args[1].equals("truncate");
    int generation = Integer.parseInt(args[2]);
    PrintStream out = new PrintStream(System.out, false, "UTF-8");
    TalusDb db = TalusDb.open(EngineCrashChild.options(dir, CommitLogSync.BATCH));
    out.println("READY");
    out.flush();
    for (int g = generation; ; g++) {
      Table t = db.createTableIfNotExists(schema());
      for (int i = 0; i < ROWS; i++) {
        t.insert().value("p", i % 4).value("c", i).value("g", g).execute();
        if (i == ROWS / 2) {
          t.flush();
        }
      }
      out.println("WROTE " + g);
      out.flush();
      if (truncate) {
        t.truncate();
      } else {
        db.dropTable("t");
      }
      out.println("GONE " + g);
      out.flush();
    }
  }
}
