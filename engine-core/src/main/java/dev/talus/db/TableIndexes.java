package dev.talus.db;

import dev.talus.IndexDef;
import dev.talus.InvalidQueryException;
import dev.talus.StorageException;
import dev.talus.TableSchema;
import dev.talus.index.IndexProgress;
import dev.talus.index.IndexRules;
import dev.talus.sstable.SSTableReader;
import dev.talus.table.TableStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * CREATE INDEX and DROP INDEX, under the database's lock: checks the definition ({@link
 * IndexRules}), then stores the table's new index list in one atomic rewrite of the schema file
 * (the durable point: a crash leaves the old list or the new one), then queues the background build
 * of a new index's components for every live SSTable ({@link IndexBuildJob}; the index is building
 * until it ends), or deletes a dropped one's. Index names are unique within a keyspace, as in
 * Cassandra. Stateless.
 */
final class TableIndexes {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TableIndexes.class);

  /**
   * At open: queues a build of each index of {@code store} some live SSTable lacks a component of
   * (a crash or a close stopped its build, or a file went missing); the index is building until it
   * ends.
   */
  static void resume(Database db, TableStore store) {
    List<SSTableReader> sstables = store.tracker().current().sstables();
    for (IndexDef def : store.indexes().definitions()) {
      IndexProgress p = store.indexes().resumeIfMissing(def, sstables, store.keys());
      if (p != null) {
        IndexBuildJob.schedule(db.jobs(), db.ctx, store, def, p, sstables);
      }
    }
  }

  private TableIndexes() {}

  /** Adds {@code def} to the table of {@code store}; false if IF NOT EXISTS found it there. */
  static boolean create(Database db, TableStore store, IndexDef asked, boolean ifNotExists) {
    db.ctx.checkWritable();
    TableSchema s = store.schema();
    IndexDef def = IndexRules.resolve(s, asked);
    List<IndexDef> mine = db.catalog.indexes(store.id());
    if (ifNotExists) {
      for (IndexDef other : keyspaceIndexes(db, s)) {
        if (other.name().equals(def.name())) {
          return false;
        }
      }
      for (IndexDef other : mine) {
        if (other.column().equals(def.column())
            && other.kind() == def.kind()
            && other.target() == def.target()) {
          return false;
        }
      }
    }
    IndexRules.checkCreate(s, def, keyspaceIndexes(db, s), mine);
    List<IndexDef> next = new ArrayList<>(mine);
    next.add(def);
    save(db, store, next, "create index " + def.name());
    List<SSTableReader> sstables = store.tracker().current().sstables();
    IndexProgress p;
    try {
      p = store.indexes().startBuild(def, sstables);
    } catch (IOException e) {
      throw new StorageException(
          "cannot clear the leftover files of index " + def.name() + ": " + e.getMessage(), e);
    }
    store.indexes().define(next);
    IndexBuildJob.schedule(db.jobs(), db.ctx, store, def, p, sstables);
    return true;
  }

  /** Removes index {@code name} of the table of {@code store}; false if IF EXISTS missed it. */
  static boolean drop(Database db, TableStore store, String name, boolean ifExists) {
    db.ctx.checkWritable();
    List<IndexDef> next = new ArrayList<>(db.catalog.indexes(store.id()));
    if (!next.removeIf(d -> d.name().equals(name))) {
      if (ifExists) {
        return false;
      }
      throw new InvalidQueryException(
          "Index '" + name + "' doesn't exist on table " + store.schema().name());
    }
    save(db, store, next, "drop index " + name);
    store.indexes().define(next);
    try {
      store.indexes().dropFiles(name, store.tracker().current().sstables());
    } catch (IOException e) {
      LOG.warn("Deleting the files of dropped index {} failed", name, e);
    }
    return true;
  }

  /** The indexes of the table of {@code store}, in creation order. */
  static List<IndexDef> of(Database db, TableStore store) {
    return db.catalog.indexes(store.id());
  }

  /** The names of the indexes on column {@code column} of the table of {@code store}. */
  static List<String> onColumn(Database db, TableStore store, String column) {
    List<String> out = new ArrayList<>();
    for (IndexDef d : db.catalog.indexes(store.id())) {
      if (d.column().equals(column)) {
        out.add(d.name());
      }
    }
    return out;
  }

  private static List<IndexDef> keyspaceIndexes(Database db, TableSchema table) {
    String ks = table.keyspace().orElseThrow();
    List<IndexDef> out = new ArrayList<>();
    for (Map.Entry<Integer, TableSchema> e : db.catalog.tables().entrySet()) {
      if (e.getValue().keyspace().orElseThrow().equals(ks)) {
        out.addAll(db.catalog.indexes(e.getKey()));
      }
    }
    return out;
  }

  private static void save(Database db, TableStore store, List<IndexDef> next, String what) {
    try {
      db.catalog.putIndexes(store.id(), next);
    } catch (IOException e) {
      throw new StorageException(
          "cannot "
              + what
              + " on table "
              + store.schema().name()
              + " (its schema is unchanged): "
              + e.getMessage(),
          e);
    }
  }
}
