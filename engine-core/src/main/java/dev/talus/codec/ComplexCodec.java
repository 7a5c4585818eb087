package dev.talus.codec;

import dev.talus.DataType;
import dev.talus.UdtValue;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How a non-frozen (multi-cell) collection or user type maps to element cells: the byte-comparable
 * path of each element and the value it stores, and the Java value a set of live cells reads as.
 *
 * <ul>
 *   <li>{@code set<T>}: path = the element's key encoding, value empty;
 *   <li>{@code map<K,V>}: path = the key's key encoding, value = the value's cell encoding;
 *   <li>{@code list<T>}: path = a 16-byte timeuuid key (given by the writer), value = the element;
 *   <li>user type: path = the field number as 2 bytes big-endian, value = the field's encoding.
 * </ul>
 *
 * Immutable and thread-safe.
 */
public final class ComplexCodec {
  private final DataType type;
  private final TypeCodec<?> whole;
  private final TypeCodec<?> keys;
  private final TypeCodec<?> values;
  private final TupleCodec fields;

  private ComplexCodec(DataType type) {
    this.type = type;
    this.whole = TypeCodec.of(type);
    switch (type.kind()) {
      case SET -> {
        keys = TypeCodec.nested(type.elementType());
        values = null;
        fields = null;
      }
      case MAP -> {
        keys = TypeCodec.nested(type.elementType());
        values = TypeCodec.nested(type.valueType());
        fields = null;
      }
      case LIST -> {
        keys = null;
        values = TypeCodec.nested(type.elementType());
        fields = null;
      }
      default -> {
        keys = null;
        values = null;
        fields = (TupleCodec) whole;
      }
    }
  }

  /** The codec of a non-frozen collection or user type. */
  public static ComplexCodec of(DataType type) {
    if (!type.isMultiCell()) {
      throw new IllegalArgumentException(type.cqlName() + " is not a multi-cell type");
    }
    return new ComplexCodec(type);
  }

  public DataType type() {
    return type;
  }

  /** The codec of whole values (what {@code set(column, value)} takes). */
  public TypeCodec<?> whole() {
    return whole;
  }

  /** The codec of a set's elements or a map's keys. */
  public TypeCodec<?> keyCodec() {
    return keys;
  }

  /** The codec of a map's values or a list's elements. */
  public TypeCodec<?> valueCodec() {
    return values;
  }

  /** The codec of user-type field {@code i}. */
  public TypeCodec<?> fieldCodec(int i) {
    return fields.component(i);
  }

  /** The path of a set element or map key (a canonical value of the key codec). */
  public byte[] keyPath(Object canonicalKey) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(16);
    keys.encodeKey(canonicalKey, out);
    return out.toByteArray();
  }

  /** The path of user-type field {@code i}. */
  public static byte[] fieldPath(int i) {
    return new byte[] {(byte) (i >>> 8), (byte) i};
  }

  /** The element a path names: a set element, a map key, a list's timeuuid, a field name. */
  public Object pathValue(byte[] path) {
    return switch (type.kind()) {
      case SET, MAP -> keys.decodeKey(path, new int[] {0});
      case LIST -> UuidCodecs.TIMEUUID.decodeKey(path, new int[] {0});
      default -> type.userType().fieldNames().get(((path[0] & 0xFF) << 8) | (path[1] & 0xFF));
    };
  }

  /** A readable form of a path, for dumps: {@code 'a'}, {@code 3}, a timeuuid, a field name. */
  public String describePath(byte[] path) {
    Object v = pathValue(path);
    return switch (type.kind()) {
      case SET, MAP -> keys.literal(v);
      default -> String.valueOf(v);
    };
  }

  /** The element cell value of a path's element, decoded (null for a set's empty value). */
  public Object cellValue(byte[] path, byte[] value) {
    return switch (type.kind()) {
      case SET -> null;
      case MAP, LIST -> values.deserialize(value);
      default -> {
        int i = ((path[0] & 0xFF) << 8) | (path[1] & 0xFF);
        yield fields.component(i).deserialize(value);
      }
    };
  }

  /** One element of a whole value: its path (null for a list, where the writer picks one). */
  public record Element(byte[] path, byte[] value) {}

  /**
   * The element cells a whole canonical value is written as; a user type's null fields are left out
   * (they are simply absent after the overwrite's complex deletion).
   */
  public List<Element> elements(Object canonical) {
    List<Element> out = new ArrayList<>();
    switch (type.kind()) {
      case SET -> {
        for (Object e : (Set<?>) canonical) {
          out.add(new Element(keyPath(e), new byte[0]));
        }
      }
      case MAP -> {
        for (Map.Entry<?, ?> e : ((Map<?, ?>) canonical).entrySet()) {
          out.add(new Element(keyPath(e.getKey()), values.serialize(e.getValue())));
        }
      }
      case LIST -> {
        for (Object e : (List<?>) canonical) {
          out.add(new Element(null, values.serialize(e)));
        }
      }
      default -> {
        List<Object> parts = fields.parts(canonical);
        for (int i = 0; i < parts.size(); i++) {
          if (parts.get(i) != null) {
            out.add(new Element(fieldPath(i), fields.component(i).serialize(parts.get(i))));
          }
        }
      }
    }
    return out;
  }

  /**
   * The value live element cells read as, given their paths and values in path order: an immutable
   * Set, Map or List in Cassandra's order, a {@link UdtValue} with absent fields null, or null when
   * there are none (an empty non-frozen collection is null, as in Cassandra).
   */
  public Object assemble(List<byte[]> paths, List<byte[]> cellValues) {
    if (paths.isEmpty()) {
      return null;
    }
    switch (type.kind()) {
      case SET -> {
        Set<Object> s = new LinkedHashSet<>();
        for (byte[] p : paths) {
          s.add(pathValue(p));
        }
        return Collections.unmodifiableSet(s);
      }
      case MAP -> {
        Map<Object, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < paths.size(); i++) {
          m.put(pathValue(paths.get(i)), values.deserialize(cellValues.get(i)));
        }
        return Collections.unmodifiableMap(m);
      }
      case LIST -> {
        List<Object> l = new ArrayList<>(paths.size());
        for (byte[] v : cellValues) {
          l.add(values.deserialize(v));
        }
        return Collections.unmodifiableList(l);
      }
      default -> {
        List<Object> parts = new ArrayList<>(Collections.nCopies(fields.size(), null));
        for (int i = 0; i < paths.size(); i++) {
          byte[] p = paths.get(i);
          int f = ((p[0] & 0xFF) << 8) | (p[1] & 0xFF);
          if (f < parts.size()) {
            parts.set(f, fields.component(f).deserialize(cellValues.get(i)));
          }
        }
        return fields.build(parts);
      }
    }
  }
}
