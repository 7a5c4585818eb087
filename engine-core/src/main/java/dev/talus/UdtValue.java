package dev.talus;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A value of a user-defined type ({@link UserType}): each field's value or null. Created with
 * {@link #of} or {@link UserType#value} (fields are checked against the column's type when
 * written); reads return canonical field values ({@link DataType}'s Java classes; a blob field is a
 * read-only {@link java.nio.ByteBuffer}). A plain {@code Map<String, ?>} is accepted wherever a
 * UdtValue is.
 *
 * <p>Immutable and thread-safe (as long as the caller does not modify a mutable value it passed).
 */
public final class UdtValue {
  private final UserType type;
  private final Object[] values;

  private UdtValue(UserType type, Object[] values) {
    this.type = type;
    this.values = values;
  }

  /**
   * A value of {@code type} with these fields; fields not given are null.
   *
   * @throws InvalidQueryException if a field is not one of the type's
   */
  public static UdtValue of(UserType type, Map<String, ?> fields) {
    Object[] v = new Object[type.fieldNames().size()];
    for (Map.Entry<String, ?> e : fields.entrySet()) {
      int i = type.fieldIndex(e.getKey());
      if (i < 0) {
        throw new InvalidQueryException(
            "Unknown field "
                + e.getKey()
                + " in user type "
                + type.name()
                + "; its fields are "
                + type.fieldNames());
      }
      v[i] = e.getValue();
    }
    return new UdtValue(type, v);
  }

  /**
   * A value of {@code type} from field values in declaration order (nulls allowed).
   *
   * @throws InvalidQueryException if there are more values than fields
   */
  public static UdtValue ofFields(UserType type, List<?> values) {
    if (values.size() > type.fieldNames().size()) {
      throw new InvalidQueryException(
          "user type "
              + type.name()
              + " has "
              + type.fieldNames().size()
              + " fields, got "
              + values.size()
              + " values");
    }
    Object[] v = new Object[type.fieldNames().size()];
    for (int i = 0; i < values.size(); i++) {
      v[i] = values.get(i);
    }
    return new UdtValue(type, v);
  }

  public UserType type() {
    return type;
  }

  /** Field {@code field}'s value, or null; an unknown field is an {@link InvalidQueryException}. */
  public Object get(String field) {
    type.fieldType(field);
    return values[type.fieldIndex(field)];
  }

  /** Field {@code field} cast to {@code cls}, or null. */
  public <T> T get(String field, Class<T> cls) {
    Object v = get(field);
    if (v != null && !cls.isInstance(v)) {
      throw new InvalidQueryException(
          "field "
              + field
              + " holds a "
              + v.getClass().getSimpleName()
              + ", not a "
              + cls.getSimpleName());
    }
    return cls.cast(v);
  }

  /** Field {@code i} (declaration order), or null. */
  public Object get(int i) {
    return values[i];
  }

  /** Field name → value in declaration order, nulls included; unmodifiable. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < values.length; i++) {
      m.put(type.fieldNames().get(i), values[i]);
    }
    return Collections.unmodifiableMap(m);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof UdtValue u)
        || !u.type.name().equals(type.name())
        || u.values.length != values.length) {
      return false;
    }
    for (int i = 0; i < values.length; i++) {
      if (!Objects.deepEquals(values[i], u.values[i])) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = type.name().hashCode();
    for (Object v : values) {
      h = 31 * h + (v instanceof float[] f ? java.util.Arrays.hashCode(f) : Objects.hashCode(v));
    }
    return h;
  }

  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < values.length; i++) {
      Object v = values[i];
      parts.add(
          type.fieldNames().get(i)
              + ": "
              + (v instanceof float[] f ? java.util.Arrays.toString(f) : String.valueOf(v)));
    }
    return "{" + String.join(", ", parts) + "}";
  }
}
