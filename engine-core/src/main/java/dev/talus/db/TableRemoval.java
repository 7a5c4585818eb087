package dev.talus.db;

import dev.talus.InvalidQueryException;
import dev.talus.StorageException;
import dev.talus.TableSchema;
import dev.talus.commitlog.CommitLog;
import dev.talus.io.StorageFs;
import dev.talus.runtime.DbContext;
import dev.talus.schema.Catalog;
import dev.talus.schema.KeyCodec;
import dev.talus.table.TableDirectories;
import dev.talus.table.TableHost;
import dev.talus.table.TableStore;
import dev.talus.write.MemtableBudget;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removing tables (DROP TABLE, and the old store of a TRUNCATE): the schema rewrite that is the
 * durable point, retiring the store, and, at open, the table directories ({@code
 * tables/<name>-<id>}) of tables no longer in the schema file: a drop or truncate whose schema
 * rewrite reached the disk but whose file deletion did not finish (a crash, or files still in use).
 * They are deleted, and their ids are never given to a new table. Stateless.
 */
final class TableRemoval {
  private static final Logger LOG = LoggerFactory.getLogger(TableRemoval.class);

  private TableRemoval() {}

  /**
   * DROP TABLE, under the database's lock: see {@code TalusDb.dropTable}. {@code name} is {@code
   * keyspace.table}, or a table of the default keyspace.
   */
  static boolean drop(Database db, String name, boolean ifExists) {
    db.ctx.checkWritable();
    String key = name.indexOf('.') < 0 ? db.ctx.options().defaultKeyspace() + "." + name : name;
    TableHandle h = db.tables.get(key);
    if (h == null) {
      db.setAside.checkNotSetAside(key);
      if (ifExists) {
        return false;
      }
      throw new InvalidQueryException(
          "no table named " + name + " in " + db.dir + "; tables are " + db.tables.keySet());
    }
    TableStore old = h.store();
    autoSnapshot(db, old, "dropped");
    removeFromSchema(db.catalog, old);
    h.markDropped();
    db.tables.remove(key);
    db.byId.remove(old.id());
    db.keyspaces.tableRemoved(old);
    retire(old, db.budget, db.commitLog);
    return true;
  }

  /**
   * TRUNCATE, under the database's lock: see {@code Table.truncate}. A dropped table's records may
   * still be in the commit log: the new id is above every id given, so they never reach it.
   */
  static void truncate(Database db, TableHandle h) {
    db.ctx.checkWritable();
    TableStore old = h.store();
    autoSnapshot(db, old, "truncated");
    int id = db.catalog.nextId();
    TableStore fresh =
        replaceInSchema(db.ctx, db.host, db.catalog, old, id, db.tableDir(id, old.schema()));
    db.byId.put(id, fresh);
    db.keyspaces.tableAdded(fresh);
    h.replaceStore(fresh);
    db.byId.remove(old.id());
    db.keyspaces.tableRemoved(old);
    retire(old, db.budget, db.commitLog);
  }

  /**
   * With {@code autoSnapshot} on, snapshots the table (flushed first) as {@code <why>-<epoch
   * ms>-<table>}, as Cassandra does before a drop or truncate; the snapshot keeps the old table
   * directory after the table leaves it.
   */
  private static void autoSnapshot(Database db, TableStore old, String why) {
    if (db.ctx.options().autoSnapshot()) {
      long ms = db.ctx.clock().millis();
      Snapshots.take(db, old, why + "-" + ms + "-" + old.schema().name());
    }
  }

  /** A drop's durable point: the table leaves the schema file (one atomic rewrite). */
  static void removeFromSchema(Catalog catalog, TableStore old) {
    try {
      catalog.remove(old.id());
    } catch (IOException e) {
      throw new StorageException(
          "cannot drop table " + old.schema().name() + ": " + e.getMessage(), e);
    }
  }

  /**
   * A truncate's durable point: the same schema under id {@code id} replaces the old entry in one
   * atomic rewrite of the schema file; returns the new, empty store in {@code dir}.
   */
  static TableStore replaceInSchema(
      DbContext ctx, TableHost host, Catalog catalog, TableStore old, int id, Path dir) {
    try {
      ctx.fs().createDirectories(dir);
      catalog.replace(old.id(), id, old.schema());
      TableStore fresh =
          TableStore.open(ctx, host, id, new KeyCodec(old.schema(), old.keys().dropped()), dir);
      fresh.indexes().define(catalog.indexes(id));
      return fresh;
    } catch (IOException e) {
      throw new StorageException(
          "cannot truncate table " + old.schema().name() + ": " + e.getMessage(), e);
    }
  }

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
        LOG.info("Removing {}: its table was dropped or truncated (its snapshots stay)", d);
        TableDirectories.delete(fs, d, Set.of());
      }
    }
  }
}
