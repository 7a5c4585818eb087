package dev.talus.index;

import dev.talus.ColumnDef;
import dev.talus.DataType;
import dev.talus.IndexDef;
import dev.talus.InvalidQueryException;
import dev.talus.TableSchema;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What CREATE INDEX accepts: the column exists and is a regular or static column, a clustering
 * column or a component of a composite partition key; the target fits its type (the whole value of
 * a scalar, the values of a list, set or map, the keys of a map, the whole of a frozen collection);
 * the options are the analysis options, on text values (a whole value, or a collection's elements
 * or keys); no index of the same target exists; the name is not taken in the keyspace. The messages
 * follow Cassandra's ({@code cql3/statements/schema/CreateIndexStatement.java}); what Cassandra 5
 * indexes and Talus does not yet is refused as "not yet supported by Talus". Stateless.
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
    if (VectorIndexRules.applies(c)) {
      VectorIndexRules.check(c, def, tableIndexes);
      return;
    }
    VectorIndexRules.checkNotVectorOptions(c, def);
    checkKind(table, c);
    checkTarget(c, def.target());
    checkOptions(c, def);
    for (IndexDef other : tableIndexes) {
      if (other.column().equals(def.column())
          && other.kind() == def.kind()
          && other.target() == def.target()) {
        if (other.options().equals(def.options())) {
          throw new InvalidQueryException(
              "Index " + def.name() + " is a duplicate of existing index " + other.name());
        }
        throw new InvalidQueryException(
            "Cannot create more than one storage-attached index on the same column: "
                + def.target().cql(c.name())
                + " (index "
                + other.name()
                + ")");
      }
    }
  }

  /**
   * {@code def} with the target Cassandra reads it as: an index of the whole value ({@link
   * IndexDef.Target#SIMPLE}) of a collection column indexes its values ({@code IndexTarget.Raw
   * prepare}: {@code CREATE INDEX ON t (c)} is {@code values(c)}); any other definition unchanged.
   */
  public static IndexDef resolve(TableSchema table, IndexDef def) {
    ColumnDef c = table.column(def.column()).orElse(null);
    if (c != null && def.target() == IndexDef.Target.SIMPLE && c.type().isCollection()) {
      return def.withTarget(IndexDef.Target.VALUES);
    }
    return def;
  }

  /**
   * Regular and static columns, clustering columns and the components of a composite partition key
   * are indexed; the only partition key column is refused as Cassandra refuses it (the partition
   * key already finds its partition).
   */
  private static void checkKind(TableSchema table, ColumnDef c) {
    if (c.kind() == ColumnDef.Kind.PARTITION_KEY && table.partitionKey().size() == 1) {
      throw new InvalidQueryException(
          "Cannot create secondary index on the only partition key column " + c.name());
    }
  }

  /** Cassandra's rules for a target ({@code CreateIndexStatement.validateIndexTarget}). */
  private static void checkTarget(ColumnDef c, IndexDef.Target target) {
    DataType t = c.type();
    if (referencesDuration(t)) {
      throw new InvalidQueryException(
          t.isCollection()
              ? "Secondary indexes are not supported on collections containing durations"
              : "Secondary indexes are not supported on duration columns");
    }
    boolean frozenCollection = t.isCollection() && !t.isMultiCell();
    if (frozenCollection && target != IndexDef.Target.FULL) {
      throw new InvalidQueryException(
          "Cannot create "
              + targetName(target)
              + "() index on frozen column "
              + c.name()
              + ". Frozen collections are immutable and must be fully indexed by using the 'full("
              + c.name()
              + ")' modifier");
    }
    if (!frozenCollection && target == IndexDef.Target.FULL) {
      throw new InvalidQueryException("full() indexes can only be created on frozen collections");
    }
    if (!t.isCollection() && target != IndexDef.Target.SIMPLE) {
      throw new InvalidQueryException(
          "Cannot create "
              + targetName(target)
              + "() index on "
              + c.name()
              + ". Non-collection columns only support simple indexes");
    }
    if ((target == IndexDef.Target.KEYS || target == IndexDef.Target.ENTRIES)
        && !(t.kind() == DataType.Kind.MAP && t.isMultiCell())) {
      throw new InvalidQueryException(
          "Cannot create index on "
              + targetName(target)
              + " of column "
              + c.name()
              + " with non-map type");
    }
    boolean ok =
        switch (target) {
          case SIMPLE -> isIndexable(t);
          case VALUES -> isElement(t.kind() == DataType.Kind.MAP ? t.valueType() : t.elementType());
          case KEYS -> isElement(t.elementType());
          case FULL -> isElement(t);
          case ENTRIES -> isElement(t.elementType()) && isElement(t.valueType());
        };
    if (!ok) {
      throw new InvalidQueryException(
          "Indexing "
              + target.cql(c.name())
              + " of type "
              + t.cqlName()
              + " is not yet supported by Talus (it indexes scalar values, the elements of"
              + " collections of scalar or frozen values, and whole frozen collections)");
    }
  }

  /**
   * Cassandra 5.0's SAI options ({@code StorageAttachedIndex.VALID_OPTIONS}): the analysis options
   * Talus has ({@link IndexAnalyzer}); the others are refused as not yet supported, and a name
   * Cassandra does not know as Cassandra refuses it.
   */
  private static void checkOptions(ColumnDef c, IndexDef def) {
    List<String> unknown = new ArrayList<>();
    for (String k : def.options().keySet()) {
      if (!CASSANDRA_OPTIONS.contains(k)) {
        unknown.add(k);
      }
    }
    if (!unknown.isEmpty()) {
      throw new InvalidQueryException(
          "Properties specified " + unknown + " are not understood by StorageAttachedIndex");
    }
    for (String k : def.options().keySet()) {
      if (!IndexAnalyzer.OPTIONS.contains(k)) {
        throw new InvalidQueryException("Index option '" + k + "' is not yet supported by Talus");
      }
    }
    if (IndexAnalyzer.isAnalyzed(def)) {
      if (c.isPrimaryKey()) {
        throw new InvalidQueryException(
            "Cannot specify index analyzer on primary key column: " + c.name());
      }
      DataType indexed = indexedType(c.type(), def.target());
      DataType.Kind k = indexed.kind();
      if (k != DataType.Kind.TEXT && k != DataType.Kind.ASCII) {
        throw new InvalidQueryException("CQL type " + indexed.cqlName() + " cannot be analyzed.");
      }
      IndexAnalyzer.of(def); // checks the values
    }
  }

  /**
   * The type of the values an index of {@code target} holds, as Cassandra 5.0's {@code
   * IndexTermType} takes it to decide whether they can be analyzed (only {@code text} and {@code
   * ascii} can): a list's or set's element, a map's key (KEYS) or value (VALUES), the whole column
   * otherwise (a map's entries and a frozen collection are no text, so Cassandra refuses them; for
   * entries it names an internal composite type, Talus the map).
   */
  private static DataType indexedType(DataType t, IndexDef.Target target) {
    return switch (target) {
      case VALUES -> t.kind() == DataType.Kind.MAP ? t.valueType() : t.elementType();
      case KEYS -> t.elementType();
      default -> t;
    };
  }

  /** The option names Cassandra 5.0's storage-attached index takes. */
  private static final Set<String> CASSANDRA_OPTIONS =
      Set.of(
          IndexAnalyzer.CASE_SENSITIVE,
          IndexAnalyzer.NORMALIZE,
          IndexAnalyzer.ASCII,
          "enable_segment_compaction",
          "target",
          "class_name",
          "bkd_posting_list_min_leaves",
          "bkd_posting_list_skip",
          "maximum_node_connections",
          "construction_beam_width",
          "similarity_function",
          "index_analyzer");

  private static boolean isElement(DataType t) {
    return isIndexable(t) || (t.isFrozen() && t.kind() != DataType.Kind.VECTOR);
  }

  private static boolean referencesDuration(DataType t) {
    if (t.kind() == DataType.Kind.DURATION) {
      return true;
    }
    for (DataType inner : t.componentTypes()) {
      if (referencesDuration(inner)) {
        return true;
      }
    }
    return false;
  }

  private static String targetName(IndexDef.Target t) {
    return t == IndexDef.Target.SIMPLE ? "" : t.name().toLowerCase(Locale.ROOT);
  }

  /** True for the scalar types an index accepts: every native value type but duration. */
  static boolean isIndexable(DataType t) {
    return t.isNative() && t.kind() != DataType.Kind.DURATION && t.kind() != DataType.Kind.COUNTER;
  }
}
