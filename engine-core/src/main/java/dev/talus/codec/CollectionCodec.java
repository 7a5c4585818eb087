package dev.talus.codec;

import dev.talus.DataType;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * The codec of a whole list, set or map value, frozen or not: what a frozen collection stores as
 * its one cell, and how a caller's collection is checked and made canonical.
 *
 * <p>Canonical values are unmodifiable: a {@link List} in the caller's order; a {@link Set} of
 * distinct elements in their natural order (elements that compare equal, like decimals {@code 1.0}
 * and {@code 1.00}, are one element); a {@link Map} in the natural order of its keys. Null
 * elements, keys and values are refused ("null is not supported inside collections", as in
 * Cassandra). Any {@link Collection} is accepted for a list or set, any {@link Map} for a map.
 *
 * <p>Cell encoding: {@code varint count}, then each element (for a map, each key then its value) as
 * {@code varint length} + the element's cell encoding. Key encoding (frozen collections of key
 * types): each element (map: key, value) as {@code 0x02} + its key encoding, then {@code 0x00};
 * since element encodings are prefix-free this sorts element by element, a shorter collection
 * before its extensions, which is Cassandra's order of frozen collections.
 *
 * <p>Immutable and thread-safe.
 */
final class CollectionCodec extends TypeCodec<Object> {
  static final int VALUE = 0x02;
  static final int END = 0x00;
  static final int NULL = 0x01;

  private final DataType.Kind kind;
  private final TypeCodec<?> elements;
  private final TypeCodec<?> values;

  @SuppressWarnings("unchecked")
  CollectionCodec(DataType type) {
    super(type, (Class<Object>) type.javaType());
    this.kind = type.kind();
    this.elements = nested(type.elementType());
    this.values = kind == DataType.Kind.MAP ? nested(type.valueType()) : null;
  }

  /** The codec of the elements (of the keys, for a map). */
  TypeCodec<?> elementCodec() {
    return elements;
  }

  /** The codec of a map's values, or null. */
  TypeCodec<?> valueCodec() {
    return values;
  }

  private Object element(TypeCodec<?> codec, Object v) {
    if (v == null) {
      throw new IllegalArgumentException(
          "null is not supported inside collections (" + type().cqlName() + ")");
    }
    return codec.coerce(v);
  }

  @Override
  Object coerceNonNull(Object value) {
    switch (kind) {
      case LIST -> {
        if (!(value instanceof Collection<?> c)) {
          throw mismatch(value);
        }
        List<Object> out = new ArrayList<>(c.size());
        for (Object v : c) {
          out.add(element(elements, v));
        }
        return Collections.unmodifiableList(out);
      }
      case SET -> {
        if (!(value instanceof Collection<?> c)) {
          throw mismatch(value);
        }
        TreeMap<Object, Object> sorted = new TreeMap<>(elements.comparator());
        for (Object v : c) {
          Object e = element(elements, v);
          sorted.put(e, e);
        }
        return Collections.unmodifiableSet(new LinkedHashSet<>(sorted.keySet()));
      }
      default -> {
        if (!(value instanceof Map<?, ?> m)) {
          throw mismatch(value);
        }
        TreeMap<Object, Object> sorted = new TreeMap<>(elements.comparator());
        for (Map.Entry<?, ?> e : m.entrySet()) {
          sorted.put(element(elements, e.getKey()), element(values, e.getValue()));
        }
        return Collections.unmodifiableMap(new LinkedHashMap<>(sorted));
      }
    }
  }

  /** The elements (map: alternating keys and values) of a canonical value, in order. */
  private List<Object> flat(Object value) {
    if (value instanceof Map<?, ?> m) {
      List<Object> out = new ArrayList<>(2 * m.size());
      m.forEach(
          (k, v) -> {
            out.add(k);
            out.add(v);
          });
      return out;
    }
    return new ArrayList<>((Collection<?>) value);
  }

  private TypeCodec<?> codecAt(int i) {
    return values != null && (i & 1) == 1 ? values : elements;
  }

  @Override
  void serializeValue(Object value, ByteArrayOutputStream out) {
    List<Object> flat = flat(value);
    KeyBytes.writeUnsignedVarint(out, values != null ? flat.size() / 2 : flat.size());
    for (int i = 0; i < flat.size(); i++) {
      byte[] b = codecAt(i).serialize(flat.get(i));
      KeyBytes.writeUnsignedVarint(out, b.length);
      out.writeBytes(b);
    }
  }

  @Override
  Object deserializeValue(byte[] src, int[] pos) {
    int n = KeyBytes.readLength(src, pos);
    int items = values != null ? 2 * n : n;
    List<Object> flat = new ArrayList<>(Math.min(items, 1024));
    for (int i = 0; i < items; i++) {
      int len = KeyBytes.readLength(src, pos);
      flat.add(codecAt(i).deserialize(KeyBytes.readBytes(src, pos, len)));
    }
    return assemble(flat);
  }

  private Object assemble(List<Object> flat) {
    return switch (kind) {
      case LIST -> Collections.unmodifiableList(flat);
      case SET -> Collections.unmodifiableSet(new LinkedHashSet<>(flat));
      default -> {
        Map<Object, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < flat.size(); i += 2) {
          m.put(flat.get(i), flat.get(i + 1));
        }
        yield Collections.unmodifiableMap(m);
      }
    };
  }

  @Override
  void encodeKeyValue(Object value, ByteArrayOutputStream out) {
    List<Object> flat = flat(value);
    for (int i = 0; i < flat.size(); i++) {
      out.write(VALUE);
      codecAt(i).encodeKey(flat.get(i), out);
    }
    out.write(END);
  }

  @Override
  Object decodeKeyValue(byte[] src, int[] pos) {
    List<Object> flat = new ArrayList<>();
    while (true) {
      int marker = KeyBytes.readByte(src, pos);
      if (marker == END) {
        break;
      }
      if (marker != VALUE) {
        throw new IllegalArgumentException("Bad element marker " + marker + " in a collection key");
      }
      flat.add(codecAt(flat.size()).decodeKey(src, pos));
    }
    if (values != null && (flat.size() & 1) == 1) {
      throw new IllegalArgumentException("A map key without a value");
    }
    return assemble(flat);
  }

  @Override
  int compareValues(Object a, Object b) {
    return Arrays.compareUnsigned(keyBytes(this, a), keyBytes(this, b));
  }

  static byte[] keyBytes(TypeCodec<?> codec, Object value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    codec.encodeKey(value, out);
    return out.toByteArray();
  }

  @Override
  String formatValue(Object value) {
    return literal(value);
  }

  @Override
  public String literal(Object value) {
    List<Object> flat = flat(cast(value));
    StringJoiner j =
        kind == DataType.Kind.LIST
            ? new StringJoiner(", ", "[", "]")
            : new StringJoiner(", ", "{", "}");
    for (int i = 0; i < flat.size(); i++) {
      if (values != null) {
        j.add(elements.literal(flat.get(i)) + ": " + values.literal(flat.get(i + 1)));
        i++;
      } else {
        j.add(elements.literal(flat.get(i)));
      }
    }
    return j.toString();
  }
}
