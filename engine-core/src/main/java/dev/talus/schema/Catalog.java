package dev.talus.schema;

import dev.talus.IndexDef;
import dev.talus.KeyspaceSchema;
import dev.talus.TableSchema;
import dev.talus.UserType;
import dev.talus.io.StorageFs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The catalogue of a data directory: its keyspaces, every user-defined type (in creation order, so
 * a type's fields only name types before it), every table's id and schema (which names its
 * keyspace), dropped columns and secondary indexes, persisted in {@code schema.db} ({@link
 * SchemaStore}). A change is saved before it is taken: if the save fails, the catalogue is
 * unchanged. Not thread-safe; the database serialises schema changes.
 */
public final class Catalog {
  private final StorageFs fs;
  private final Path dir;
  private final TreeMap<String, KeyspaceSchema> keyspaces;
  private final TreeMap<Integer, TableSchema> schemas;
  private final LinkedHashMap<String, UserType> types;
  private final TreeMap<Integer, List<DroppedColumn>> dropped;
  private final TreeMap<Integer, List<IndexDef>> indexes;

  /**
   * No new table gets an id below this: ids of dropped tables whose commit-log records or
   * directories may still exist are never given again (see {@link #reserveIdsBelow}).
   */
  private int idFloor = 1;

  private Catalog(
      StorageFs fs,
      Path dir,
      Map<String, KeyspaceSchema> keyspaces,
      Map<String, UserType> types,
      Map<Integer, TableSchema> schemas,
      Map<Integer, List<DroppedColumn>> dropped,
      Map<Integer, List<IndexDef>> indexes) {
    this.fs = fs;
    this.dir = dir;
    this.keyspaces = new TreeMap<>(keyspaces);
    this.types = new LinkedHashMap<>(types);
    this.schemas = new TreeMap<>(schemas);
    this.dropped = new TreeMap<>(dropped);
    this.indexes = new TreeMap<>(indexes);
  }

  /** Counts the schema changes saved since the catalogue was loaded. */
  private final java.util.concurrent.atomic.AtomicLong version =
      new java.util.concurrent.atomic.AtomicLong();

  private void save(SchemaStore.Content c) throws IOException {
    SchemaStore.save(fs, dir, c);
    version.incrementAndGet();
  }

  /** How many schema changes were saved since load; read from any thread. */
  public long version() {
    return version.get();
  }

  private SchemaStore.Content content(
      Map<String, KeyspaceSchema> ks,
      Map<String, UserType> ts,
      Map<Integer, TableSchema> tables,
      Map<Integer, List<DroppedColumn>> drops) {
    return new SchemaStore.Content(ks, ts, tables, drops, indexes);
  }

  /** The secondary indexes of table {@code id}, in creation order; empty if it has none. */
  public List<IndexDef> indexes(int id) {
    return indexes.getOrDefault(id, List.of());
  }

  /**
   * Saves the catalogue with table {@code id}'s secondary indexes replaced by {@code next} (a
   * CREATE or DROP INDEX, in one atomic rewrite of the schema file), then takes the change.
   */
  public void putIndexes(int id, List<IndexDef> next) throws IOException {
    Map<Integer, List<IndexDef>> all = new TreeMap<>(indexes);
    all.put(id, List.copyOf(next));
    SchemaStore.save(fs, dir, new SchemaStore.Content(keyspaces, types, schemas, dropped, all));
    version.incrementAndGet();
    indexes.put(id, List.copyOf(next));
  }

  /** The dropped columns of table {@code id}, oldest first; empty if it dropped none. */
  public List<DroppedColumn> dropped(int id) {
    return dropped.getOrDefault(id, List.of());
  }

  /**
   * Saves the catalogue with table {@code id}'s schema and dropped columns replaced (an ALTER
   * TABLE, in one atomic rewrite of the schema file), then takes the change.
   */
  public void alter(int id, TableSchema schema, List<DroppedColumn> droppedColumns)
      throws IOException {
    Map<Integer, TableSchema> next = new TreeMap<>(schemas);
    next.put(id, schema);
    Map<Integer, List<DroppedColumn>> nextDropped = new TreeMap<>(dropped);
    nextDropped.put(id, List.copyOf(droppedColumns));
    save(content(keyspaces, types, next, nextDropped));
    schemas.put(id, schema);
    dropped.put(id, List.copyOf(droppedColumns));
  }

  /**
   * The catalogue stored in {@code dir}, empty for a new directory. Tables stored before keyspaces
   * existed are put in {@code defaultKeyspace}, which is then created (SimpleStrategy, one replica,
   * durable writes) if it is missing; the file is rewritten at the next schema change. Removes the
   * temporary file a crash in the middle of a save leaves ({@link SchemaStore#save} writes {@code
   * schema.db.tmp}, then renames it): it was never the schema.
   */
  public static Catalog load(StorageFs fs, Path dir, String defaultKeyspace) throws IOException {
    SchemaStore.Content stored = SchemaStore.load(fs, dir);
    fs.delete(dir.resolve(SchemaStore.FILE + ".tmp"));
    Map<String, KeyspaceSchema> keyspaces = new TreeMap<>(stored.keyspaces());
    Map<Integer, TableSchema> tables = new TreeMap<>();
    for (Map.Entry<Integer, TableSchema> e : stored.tables().entrySet()) {
      TableSchema t = e.getValue();
      if (t.keyspace().isEmpty()) {
        t = t.withKeyspace(defaultKeyspace);
        keyspaces.computeIfAbsent(defaultKeyspace, k -> KeyspaceSchema.builder(k).build());
      }
      tables.put(e.getKey(), t);
    }
    return new Catalog(
        fs, dir, keyspaces, stored.types(), tables, stored.dropped(), stored.indexes());
  }

  /** Keyspace name → keyspace, in name order. */
  public Map<String, KeyspaceSchema> keyspaces() {
    return Collections.unmodifiableMap(keyspaces);
  }

  /** User type name → type, in creation order. */
  public Map<String, UserType> types() {
    return Collections.unmodifiableMap(types);
  }

  /** Saves the catalogue with user type {@code type} added, then takes the change. */
  public void putType(UserType type) throws IOException {
    LinkedHashMap<String, UserType> next = new LinkedHashMap<>(types);
    next.put(type.name(), type);
    save(content(keyspaces, next, schemas, dropped));
    types.put(type.name(), type);
  }

  /**
   * Saves the catalogue with every user type replaced by {@code nextTypes} (in creation order) and
   * the tables in {@code tables} and their dropped columns in {@code drops} replaced (an ALTER TYPE
   * or DROP TYPE and the schemas it changes, in one atomic rewrite), then takes the change.
   */
  public void replaceTypes(
      Map<String, UserType> nextTypes,
      Map<Integer, TableSchema> tables,
      Map<Integer, List<DroppedColumn>> drops)
      throws IOException {
    Map<Integer, TableSchema> next = new TreeMap<>(schemas);
    next.putAll(tables);
    Map<Integer, List<DroppedColumn>> nextDropped = new TreeMap<>(dropped);
    nextDropped.putAll(drops);
    save(content(keyspaces, nextTypes, next, nextDropped));
    types.clear();
    types.putAll(nextTypes);
    schemas.putAll(tables);
    dropped.putAll(drops);
  }

  /** Table id → schema, in id order. */
  public Map<Integer, TableSchema> tables() {
    return Collections.unmodifiableMap(schemas);
  }

  /** The id the next new table gets: above every id in use, given, or reserved. */
  public int nextId() {
    return Math.max(idFloor, schemas.isEmpty() ? 1 : schemas.lastKey() + 1);
  }

  /**
   * Never gives an id below {@code id} again: called for the ids found in the commit log and in
   * table directory names at open, and for every table dropped or truncated, so that no new table
   * takes the id — and with it the commit-log records or the files — of one that is gone.
   */
  public void reserveIdsBelow(int id) {
    idFloor = Math.max(idFloor, id);
  }

  /** Saves the catalogue without table {@code id}, then takes the change. */
  public void remove(int id) throws IOException {
    replace(id, -1, null);
  }

  /**
   * Saves the catalogue with table {@code oldId} replaced by {@code newId} (a truncate: same schema
   * and dropped columns, so the same column ids, new id, in one atomic rewrite of the schema file),
   * then takes the change; its secondary indexes go with it. With a null {@code schema} the table
   * is only removed, with its indexes.
   */
  public void replace(int oldId, int newId, TableSchema schema) throws IOException {
    Map<Integer, TableSchema> next = new TreeMap<>(schemas);
    Map<Integer, List<DroppedColumn>> nextDropped = new TreeMap<>(dropped);
    Map<Integer, List<IndexDef>> nextIndexes = new TreeMap<>(indexes);
    List<DroppedColumn> old = nextDropped.remove(oldId);
    List<IndexDef> oldIndexes = nextIndexes.remove(oldId);
    next.remove(oldId);
    if (schema != null) {
      next.put(newId, schema);
      if (old != null) {
        nextDropped.put(newId, old);
      }
      if (oldIndexes != null) {
        nextIndexes.put(newId, oldIndexes);
      }
    }
    save(new SchemaStore.Content(keyspaces, types, next, nextDropped, nextIndexes));
    schemas.remove(oldId);
    dropped.remove(oldId);
    indexes.remove(oldId);
    if (schema != null) {
      schemas.put(newId, schema);
      if (old != null) {
        dropped.put(newId, old);
      }
      if (oldIndexes != null) {
        indexes.put(newId, oldIndexes);
      }
    }
    reserveIdsBelow(Math.max(oldId, newId) + 1);
  }

  /** Saves the catalogue with table {@code id} added or replaced, then takes the change. */
  public void put(int id, TableSchema schema) throws IOException {
    Map<Integer, TableSchema> next = new TreeMap<>(schemas);
    next.put(id, schema);
    save(content(keyspaces, types, next, dropped));
    schemas.put(id, schema);
  }

  /** Saves the catalogue with the keyspace added or replaced, then takes the change. */
  public void putKeyspace(KeyspaceSchema keyspace) throws IOException {
    Map<String, KeyspaceSchema> next = new TreeMap<>(keyspaces);
    next.put(keyspace.name(), keyspace);
    save(content(next, types, schemas, dropped));
    keyspaces.put(keyspace.name(), keyspace);
  }

  /** Saves the catalogue without the keyspace (which must hold no table), then takes the change. */
  public void removeKeyspace(String name) throws IOException {
    Map<String, KeyspaceSchema> next = new TreeMap<>(keyspaces);
    next.remove(name);
    save(content(next, types, schemas, dropped));
    keyspaces.remove(name);
  }
}
