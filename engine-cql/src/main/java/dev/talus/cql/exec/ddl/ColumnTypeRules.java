package dev.talus.cql.exec.ddl;

import dev.talus.DataType;
import dev.talus.cql.exec.support.Source;
import dev.talus.cql.parse.ast.ColumnDefinition;
import dev.talus.cql.parse.ast.Identifier;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cassandra's checks of the column types of a {@code CREATE TABLE} that the engine's builder would
 * otherwise refuse with its own wording: non-frozen collections and user types in the primary key,
 * static columns (not in the key, only with clustering columns), counters mixed with other columns
 * (from Cassandra 5.0's {@code CreateTableStatement}). Static.
 */
final class ColumnTypeRules {
  private ColumnTypeRules() {}

  static void checkKey(Identifier k, DataType t, Source src) {
    if (t.isMultiCell()) {
      throw src.invalid(
          k,
          "Invalid non-frozen "
              + (t.isCollection() ? "collection" : "user-defined")
              + " type "
              + t.cqlName()
              + " for PRIMARY KEY component "
              + k.name());
    }
    if (t.kind() == DataType.Kind.VECTOR) {
      throw src.invalid(
          k, "vector type is not supported for PRIMARY KEY column '" + k.name() + "'");
    }
  }

  static void checkStatics(
      List<ColumnDefinition> statics, Set<String> key, boolean noClustering, Source src) {
    for (ColumnDefinition c : statics) {
      if (key.contains(c.name().name())) {
        throw src.invalid(
            c.name(), "Static column " + c.name().name() + " cannot be part of the PRIMARY KEY");
      }
      if (noClustering) {
        throw src.invalid(
            c.name(),
            "Static columns are only useful (and thus allowed) if the table has at least one"
                + " clustering column");
      }
    }
  }

  static void checkCounters(
      List<ColumnDefinition> columns, Map<String, DataType> types, Set<String> key, Source src) {
    boolean counters = false;
    boolean others = false;
    for (Map.Entry<String, DataType> e : types.entrySet()) {
      if (!key.contains(e.getKey())) {
        if (e.getValue() == DataType.COUNTER) {
          counters = true;
        } else {
          others = true;
        }
      }
    }
    if (counters && others) {
      throw src.invalid(
          columns.get(0).position(),
          1,
          "Cannot mix counter and non counter columns in the same table");
    }
  }
}
