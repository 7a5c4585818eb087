package dev.talus.codec;

import dev.talus.DataType;
import dev.talus.TupleValue;
import dev.talus.UdtValue;
import dev.talus.UserType;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The codec of a tuple or of a whole user-type value (frozen or not): a fixed list of typed
 * components, each possibly null.
 *
 * <p>Coercion: a tuple accepts a {@link TupleValue} or a {@link List} with at most as many
 * components as the type (missing ones are null, as in Cassandra); a user type accepts a {@link
 * UdtValue} of a type with the same name, or a {@link Map} from field names (unknown fields are
 * refused). Components are coerced to their type's canonical values.
 *
 * <p>Cell encoding: each component as {@code varint (length + 1)} and its cell encoding, or {@code
 * varint 0} for null; a user type value that ends early (written before fields were added) has the
 * missing fields null. Key encoding: each component as {@code 0x01} (null) or {@code 0x02} + its
 * key encoding, then {@code 0x00}: component by component, a null before any value.
 *
 * <p>Immutable and thread-safe.
 */
final class TupleCodec extends TypeCodec<Object> {
  private final boolean udt;
  private final UserType userType;
  private final TypeCodec<?>[] components;

  @SuppressWarnings("unchecked")
  TupleCodec(DataType type) {
    super(type, (Class<Object>) type.javaType());
    this.udt = type.kind() == DataType.Kind.UDT;
    this.userType = udt ? type.userType() : null;
    List<DataType> ct = type.componentTypes();
    this.components = new TypeCodec<?>[ct.size()];
    for (int i = 0; i < components.length; i++) {
      components[i] = nested(ct.get(i));
    }
  }

  /** The codec of component (field) {@code i}. */
  TypeCodec<?> component(int i) {
    return components[i];
  }

  int size() {
    return components.length;
  }

  /** The components of a canonical value, in order. */
  List<Object> parts(Object value) {
    if (value instanceof TupleValue t) {
      return t.values();
    }
    UdtValue u = (UdtValue) value;
    List<Object> out = new ArrayList<>(components.length);
    for (int i = 0; i < components.length; i++) {
      out.add(u.get(i));
    }
    return out;
  }

  /** A canonical value from canonical components. */
  Object build(List<Object> parts) {
    return udt ? UdtValue.ofFields(userType, parts) : TupleValue.of(parts);
  }

  @Override
  Object coerceNonNull(Object value) {
    List<?> raw;
    if (udt) {
      Object fields = value;
      if (value instanceof UdtValue u) {
        if (!u.type().name().equals(userType.name())) {
          throw invalid(value, "a value of user type " + u.type().name());
        }
        fields = u.toMap();
      }
      if (fields instanceof Map<?, ?> m) {
        Object[] v = new Object[components.length];
        for (Map.Entry<?, ?> e : m.entrySet()) {
          int i = e.getKey() instanceof String s ? userType.fieldIndex(s) : -1;
          if (i < 0) {
            throw invalid(
                value,
                "unknown field "
                    + e.getKey()
                    + "; the fields of "
                    + userType.name()
                    + " are "
                    + userType.fieldNames());
          }
          v[i] = e.getValue();
        }
        raw = Arrays.asList(v);
      } else {
        throw mismatch(value);
      }
    } else if (value instanceof TupleValue t) {
      raw = t.values();
    } else if (value instanceof List<?> l) {
      raw = l;
    } else {
      throw mismatch(value);
    }
    if (raw.size() > components.length) {
      throw invalid(
          value,
          "too many components: "
              + type().cqlName()
              + " has "
              + components.length
              + ", got "
              + raw.size());
    }
    List<Object> out = new ArrayList<>(components.length);
    for (int i = 0; i < components.length; i++) {
      Object v = i < raw.size() ? raw.get(i) : null;
      out.add(v == null ? null : components[i].coerce(v));
    }
    return build(out);
  }

  @Override
  void serializeValue(Object value, ByteArrayOutputStream out) {
    List<Object> parts = parts(value);
    for (int i = 0; i < components.length; i++) {
      Object v = parts.get(i);
      if (v == null) {
        KeyBytes.writeUnsignedVarint(out, 0);
      } else {
        byte[] b = components[i].serialize(v);
        KeyBytes.writeUnsignedVarint(out, b.length + 1L);
        out.writeBytes(b);
      }
    }
  }

  @Override
  Object deserializeValue(byte[] src, int[] pos) {
    List<Object> parts = new ArrayList<>(components.length);
    for (int i = 0; i < components.length; i++) {
      if (udt && pos[0] == src.length) {
        // stored before ALTER TYPE added the fields from here on: they are null (src is always
        // exactly one value: deserialize(byte[]) is the only caller)
        parts.add(null);
        continue;
      }
      int len = KeyBytes.readLength(src, pos, 1);
      parts.add(len == 0 ? null : components[i].deserialize(KeyBytes.readBytes(src, pos, len - 1)));
    }
    return build(parts);
  }

  @Override
  void encodeKeyValue(Object value, ByteArrayOutputStream out) {
    List<Object> parts = parts(value);
    for (int i = 0; i < components.length; i++) {
      Object v = parts.get(i);
      if (v == null) {
        out.write(CollectionCodec.NULL);
      } else {
        out.write(CollectionCodec.VALUE);
        components[i].encodeKey(v, out);
      }
    }
    out.write(CollectionCodec.END);
  }

  @Override
  Object decodeKeyValue(byte[] src, int[] pos) {
    List<Object> parts = new ArrayList<>(components.length);
    for (int i = 0; i < components.length; i++) {
      int marker = KeyBytes.readByte(src, pos);
      if (marker == CollectionCodec.NULL) {
        parts.add(null);
      } else if (marker == CollectionCodec.VALUE) {
        parts.add(components[i].decodeKey(src, pos));
      } else {
        throw new IllegalArgumentException("Bad component marker " + marker + " in a key");
      }
    }
    if (KeyBytes.readByte(src, pos) != CollectionCodec.END) {
      throw new IllegalArgumentException("Unterminated " + type().cqlName() + " key");
    }
    return build(parts);
  }

  @Override
  int compareValues(Object a, Object b) {
    return Arrays.compareUnsigned(
        CollectionCodec.keyBytes(this, a), CollectionCodec.keyBytes(this, b));
  }

  @Override
  String formatValue(Object value) {
    return literal(value);
  }

  @Override
  public String literal(Object value) {
    List<Object> parts = parts(cast(value));
    StringJoiner j = udt ? new StringJoiner(", ", "{", "}") : new StringJoiner(", ", "(", ")");
    for (int i = 0; i < components.length; i++) {
      Object v = parts.get(i);
      String s = v == null ? "null" : components[i].literal(v);
      j.add(udt ? userType.fieldNames().get(i) + ": " + s : s);
    }
    return j.toString();
  }
}
