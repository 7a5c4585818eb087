package dev.talus;

import java.time.Duration;
import java.util.List;

/**
 * The rules a table's columns must follow beyond names: what can be a key column, Cassandra's
 * counter rules, and static columns only with clustering columns; and the ranges of its options.
 * Messages follow Cassandra's wording where it has one. Stateless.
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

  /** The chunk size (a power of two, 1 to 1,024 KiB) and the Bloom filter chance (in (0, 1]). */
  static void checkStorage(int chunkLengthKb, double bloomFilterFpChance) {
    if (chunkLengthKb < 1 || chunkLengthKb > 1024 || Integer.bitCount(chunkLengthKb) != 1) {
      throw new InvalidSchemaException(
          "chunk_length_in_kb must be a power of 2 from 1 to 1024 (KiB), got " + chunkLengthKb);
    }
    if (!(bloomFilterFpChance > 0 && bloomFilterFpChance <= 1)) {
      throw new InvalidSchemaException(
          "bloomFilterFpChance must be in (0, 1], got " + bloomFilterFpChance);
    }
  }

  /** A default TTL within Cassandra's limit and a gc_grace not negative, both in whole seconds. */
  static void checkTimes(Duration defaultTimeToLive, Duration gcGrace) {
    if (defaultTimeToLive.isNegative() || defaultTimeToLive.compareTo(TableSchema.MAX_TTL) > 0) {
      throw new InvalidSchemaException(
          "defaultTimeToLive must be between 0 and "
              + TableSchema.MAX_TTL.getSeconds()
              + " seconds (20 × 365 days, Cassandra's limit), got "
              + defaultTimeToLive);
    }
    if (defaultTimeToLive.getNano() != 0) {
      throw new InvalidSchemaException(
          "defaultTimeToLive is counted in whole seconds, got " + defaultTimeToLive);
    }
    if (gcGrace.isNegative()) {
      throw new InvalidSchemaException("gcGrace must not be negative, got " + gcGrace);
    }
    if (gcGrace.getNano() != 0) {
      throw new InvalidSchemaException("gcGrace is counted in whole seconds, got " + gcGrace);
    }
  }

  /** A guardrail pair: each null (engine default), 0 (off) or positive, and warn at most fail. */
  static void checkGuardrail(String what, Long warn, Long fail) {
    if ((warn != null && warn < 0) || (fail != null && fail < 0)) {
      throw new InvalidSchemaException(
          what + " must be null (engine default), 0 (off) or positive, got " + warn + "/" + fail);
    }
    if (warn != null && fail != null && warn > 0 && fail > 0 && warn > fail) {
      throw new InvalidSchemaException(
          what + " need warn <= fail, got warn=" + warn + ", fail=" + fail);
    }
  }
}
