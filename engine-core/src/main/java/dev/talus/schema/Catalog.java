package dev.talus.schema;

import dev.talus.TableSchema;
import dev.talus.UserType;
import dev.talus.io.StorageFs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The catalogue of a data directory: every user-defined type (in creation order, so a type's fields
 * only name types before it) and every table's id and schema, persisted in {@code schema.db}
 * ({@link SchemaStore}). A change is saved before it is taken: if the save fails, the catalogue is
 * unchanged. Not thread-safe; the database serialises schema changes.
 */
public final class Catalog {
  private final StorageFs fs;
  private final Path dir;
  private final TreeMap<Integer, TableSchema> schemas;
  private final LinkedHashMap<String, UserType> types;

  private Catalog(StorageFs fs, Path dir, SchemaStore.Content content) {
    this.fs = fs;
    this.dir = dir;
    this.schemas = new TreeMap<>(content.tables());
    this.types = new LinkedHashMap<>(content.types());
  }

  /**
   * The catalogue stored in {@code dir}, empty for a new directory. Removes the temporary file a
   * crash in the middle of a save leaves ({@link SchemaStore#save} writes {@code schema.db.tmp},
   * then renames it): it was never the schema.
   */
  public static Catalog load(StorageFs fs, Path dir) throws IOException {
    SchemaStore.Content content = SchemaStore.load(fs, dir);
    fs.delete(dir.resolve(SchemaStore.FILE + ".tmp"));
    return new Catalog(fs, dir, content);
  }

  /** User type name → type, in creation order. */
  public Map<String, UserType> types() {
    return Collections.unmodifiableMap(types);
  }

  /** Saves the catalogue with user type {@code type} added, then takes the change. */
  public void putType(UserType type) throws IOException {
    LinkedHashMap<String, UserType> next = new LinkedHashMap<>(types);
    next.put(type.name(), type);
    SchemaStore.save(fs, dir, new SchemaStore.Content(next, schemas));
    types.put(type.name(), type);
  }

  /** Table id → schema, in id order. */
  public Map<Integer, TableSchema> tables() {
    return Collections.unmodifiableMap(schemas);
  }

  /** The id the next new table gets. */
  public int nextId() {
    return schemas.isEmpty() ? 1 : schemas.lastKey() + 1;
  }

  /** Saves the catalogue with table {@code id} added or replaced, then takes the change. */
  public void put(int id, TableSchema schema) throws IOException {
    Map<Integer, TableSchema> next = new TreeMap<>(schemas);
    next.put(id, schema);
    SchemaStore.save(fs, dir, new SchemaStore.Content(types, next));
    schemas.put(id, schema);
  }
}
