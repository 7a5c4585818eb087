package dev.talus.db;

import dev.talus.InvalidQueryException;
import dev.talus.InvalidSchemaException;
import dev.talus.KeyspaceSchema;
import dev.talus.StorageException;
import dev.talus.TableSchema;
import dev.talus.schema.Catalog;
import dev.talus.table.TableStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The keyspaces of one database as the rest of it reads them: an immutable snapshot of every
 * keyspace, and which tables' writes skip the commit log (their keyspace has {@code durable_writes
 * = false}). Reads are lock-free; changes are made under the database's lock and saved in the
 * catalogue first.
 */
final class Keyspaces {
  private static final Logger LOG = LoggerFactory.getLogger(Database.class);

  private final Set<Integer> unlogged = ConcurrentHashMap.newKeySet();
  private volatile Map<String, KeyspaceSchema> all = Map.of();

  /** Every keyspace, by name. */
  Map<String, KeyspaceSchema> all() {
    return all;
  }

  /** Whether writes to table {@code id} go through the commit log. */
  boolean logged(int id) {
    return unlogged.isEmpty() || !unlogged.contains(id); // no boxing in the common case
  }

  /** Takes the catalogue's keyspaces and recomputes every table's durability. */
  void reload(Catalog catalog, Collection<TableStore> tables) {
    all = Collections.unmodifiableMap(new TreeMap<>(catalog.keyspaces()));
    for (TableStore t : tables) {
      tableAdded(t);
    }
  }

  void tableAdded(TableStore t) {
    KeyspaceSchema ks = all.get(t.schema().keyspace().orElseThrow());
    if (ks != null && !ks.durableWrites()) {
      unlogged.add(t.id());
    } else {
      unlogged.remove(t.id());
    }
  }

  /** Table {@code t} was dropped, or replaced by a truncate. */
  void tableRemoved(TableStore t) {
    unlogged.remove(t.id());
  }

  /** Saves the keyspace (added or replaced), then takes it. */
  void put(Catalog catalog, KeyspaceSchema keyspace, Collection<TableStore> tables) {
    try {
      catalog.putKeyspace(keyspace);
    } catch (IOException e) {
      throw new StorageException(
          "cannot save keyspace " + keyspace.name() + ": " + e.getMessage(), e);
    }
    reload(catalog, tables);
  }

  /**
   * The schema placed in its keyspace: a schema without one goes to {@code defaultKeyspace}, which
   * is created (and saved) the first time; any other keyspace must exist.
   */
  TableSchema placeTable(
      Catalog catalog, TableSchema schema, String defaultKeyspace, Collection<TableStore> tables) {
    if (schema.keyspace().isEmpty()) {
      schema = schema.withKeyspace(defaultKeyspace);
    }
    String ks = schema.keyspace().orElseThrow();
    if (!all.containsKey(ks)) {
      if (!ks.equals(defaultKeyspace)) {
        throw new InvalidSchemaException(
            "keyspace "
                + ks
                + " of table "
                + schema.name()
                + " does not exist; keyspaces are "
                + all.keySet()
                + ". Fix: create it first (TalusDb.createKeyspace, or CREATE KEYSPACE in CQL)");
      }
      put(catalog, KeyspaceSchema.builder(ks).build(), tables);
    }
    return schema;
  }

  /** Creates a keyspace; with {@code ifNotExists}, an existing one of that name is returned. */
  KeyspaceSchema create(
      Catalog catalog,
      KeyspaceSchema keyspace,
      boolean ifNotExists,
      Collection<TableStore> tables) {
    KeyspaceSchema existing = all.get(keyspace.name());
    if (existing != null) {
      if (ifNotExists) {
        return existing;
      }
      throw new InvalidSchemaException("keyspace " + keyspace.name() + " already exists");
    }
    put(catalog, keyspace, tables);
    return keyspace;
  }

  /** Replaces an existing keyspace's options. */
  void alter(Catalog catalog, KeyspaceSchema keyspace, Collection<TableStore> tables) {
    if (!all.containsKey(keyspace.name())) {
      throw new InvalidQueryException("keyspace " + keyspace.name() + " does not exist");
    }
    put(catalog, keyspace, tables);
  }

  /**
   * Flushes every table whose keyspace skips the commit log (at close, as Cassandra drains at
   * shutdown); returns the last failure, or null.
   */
  RuntimeException flushUnlogged(Collection<TableStore> tables, Path dir) {
    RuntimeException failure = null;
    for (TableStore t : tables) {
      if (!logged(t.id())) {
        try {
          t.flush();
        } catch (RuntimeException e) {
          failure = e;
          LOG.error("Flushing {} (a keyspace without durable writes) at close failed", dir, e);
        }
      }
    }
    return failure;
  }

  /** Drops an empty keyspace; false if none has that name; refused if it holds tables. */
  boolean drop(Catalog catalog, String name, Collection<TableStore> tables) {
    if (!all.containsKey(name)) {
      return false;
    }
    List<String> held = new ArrayList<>();
    for (TableStore t : tables) {
      if (t.schema().keyspace().orElseThrow().equals(name)) {
        held.add(t.schema().name());
      }
    }
    if (!held.isEmpty()) {
      held.sort(null);
      throw new InvalidSchemaException(
          "keyspace "
              + name
              + " holds tables "
              + held
              + ": dropping a keyspace with its tables is not supported yet by Talus; drop its"
              + " tables first (TalusDb.dropTable), then the empty keyspace");
    }
    try {
      catalog.removeKeyspace(name);
    } catch (IOException e) {
      throw new StorageException("cannot drop keyspace " + name + ": " + e.getMessage(), e);
    }
    reload(catalog, tables);
    return true;
  }
}
