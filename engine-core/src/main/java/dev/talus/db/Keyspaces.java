package dev.talus.db;

import dev.talus.InvalidSchemaException;
import dev.talus.KeyspaceSchema;
import dev.talus.StorageException;
import dev.talus.schema.Catalog;
import dev.talus.table.TableStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The keyspaces of one database as the rest of it reads them: an immutable snapshot of every
 * keyspace, and which tables' writes skip the commit log (their keyspace has {@code durable_writes
 * = false}). Reads are lock-free; changes are made under the database's lock and saved in the
 * catalogue first.
 */
final class Keyspaces {
  private final Set<Integer> unlogged = ConcurrentHashMap.newKeySet();
  private volatile Map<String, KeyspaceSchema> all = Map.of();

  /** Every keyspace, by name. */
  Map<String, KeyspaceSchema> all() {
    return all;
  }

  /** Whether writes to table {@code id} go through the commit log. */
  boolean logged(int id) {
    return !unlogged.contains(id);
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
              + ": dropping a keyspace with its tables is not supported yet by Talus (tables"
              + " cannot be dropped yet); only an empty keyspace can be dropped");
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
