package dev.talus;

import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A secondary index of one table: its name (unique within the keyspace, as in Cassandra), the
 * column it indexes, its kind, what part of the column it indexes and its options. Created with
 * {@link Table#createIndex}, stored in the schema file and kept across reopens. Immutable and
 * thread-safe.
 *
 * <p>Talus has one kind, {@link Kind#SAI} (a storage-attached index, Cassandra 5's {@code
 * StorageAttachedIndex}). {@link Table#createIndex} checks which columns, targets and options it
 * accepts; what Cassandra 5.0 accepts and Talus does not yet is refused as "not yet supported by
 * Talus" (see docs/indexes.md).
 *
 * @param name the index name (letters, digits, underscore; at most 48 characters; compared case
 *     sensitively)
 * @param column the indexed column
 * @param kind the index kind
 * @param target what of the column's value is indexed ({@link Target#SIMPLE} for a whole value)
 * @param options the index options (Cassandra's {@code WITH OPTIONS = {...}}), sorted by key; never
 *     null, unmodifiable
 */
public record IndexDef(
    String name, String column, Kind kind, Target target, SortedMap<String, String> options) {
  /** How an index is built and stored. */
  public enum Kind {
    /** A storage-attached index: components written with each SSTable. */
    SAI;

    /** The name CQL's {@code USING} clause and {@code DESCRIBE} give this kind. */
    public String cqlName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * What part of a column's value an index holds, as Cassandra's {@code IndexTarget.Type}: the
   * whole value of a scalar or frozen column, or the values, keys or entries of a collection.
   */
  public enum Target {
    /** The whole value of the column ({@code CREATE INDEX ON t (c)} on a scalar column). */
    SIMPLE,
    /** The elements of a list or set, the values of a map ({@code values(c)}). */
    VALUES,
    /** The keys of a map ({@code keys(c)}). */
    KEYS,
    /** The key-value pairs of a map ({@code entries(c)}). */
    ENTRIES,
    /** The whole value of a frozen collection ({@code full(c)}). */
    FULL;

    /**
     * How CQL writes this target of {@code column}, e.g. {@code keys(m)}; {@code column} alone for
     * {@link #SIMPLE}. {@code column} is given as it must appear in CQL (quoted if needed).
     */
    public String cql(String column) {
      return this == SIMPLE ? column : name().toLowerCase(Locale.ROOT) + "(" + column + ")";
    }
  }

  public IndexDef {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(column, "column");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(options, "options");
    if (!TableSchema.isValidName(name)) {
      throw new InvalidQueryException(
          "Index name '"
              + name
              + "' is invalid: use letters, digits and underscores, at most 48 characters");
    }
    TreeMap<String, String> copy = new TreeMap<>();
    for (Map.Entry<String, String> e : options.entrySet()) {
      copy.put(
          Objects.requireNonNull(e.getKey(), "option name"),
          Objects.requireNonNull(e.getValue(), "option value"));
    }
    options = Collections.unmodifiableSortedMap(copy);
  }

  /** An index of the whole value of {@code column}, without options. */
  public IndexDef(String name, String column, Kind kind) {
    this(name, column, kind, Target.SIMPLE, Collections.emptySortedMap());
  }

  /** A storage-attached index named {@code name} on {@code column}. */
  public static IndexDef sai(String name, String column) {
    return new IndexDef(name, column, Kind.SAI);
  }

  /** This index with {@code target} instead of its target. */
  public IndexDef withTarget(Target target) {
    return new IndexDef(name, column, kind, target, options);
  }

  /** This index with {@code key} set to {@code value} among its options. */
  public IndexDef withOption(String key, String value) {
    TreeMap<String, String> next = new TreeMap<>(options);
    next.put(key, value);
    return new IndexDef(name, column, kind, target, next);
  }

  /** This index with exactly {@code options}. */
  public IndexDef withOptions(Map<String, String> options) {
    return new IndexDef(name, column, kind, target, new TreeMap<>(options));
  }
}
