package dev.talus.cql;

import dev.talus.DataType;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The CQL type of a result column or a bind marker: a type Talus stores ({@link Native}, any {@link
 * DataType}: native, counter, collection, frozen, tuple, user type or vector), or a list, set or
 * map of such types that only CQL builds (the {@code system_schema} tables' collections, the list
 * of an {@code IN ?} marker). Immutable and thread-safe.
 */
public sealed interface ColumnType
    permits ColumnType.Native, ColumnType.ListOf, ColumnType.SetOf, ColumnType.MapOf {
  /** The type as CQL writes it, e.g. {@code int} or {@code map<text, text>}. */
  String cql();

  /** The Java class of this type's values, e.g. {@code Integer} or {@code Map}. */
  Class<?> javaType();

  /** A type Talus stores. */
  static Native of(DataType type) {
    return new Native(type);
  }

  /**
   * A type Talus stores (the name is historical: composite {@link DataType}s are included).
   *
   * @param type the type
   */
  record Native(DataType type) implements ColumnType {
    public Native {
      Objects.requireNonNull(type, "type");
    }

    @Override
    public String cql() {
      return type.cqlName();
    }

    @Override
    public Class<?> javaType() {
      return type.javaType();
    }
  }

  /**
   * {@code list<element>}, read as a {@link List}.
   *
   * @param element the element type
   */
  record ListOf(ColumnType element) implements ColumnType {
    @Override
    public String cql() {
      return "list<" + element.cql() + ">";
    }

    @Override
    public Class<?> javaType() {
      return List.class;
    }
  }

  /**
   * {@code set<element>}, read as a {@link Set}.
   *
   * @param element the element type
   */
  record SetOf(ColumnType element) implements ColumnType {
    @Override
    public String cql() {
      return "set<" + element.cql() + ">";
    }

    @Override
    public Class<?> javaType() {
      return Set.class;
    }
  }

  /**
   * {@code map<key, value>}, read as a {@link Map}.
   *
   * @param key the key type
   * @param value the value type
   */
  record MapOf(ColumnType key, ColumnType value) implements ColumnType {
    @Override
    public String cql() {
      return "map<" + key.cql() + ", " + value.cql() + ">";
    }

    @Override
    public Class<?> javaType() {
      return Map.class;
    }
  }
}
