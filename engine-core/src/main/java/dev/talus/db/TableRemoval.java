package dev.talus.db;

import dev.talus.StorageException;
import dev.talus.TableSchema;
import dev.talus.commitlog.CommitLog;
import dev.talus.io.StorageFs;
import dev.talus.schema.Catalog;
import dev.talus.table.TableDirectories;
import dev.talus.table.TableStore;
import dev.talus.write.MemtableBudget;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At open, the table directories ({@code tables/<name>-<id>}) of tables no longer in the schema
 * file: a drop or truncate whose schema rewrite reached the disk but whose file deletion did not
 * finish (a crash, or files still in use). They are deleted, and their ids are never given to a new
 * table. Stateless.
 */
final class TableRemoval {
  private static final Logger LOG = LoggerFactory.getLogger(TableRemoval.class);

  private TableRemoval() {}

  /**
   * Retires a store that left the schema (dropped, or replaced by a truncate): its memtable bytes
   * go back to the budget, and the commit log no longer keeps segments for its id.
   */
  static void retire(TableStore old, MemtableBudget budget, CommitLog log) {
    try {
      budget.freed(old.retire());
    } catch (IOException e) {
      throw new StorageException(
          "table "
              + old.schema().name()
              + " is gone from the schema, but deleting its files failed (the next open"
              + " removes them): "
              + e.getMessage(),
          e);
    } finally {
      log.markFlushed(old.id(), log.currentPosition());
    }
  }

  static void removeOrphans(StorageFs fs, Path tablesDir, Catalog catalog) throws IOException {
    Map<Integer, TableSchema> live = catalog.tables();
    for (Path d : fs.listDirectories(tablesDir)) {
      String name = d.getFileName().toString();
      int dash = name.lastIndexOf('-');
      int id;
      try {
        id = dash < 1 ? -1 : Integer.parseInt(name.substring(dash + 1));
      } catch (NumberFormatException e) {
        id = -1;
      }
      if (id <= 0) {
        continue; // not a table directory
      }
      catalog.reserveIdsBelow(id + 1);
      TableSchema s = live.get(id);
      if (s == null || !s.name().equals(name.substring(0, dash))) {
        LOG.info("Removing {}: its table was dropped or truncated", d);
        TableDirectories.delete(fs, d, Set.of());
      }
    }
  }
}
