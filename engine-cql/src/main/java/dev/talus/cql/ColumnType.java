package dev.talus.cql;

import dev.talus.DataType;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The CQL type of a result column or a bind marker: a native type ({@link DataType}), or a list,
 * set or map of them (the collections appear in the {@code system_schema} tables today; Talus
 * tables will hold them once the engine stores collections). Immutable and thread-safe.
 */
public sealed interface ColumnType
    permits ColumnType.Native, ColumnType.ListOf, ColumnType.SetOf, ColumnType.MapOf {
  /** The type as CQL writes it, e.g. {@code int} or {@code map<text, text>}. */
  String cql();

  /** The Java class of this type's values, e.g. {@code Integer} or {@code Map}. */
  Class<?> javaType();

  /** A native type. */
  static Native of(DataType type) {
    return new Native(type);
  }

  /**
   * A native type.
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
