package dev.talus.cql.exec.term;

import dev.talus.DataType;
import dev.talus.TupleValue;
import dev.talus.UdtValue;
import dev.talus.UserType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The values of composite types that parsed JSON stands for ({@code INSERT JSON}, {@code
 * fromJson()}), in Cassandra 5.0's mapping (its types' {@code fromJSONObject}): a list, set or
 * vector is a JSON array, a map a JSON object (keys are strings, read as the key type reads a
 * string: {@code "1"} for an {@code int}, {@code "[1, 2]"} for a {@code frozen<list<int>>}), a
 * tuple an array of exactly its arity (null items allowed), a user type an object of its fields
 * (names case-folded unless in escaped double quotes; missing fields null). A JSON string holding
 * JSON stands for what it holds. Null elements, keys and values of collections are refused, as
 * duplicate elements of a set are not. Built values are the Java values Talus stores ({@link List},
 * {@link Set}, {@link Map}, {@code float[]} for {@code vector<float, n>}, {@link TupleValue},
 * {@link UdtValue}). Static methods, thread-safe.
 */
final class JsonComposites {
  private JsonComposites() {}

  /** Whether {@code type} is decoded here rather than as a native value. */
  static boolean handles(DataType type) {
    return switch (type.kind()) {
      case LIST, SET, MAP, VECTOR, TUPLE, UDT -> true;
      default -> false;
    };
  }

  /**
   * The value of composite {@code type} for {@code json} (not null); {@link
   * IllegalArgumentException} with Cassandra's message otherwise.
   */
  static Object toValue(DataType type, Object json) {
    if (json instanceof String s) {
      json = Json.parse(s);
    }
    return switch (type.kind()) {
      case LIST -> Collections.unmodifiableList(elements(type, array(json, "a list"), "list"));
      case SET -> {
        List<Object> all = elements(type, array(json, "a list (representing a set)"), "set");
        yield Collections.unmodifiableSet(new LinkedHashSet<>(all));
      }
      case VECTOR -> vector(type, array(json, "a list"));
      case MAP -> map(type, json);
      case TUPLE -> tuple(type, json);
      case UDT -> udt(type.userType(), json);
      default -> throw new IllegalArgumentException("not a composite type: " + type);
    };
  }

  private static List<?> array(Object json, String expected) {
    if (json instanceof List<?> l) {
      return l;
    }
    throw new IllegalArgumentException(
        "Expected " + expected + ", but got " + Json.kindOf(json) + ": " + json);
  }

  private static List<Object> elements(DataType type, List<?> json, String what) {
    List<Object> out = new ArrayList<>(json.size());
    for (Object e : json) {
      if (e == null) {
        throw new IllegalArgumentException("Invalid null element in " + what);
      }
      out.add(Json.toValue(type.elementType(), e));
    }
    return out;
  }

  private static Object vector(DataType type, List<?> json) {
    if (json.size() != type.dimension()) {
      throw new IllegalArgumentException(
          "List had incorrect size: expected "
              + type.dimension()
              + " but given "
              + json.size()
              + "; "
              + json);
    }
    List<Object> all = elements(type, json, "vector");
    if (!type.elementType().equals(DataType.FLOAT)) {
      return List.copyOf(all);
    }
    float[] f = new float[all.size()];
    for (int i = 0; i < f.length; i++) {
      f[i] = ((Number) all.get(i)).floatValue();
    }
    return f;
  }

  private static Map<Object, Object> map(DataType type, Object json) {
    if (!(json instanceof Map<?, ?> m)) {
      throw new IllegalArgumentException(
          "Expected a map, but got " + Json.kindOf(json) + ": " + json);
    }
    Map<Object, Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : m.entrySet()) {
      if (e.getValue() == null) {
        throw new IllegalArgumentException("Invalid null value in map");
      }
      out.put(
          Json.toValue(type.elementType(), e.getKey()),
          Json.toValue(type.valueType(), e.getValue()));
    }
    return Collections.unmodifiableMap(out);
  }

  private static TupleValue tuple(DataType type, Object json) {
    List<DataType> parts = type.componentTypes();
    List<?> items = array(json, "a list representation of a tuple");
    if (items.size() != parts.size()) {
      throw new IllegalArgumentException(
          "Tuple "
              + (items.size() > parts.size() ? "contains extra" : "is missing")
              + " items (expected "
              + parts.size()
              + "): "
              + json);
    }
    List<Object> out = new ArrayList<>(parts.size());
    for (int i = 0; i < parts.size(); i++) {
      out.add(Json.toValue(parts.get(i), items.get(i)));
    }
    return TupleValue.of(out);
  }

  private static UdtValue udt(UserType type, Object json) {
    if (!(json instanceof Map<?, ?> m)) {
      throw new IllegalArgumentException(
          "Expected a map, but got " + Json.kindOf(json) + ": " + json);
    }
    Map<String, Object> fields = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : m.entrySet()) {
      String key = (String) e.getKey();
      String field = fieldName(key);
      int i = type.fieldIndex(field);
      if (i < 0) {
        throw new IllegalArgumentException(
            "Unknown field '" + field + "' in value of user defined type " + type.name());
      }
      fields.put(field, Json.toValue(type.fieldTypes().get(i), e.getValue()));
    }
    return UdtValue.of(type, fields);
  }

  /**
   * A JSON key as a CQL name: case-folded, unless in escaped double quotes ({@code "\"Name\""}), as
   * Cassandra reads column names and user-type fields in JSON.
   */
  static String fieldName(String key) {
    return key.length() >= 2 && key.startsWith("\"") && key.endsWith("\"")
        ? key.substring(1, key.length() - 1).replace("\"\"", "\"")
        : key.toLowerCase(Locale.ROOT);
  }
}
