package dev.talus.db;

import dev.talus.ColumnDef;
import dev.talus.DataType;
import dev.talus.InvalidQueryException;
import dev.talus.StorageException;
import dev.talus.TableSchema;
import dev.talus.UserType;
import dev.talus.schema.DroppedColumn;
import dev.talus.schema.KeyCodec;
import dev.talus.schema.TypeParser;
import dev.talus.table.TableStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * ALTER TYPE (add a field, rename fields) and DROP TYPE, under the database's lock, with
 * Cassandra's rules and messages ({@code cql3/statements/schema/AlterTypeStatement.java}, {@code
 * DropTypeStatement.java}). A change to a type also changes every type that nests it and every
 * table schema (dropped columns included) whose column types mention it: all of them are stored in
 * one atomic rewrite of the schema file (the durable point), then the tables' stores switch to the
 * new schemas. No stored value changes: a non-frozen value's fields are cells named by position,
 * and a frozen value stored before a field was added reads with the new field null. Stateless.
 */
public final class TypeChanges {
  private TypeChanges() {}

  /** ALTER TYPE name ADD field type; returns the new type. */
  public static UserType addField(Database db, String name, String field, DataType type) {
    synchronized (db) {
      db.ctx.checkWritable();
      UserType old = existing(db, name);
      if (old.fieldIndex(field) >= 0) {
        throw new InvalidQueryException(
            "Cannot add field "
                + field
                + " to type "
                + name
                + ": a field with name "
                + field
                + " already exists");
      }
      if (references(type, name)) {
        throw new InvalidQueryException(
            "Cannot add new field "
                + field
                + " of type "
                + type.cqlName()
                + " to user type "
                + name
                + " as it would create a circular reference");
      }
      UserTypes.checkDefined(db.catalog, type, "user type " + name);
      List<String> keyUses = keyUses(db, name);
      if (!keyUses.isEmpty()) {
        throw new InvalidQueryException(
            "Cannot add new field "
                + field
                + " of type "
                + type.cqlName()
                + " to user type "
                + name
                + " as the type is being used in a primary key or as a set element or map key by"
                + " "
                + String.join(", ", keyUses)
                + " (Talus stores those values in an order-preserving encoding a new field"
                + " would change; Cassandra refuses only partition key uses)");
      }
      UserType.Builder b = UserType.builder(name);
      for (int i = 0; i < old.fieldNames().size(); i++) {
        b.field(old.fieldNames().get(i), old.fieldTypes().get(i));
      }
      UserType next = b.field(field, type).build();
      replace(db, name, next);
      return next;
    }
  }

  /** ALTER TYPE name RENAME a TO b [AND ...]; returns the new type. */
  public static UserType renameFields(Database db, String name, Map<String, String> renames) {
    synchronized (db) {
      db.ctx.checkWritable();
      UserType old = existing(db, name);
      List<String> names = new ArrayList<>(old.fieldNames());
      for (Map.Entry<String, String> r : renames.entrySet()) {
        int i = old.fieldIndex(r.getKey());
        if (i < 0) {
          throw new InvalidQueryException(
              "Unknown field "
                  + r.getKey()
                  + " in user type "
                  + name
                  + "; its fields are "
                  + names);
        }
        names.set(i, r.getValue());
      }
      Set<String> seen = new HashSet<>();
      for (String n : names) {
        if (!seen.add(n)) {
          throw new InvalidQueryException("Duplicate field name " + n + " in type " + name);
        }
      }
      UserType.Builder b = UserType.builder(name);
      for (int i = 0; i < names.size(); i++) {
        b.field(names.get(i), old.fieldTypes().get(i));
      }
      UserType next = b.build();
      replace(db, name, next);
      return next;
    }
  }

  /** DROP TYPE: refused while a type or a table uses it; false if absent and {@code ifExists}. */
  public static boolean drop(Database db, String name, boolean ifExists) {
    synchronized (db) {
      db.ctx.checkWritable();
      if (!db.catalog.types().containsKey(name)) {
        if (ifExists) {
          return false;
        }
        existing(db, name);
      }
      List<String> types = new ArrayList<>();
      for (UserType u : db.catalog.types().values()) {
        if (!u.name().equals(name) && u.fieldTypes().stream().anyMatch(f -> references(f, name))) {
          types.add(u.name());
        }
      }
      if (!types.isEmpty()) {
        throw new InvalidQueryException(
            "Cannot drop user type '"
                + name
                + "' as it is still used by user types "
                + String.join(", ", types));
      }
      List<String> tables = new ArrayList<>();
      for (Map.Entry<Integer, TableSchema> e : db.catalog.tables().entrySet()) {
        boolean uses = e.getValue().columns().stream().anyMatch(c -> references(c.type(), name));
        for (DroppedColumn d : db.catalog.dropped(e.getKey())) {
          uses |= references(d.type(), name); // its stored cells are read with that type
        }
        if (uses) {
          tables.add(e.getValue().name());
        }
      }
      if (!tables.isEmpty()) {
        throw new InvalidQueryException(
            "Cannot drop user type '"
                + name
                + "' as it is still used by tables "
                + String.join(", ", tables)
                + " (a column dropped from a table still counts: its stored cells keep the type)");
      }
      replace(db, name, null);
      return true;
    }
  }

