package dev.talus;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A value of a {@link DataType#tuple} column: a fixed number of components, any of which may be
 * null. Created by the caller with {@link #of} (components are checked against the column's tuple
 * type when written) and returned by reads with canonical components ({@link DataType}'s Java
 * classes; a blob component is a read-only {@link java.nio.ByteBuffer}).
 *
 * <p>Immutable and thread-safe (as long as the caller does not modify a mutable component it
 * passed, such as a {@code byte[]}).
 */
public final class TupleValue {
  private final List<Object> values;

  private TupleValue(List<Object> values) {
    this.values = Collections.unmodifiableList(values);
  }

  /** A tuple of these components, in order; nulls allowed. */
  public static TupleValue of(Object... components) {
    return new TupleValue(new ArrayList<>(Arrays.asList(components)));
  }

  /** A tuple of these components, in order; nulls allowed. */
  public static TupleValue of(List<?> components) {
    return new TupleValue(new ArrayList<>(components));
  }

  public int size() {
    return values.size();
  }

  /** Component {@code i}, or null. */
  public Object get(int i) {
    return values.get(i);
  }

  /** Component {@code i} cast to {@code type}, or null; a wrong type is an exception. */
  public <T> T get(int i, Class<T> type) {
    Object v = values.get(i);
    if (v != null && !type.isInstance(v)) {
      throw new InvalidQueryException(
          "tuple component "
              + i
              + " holds a "
              + v.getClass().getSimpleName()
              + ", not a "
              + type.getSimpleName());
    }
    return type.cast(v);
  }

  /** The components, unmodifiable, nulls included. */
  public List<Object> values() {
    return values;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof TupleValue t) || t.values.size() != values.size()) {
      return false;
    }
    for (int i = 0; i < values.size(); i++) {
      if (!Objects.deepEquals(values.get(i), t.values.get(i))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = 1;
    for (Object v : values) {
      h = 31 * h + (v instanceof float[] f ? Arrays.hashCode(f) : Objects.hashCode(v));
    }
    return h;
  }

  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    for (Object v : values) {
      parts.add(v instanceof float[] f ? Arrays.toString(f) : String.valueOf(v));
    }
    return "(" + String.join(", ", parts) + ")";
  }
}
