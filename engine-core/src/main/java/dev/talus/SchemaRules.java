package dev.talus;

import java.time.Duration;
import java.util.List;

/**
 * The rules a table's columns must follow beyond names: what can be a key column, Cassandra's
 * counter rules, and static columns only with clustering columns. Messages follow Cassandra's
 * wording where it has one. Stateless.
 */
final class SchemaRules {
  private SchemaRules() {}

  /** Why column {@code c} of table {@code table} cannot be a key column. */
  static String notAKey(String table, ColumnDef c) {
    DataType t = c.type();
    String why =
        switch (t.kind()) {
          case COUNTER -> "counter type is not supported for PRIMARY KEY column '" + c.name() + "'";
          case VECTOR -> "vector type is not supported for PRIMARY KEY column '" + c.name() + "'";
          case LIST, SET, MAP, UDT ->
              t.isMultiCell()
                  ? "Invalid non-frozen "
                      + (t.kind() == DataType.Kind.UDT ? "user-defined" : "collection")
                      + " type "
                      + t.cqlName()
                      + " for PRIMARY KEY component "
                      + c.name()
                      + "; use frozen(...)"
                  : null;
          default -> null;
        };
    if (why != null) {
      return why + " (table " + table + "); make it a regular column";
    }
    return "column "
        + c.name()
        + " of type "
        + t.cqlName()
        + " cannot be part of the primary key of "
        + table
        + " (it has no total order); make it a regular column";
  }

  /** Counters alone, without a default TTL; static columns only with clustering columns. */
  static void checkValueKinds(
      String table, List<ColumnDef> clustering, List<ColumnDef> nonKey, Duration defaultTtl) {
    boolean counters = false;
    boolean others = false;
    for (ColumnDef c : nonKey) {
      boolean isCounter = c.type().kind() == DataType.Kind.COUNTER;
      counters |= isCounter;
      others |= !isCounter;
      if (c.isStatic() && clustering.isEmpty()) {
        throw new InvalidSchemaException(
            "Static columns are only useful (and thus allowed) if the table has at least one"
                + " clustering column; "
                + c.name()
                + " of "
                + table
                + " is static");
      }
    }
    if (counters && others) {
      throw new InvalidSchemaException(
          "Cannot mix counter and non counter columns in the same table ("
              + table
              + "). Keep counters in a table of their own, keyed like the rows they count");
    }
    if (counters && !defaultTtl.isZero()) {
      throw new InvalidSchemaException(
          "Cannot set default_time_to_live on a table with counters (" + table + ")");
    }
  }
}