  private static UserType existing(Database db, String name) {
    UserType t = db.catalog.types().get(name);
    if (t == null) {
      throw new InvalidQueryException(
          "Type '" + name + "' doesn't exist; the user types are " + db.catalog.types().keySet());
    }
    return t;
  }

  /** True if {@code t} is, or contains at any depth, the user type {@code name}. */
  static boolean references(DataType t, String name) {
    if (t.kind() == DataType.Kind.UDT && t.userType().name().equals(name)) {
      return true;
    }
    for (DataType c : t.componentTypes()) {
      if (references(c, name)) {
        return true;
      }
    }
    return false;
  }

  /** The "table.column" uses of type {@code name} whose values are stored key-encoded. */
  private static List<String> keyUses(Database db, String name) {
    List<String> out = new ArrayList<>();
    for (TableSchema s : db.catalog.tables().values()) {
      for (ColumnDef c : s.columns()) {
        DataType t = c.type();
        boolean key = c.isPrimaryKey() && references(t, name);
        boolean cellPath =
            !t.isFrozen()
                && (t.kind() == DataType.Kind.SET || t.kind() == DataType.Kind.MAP)
                && references(t.componentTypes().get(0), name);
        if (key || cellPath) {
          out.add(s.name() + "." + c.name());
        }
      }
    }
    return out;
  }

  /**
   * Replaces type {@code name} by {@code next} (null: removes it), rebuilds every type and table
   * schema that mentions a changed type, saves them all at once and switches the stores.
   */
  private static void replace(Database db, String name, UserType next) {
    LinkedHashMap<String, UserType> types = new LinkedHashMap<>();
    Set<String> changed = new HashSet<>(Set.of(name));
    for (UserType u : db.catalog.types().values()) {
      if (u.name().equals(name)) {
        if (next != null) {
          types.put(name, next);
        }
        continue;
      }
      if (u.fieldTypes().stream().anyMatch(f -> mentions(f, changed))) {
        UserType.Builder b = UserType.builder(u.name());
        for (int i = 0; i < u.fieldNames().size(); i++) {
          b.field(u.fieldNames().get(i), TypeParser.parse(u.fieldTypes().get(i).cqlName(), types));
        }
        u = b.build();
        changed.add(u.name());
      }
      types.put(u.name(), u);
    }
    Map<Integer, TableSchema> tables = new TreeMap<>();
    Map<Integer, List<DroppedColumn>> drops = new TreeMap<>();
    for (Map.Entry<Integer, TableSchema> e : db.catalog.tables().entrySet()) {
      TableSchema s = e.getValue();
      if (s.columns().stream().anyMatch(c -> mentions(c.type(), changed))) {
        List<ColumnDef> cols = new ArrayList<>();
        for (ColumnDef c : s.columns()) {
          DataType t = mentions(c.type(), changed) ? reparse(c.type(), types) : c.type();
          cols.add(new ColumnDef(c.name(), t, c.kind(), c.order()));
        }
        tables.put(e.getKey(), TableAlter.withColumns(s, cols));
      }
      List<DroppedColumn> ds = db.catalog.dropped(e.getKey());
      if (ds.stream().anyMatch(d -> mentions(d.type(), changed))) {
        List<DroppedColumn> out = new ArrayList<>();
        for (DroppedColumn d : ds) {
          DataType t = mentions(d.type(), changed) ? reparse(d.type(), types) : d.type();
          out.add(new DroppedColumn(d.name(), t, d.kind(), d.id(), d.droppedAtMicros()));
        }
        drops.put(e.getKey(), out);
      }
    }
    try {
      db.catalog.replaceTypes(types, tables, drops);
    } catch (IOException e) {
      throw new StorageException(
          "cannot change type " + name + " (the schema is unchanged): " + e.getMessage(), e);
    }
    Set<Integer> ids = new HashSet<>(tables.keySet());
    ids.addAll(drops.keySet());
    for (int id : ids) {
      TableStore store = db.byId.get(id);
      if (store == null) {
        continue; // set aside at open (QUARANTINE): it opens with the new schema next time
      }
      store.altered(new KeyCodec(db.catalog.tables().get(id), db.catalog.dropped(id)));
      TableSchema s = store.schema();
      TableHandle h = db.tables.get(s.keyspace().orElseThrow() + "." + s.name());
      if (h != null) {
        h.replaceStore(store); // the read path compiles queries against the new schema
      }
    }
  }

  private static boolean mentions(DataType t, Set<String> names) {
    for (String n : names) {
      if (references(t, n)) {
        return true;
      }
    }
    return false;
  }

  /** The type named like {@code t}, with the user types of {@code types}. */
  private static DataType reparse(DataType t, Map<String, UserType> types) {
    return TypeParser.parse(t.cqlName(), types);
  }
}
