package dev.talus.index;

import dev.talus.ColumnDef;
import dev.talus.DataType;
import dev.talus.IndexDef;
import dev.talus.InvalidQueryException;
import dev.talus.TableSchema;
import java.util.Collection;

/**
 * What CREATE INDEX accepts: the column exists, is a regular column of a scalar type, and has no
 * index yet; the name is not taken in the keyspace. The messages follow Cassandra's ({@code
 * cql3/statements/schema/CreateIndexStatement.java}); what Cassandra 5 indexes and Talus does not
 * yet is refused as "not yet supported by Talus". Stateless.
 */
public final class IndexRules {
  private IndexRules() {}

  /**
   * Checks {@code def} for {@code table}.
   *
   * @param keyspaceIndexes every index of the keyspace, of this table and the others
   * @param tableIndexes the indexes of this table
   * @throws InvalidQueryException naming what is wrong
   */
  public static void checkCreate(
      TableSchema table,
      IndexDef def,
      Collection<IndexDef> keyspaceIndexes,
      Collection<IndexDef> tableIndexes) {
    for (IndexDef other : keyspaceIndexes) {
      if (other.name().equals(def.name())) {
        throw new InvalidQueryException("Index '" + def.name() + "' already exists");
      }
    }
    ColumnDef c =
        table
            .column(def.column())
            .orElseThrow(
                () ->
                    new InvalidQueryException(
                        "Column '" + def.column() + "' doesn't exist in table " + table.name()));
    if (c.kind() != ColumnDef.Kind.REGULAR) {
      throw new InvalidQueryException(
          "Indexing "
              + describe(c.kind())
              + " column "
              + c.name()
              + " is not yet supported by Talus (it indexes regular columns only)");
    }
    if (!isIndexable(c.type())) {
      throw new InvalidQueryException(
          "Indexing column "
              + c.name()
              + " of type "
              + c.type().cqlName()
              + " is not yet supported by Talus (it indexes columns of scalar types only)");
    }
    if (def.target() != IndexDef.Target.SIMPLE) {
      throw new InvalidQueryException(
          "Indexing "
              + def.target().cql(c.name())
              + " is not yet supported by Talus (it indexes whole values of scalar columns only)");
    }
    if (!def.options().isEmpty()) {
      throw new InvalidQueryException(
          "Index option '"
              + def.options().firstKey()
              + "' is not yet supported by Talus (it takes no options)");
    }
    for (IndexDef other : tableIndexes) {
      if (other.column().equals(def.column())
          && other.kind() == def.kind()
          && other.target() == def.target()) {
        throw new InvalidQueryException(
            "Index " + def.name() + " is a duplicate of existing index " + other.name());
      }
    }
  }

  /** True for the scalar types an index accepts: every native value type but duration. */
  static boolean isIndexable(DataType t) {
    return t.isNative() && t.kind() != DataType.Kind.DURATION && t.kind() != DataType.Kind.COUNTER;
  }

  private static String describe(ColumnDef.Kind k) {
    return switch (k) {
      case PARTITION_KEY -> "partition key";
      case CLUSTERING -> "clustering";
      case STATIC -> "static";
      case REGULAR -> "regular";
    };
  }
}
