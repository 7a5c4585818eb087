package dev.talus;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A user-defined type (Cassandra's {@code CREATE TYPE}): a named list of typed fields. Create it on
 * the database with {@link TalusDb#createType} (it is stored with the schema), then use it in
 * tables as {@link DataType#udt} (non-frozen: one cell per field, fields updated independently) or
 * {@code DataType.frozen(DataType.udt(type))} (one value, usable in keys and collections). Values
 * are {@link UdtValue}s. Collections and user types inside a field are frozen implicitly. A type
 * gains fields with {@link TalusDb#addTypeField}, renames them with {@link
 * TalusDb#renameTypeFields} and goes with {@link TalusDb#dropType} once nothing uses it; each
 * change makes a new {@code UserType}, and instances are compared by value.
 *
 * <p>Built with {@link #builder(String)}; validated at {@code build()}. Immutable and thread-safe.
 */
public final class UserType {
  /** Cassandra stores a field's position in 16 bits. */
  public static final int MAX_FIELDS = Short.MAX_VALUE;

  private final String name;
  private final List<String> fieldNames;
  private final List<DataType> fieldTypes;
  private final Map<String, Integer> index;

  private UserType(String name, List<String> names, List<DataType> types) {
    this.name = name;
    this.fieldNames = List.copyOf(names);
    this.fieldTypes = List.copyOf(types);
    Map<String, Integer> m = new HashMap<>();
    for (int i = 0; i < names.size(); i++) {
      m.put(names.get(i), i);
    }
    this.index = Collections.unmodifiableMap(m);
  }

  /** Starts a user type named {@code name} (letters, digits, underscore; 1–48 characters). */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  public String name() {
    return name;
  }

  /** The field names, in declaration order. */
  public List<String> fieldNames() {
    return fieldNames;
  }

  /** The field types, in declaration order (collections and user types frozen). */
  public List<DataType> fieldTypes() {
    return fieldTypes;
  }

  /** The position of field {@code field}, or -1 if the type has no such field. */
  public int fieldIndex(String field) {
    Integer i = index.get(field);
    return i == null ? -1 : i;
  }

  /** The type of field {@code field}; {@link InvalidQueryException} if there is none. */
  public DataType fieldType(String field) {
    int i = fieldIndex(field);
    if (i < 0) {
      throw new InvalidQueryException(
          "Unknown field " + field + " in user type " + name + "; its fields are " + fieldNames);
    }
    return fieldTypes.get(i);
  }

  /** A value of this type with the given fields (absent fields are null). */
  public UdtValue value(Map<String, ?> fields) {
    return UdtValue.of(this, fields);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof UserType u
        && u.name.equals(name)
        && u.fieldNames.equals(fieldNames)
        && u.fieldTypes.equals(fieldTypes);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, fieldNames, fieldTypes);
  }

  /** The CQL definition, e.g. {@code CREATE TYPE address (street text, zip int)}. */
  @Override
  public String toString() {
    List<String> fields = new ArrayList<>();
    for (int i = 0; i < fieldNames.size(); i++) {
      fields.add(fieldNames.get(i) + " " + fieldTypes.get(i).cqlName());
    }
    return "CREATE TYPE " + name + " (" + String.join(", ", fields) + ")";
  }

  /** Collects a user type. Not thread-safe. */
  public static final class Builder {
    private final String name;
    private final List<String> names = new ArrayList<>();
    private final List<DataType> types = new ArrayList<>();

    private Builder(String name) {
      this.name = name;
    }

    /** Adds a field; a collection or user type is stored frozen. */
    public Builder field(String field, DataType type) {
      names.add(field);
      types.add(Objects.requireNonNull(type, "type"));
      return this;
    }

    public UserType build() {
      if (!TableSchema.isValidName(name)) {
        throw new InvalidSchemaException(
            "invalid type name '" + name + "': use 1 to 48 letters, digits or underscores");
      }
      for (String reserved :
          new String[] {"list", "set", "map", "frozen", "tuple", "vector", "static"}) {
        if (name.equalsIgnoreCase(reserved)) {
          throw new InvalidSchemaException(
              "invalid type name '" + name + "': it is reserved by the type syntax");
        }
      }
      for (DataType t : DataType.values()) {
        if (t.cqlName().equalsIgnoreCase(name)) {
          throw new InvalidSchemaException(
              "invalid type name '" + name + "': it is the name of a native type");
        }
      }
      if (names.isEmpty()) {
        throw new InvalidSchemaException("user type " + name + " needs at least one field");
      }
      if (names.size() > MAX_FIELDS) {
        throw new InvalidSchemaException(
            "user type " + name + " has " + names.size() + " fields; the limit is " + MAX_FIELDS);
      }
      List<DataType> frozen = new ArrayList<>();
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (int i = 0; i < names.size(); i++) {
        String f = names.get(i);
        if (!TableSchema.isValidName(f)) {
          throw new InvalidSchemaException("invalid field name '" + f + "' in user type " + name);
        }
        if (!seen.add(f)) {
          throw new InvalidSchemaException(
              "field " + f + " is declared twice in user type " + name);
        }
        DataType t = types.get(i);
        if (t.kind() == DataType.Kind.COUNTER) {
          throw new InvalidSchemaException(
              "A user type cannot contain counters: field " + f + " of " + name);
        }
        frozen.add(DataType.frozen(t));
      }
      return new UserType(name, names, frozen);
    }
  }
}
