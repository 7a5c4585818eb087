package dev.talus.cql.parse.ast;

import java.util.List;
import java.util.Objects;

/**
 * A type as written in a column, field, cast or type hint: native, collection, frozen, tuple,
 * vector, user-defined or custom. Whether a type is allowed where it is written (a non-frozen
 * collection in a key, a counter in a collection) is decided when the statement is prepared.
 */
public sealed interface CqlType
    permits CqlType.Native,
        CqlType.ListOf,
        CqlType.SetOf,
        CqlType.MapOf,
        CqlType.Frozen,
        CqlType.TupleOf,
        CqlType.VectorOf,
        CqlType.UserDefined,
        CqlType.Custom {

  /**
   * Returns where the type starts.
   *
   * @return the position
   */
  SourcePosition position();

  /**
   * A native type such as {@code int} or {@code timeuuid}.
   *
   * @param type the type
   * @param position where it was written
   */
  record Native(NativeType type, SourcePosition position) implements CqlType {
    public Native {
      Objects.requireNonNull(type, "type");
    }
  }

  /**
   * {@code list<T>}.
   *
   * @param element the element type
   * @param position where it was written
   */
  record ListOf(CqlType element, SourcePosition position) implements CqlType {}

  /**
   * {@code set<T>}.
   *
   * @param element the element type
   * @param position where it was written
   */
  record SetOf(CqlType element, SourcePosition position) implements CqlType {}

  /**
   * {@code map<K, V>}.
   *
   * @param key the key type
   * @param value the value type
   * @param position where it was written
   */
  record MapOf(CqlType key, CqlType value, SourcePosition position) implements CqlType {}

  /**
   * {@code frozen<T>}: the value is one cell, written and read whole.
   *
   * @param inner the frozen type
   * @param position where it was written
   */
  record Frozen(CqlType inner, SourcePosition position) implements CqlType {}

  /**
   * {@code tuple<T1, T2, ...>} (always frozen in CQL).
   *
   * @param elements the component types, at least one
   * @param position where it was written
   */
  record TupleOf(List<CqlType> elements, SourcePosition position) implements CqlType {
    public TupleOf {
      elements = List.copyOf(elements);
    }
  }

  /**
   * {@code vector<T, n>} (Cassandra 5.0): a fixed-length list of {@code n} elements.
   *
   * @param element the element type
   * @param dimension the dimension as written; it may be zero or negative here, which preparing the
   *     statement refuses
   * @param position where it was written
   */
  record VectorOf(CqlType element, int dimension, SourcePosition position) implements CqlType {}

  /**
   * A user-defined type, by name: {@code address} or {@code ks.address}.
   *
   * @param name the type's name
   */
  record UserDefined(QualifiedName name) implements CqlType {
    @Override
    public SourcePosition position() {
      return name.position();
    }
  }

  /**
   * A custom type given by its Java class name as a string literal, e.g. {@code
   * 'org.apache.cassandra.db.marshal.DateType'}. Talus has none; preparing refuses it.
   *
   * @param className the class name
   * @param position where it was written
   */
  record Custom(String className, SourcePosition position) implements CqlType {}
}
