package dev.talus.tools;

import dev.talus.Table;
import dev.talus.TalusDb;
import dev.talus.TalusOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Opening data directories for the inspection commands. */
final class DataDirs {
  private DataDirs() {}

  /**
   * Opens an existing data directory without creating anything if it is missing. Opening replays
   * the commit log (and flushes what it replayed), so the database must not be open elsewhere.
   * Background compaction stays off: inspecting a table should not change its SSTables.
   */
  static TalusDb openExisting(Path dir) {
    requireExisting(dir);
    return TalusDb.open(TalusOptions.builder(dir).backgroundCompaction(false).build());
  }

  /** Fails with a clear message unless {@code dir} is an existing Talus data directory. */
  static void requireExisting(Path dir) {
    if (!Files.exists(dir)) {
      throw new CliException(
          ExitCodes.ERROR,
          "no such directory: " + dir + " (give the data directory of a database)");
    }
    if (!Files.isDirectory(dir)) {
      throw new CliException(ExitCodes.ERROR, dir + " is not a directory");
    }
    if (!Files.exists(dir.resolve("schema.db")) && !Files.exists(dir.resolve("LOCK"))) {
      throw new CliException(
          ExitCodes.ERROR, dir + " is not a Talus data directory (it has no schema.db or LOCK)");
    }
  }

  /** The table named {@code name}, or an error listing the tables there are. */
  static Table table(TalusDb db, String name) {
    return db.findTable(name)
        .orElseThrow(
            () ->
                new CliException(
                    ExitCodes.ERROR,
                    "no table named '"
                        + name
                        + "' in "
                        + db.options().dataDirectory()
                        + "; tables: "
                        + tableNames(db)));
  }

  static String tableNames(TalusDb db) {
    List<String> names = db.tables().stream().map(Table::name).sorted().toList();
    return names.isEmpty() ? "(none)" : String.join(", ", names);
  }
}
