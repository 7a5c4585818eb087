package dev.talus.codec;

import dev.talus.DataType;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.StringJoiner;

/**
 * The codec of {@code vector<T, n>} (Cassandra 5.0): exactly {@code n} non-null elements, one
 * value. {@code vector<float, n>} is a {@code float[]} (copied on the way in and out of the
 * caller's hands); other element types are an unmodifiable {@link List}. A {@code float[]}, {@code
 * double[]} or any {@link Collection} of numbers is accepted for a float vector.
 *
 * <p>Cell encoding: a float vector is its {@code n} floats, 4 bytes each, big-endian; any other is
 * each element as {@code varint length} + its cell encoding. Vectors have no key encoding and no
 * order.
 *
 * <p>Immutable and thread-safe.
 */
final class VectorCodec extends TypeCodec<Object> {
  private final int dimension;
  private final boolean floats;
  private final TypeCodec<?> element;

  @SuppressWarnings("unchecked")
  VectorCodec(DataType type) {
    super(type, (Class<Object>) type.javaType());
    this.dimension = type.dimension();
    this.floats = type.elementType().equals(DataType.FLOAT);
    this.element = nested(type.elementType());
  }

  private IllegalArgumentException wrongLength(Object value, int given) {
    return invalid(
        value,
        "Invalid vector literal of type "
            + type().cqlName()
            + "; expected "
            + dimension
            + " elements, but given "
            + given);
  }

  @Override
  Object coerceNonNull(Object value) {
    if (floats) {
      float[] out;
      if (value instanceof float[] f) {
        out = f.clone();
      } else if (value instanceof double[] d) {
        out = new float[d.length];
        for (int i = 0; i < d.length; i++) {
          out[i] = (float) d[i];
        }
      } else if (value instanceof Collection<?> c) {
        out = new float[c.size()];
        int i = 0;
        for (Object o : c) {
          if (!(o instanceof Number n)) {
            throw invalid(value, "element " + i + " is " + (o == null ? "null" : "not a number"));
          }
          out[i++] = n.floatValue();
        }
      } else {
        throw mismatch(value);
      }
      if (out.length != dimension) {
        throw wrongLength(value, out.length);
      }
      return out;
    }
    if (!(value instanceof Collection<?> c)) {
      throw mismatch(value);
    }
    if (c.size() != dimension) {
      throw wrongLength(value, c.size());
    }
    List<Object> out = new ArrayList<>(dimension);
    for (Object o : c) {
      if (o == null) {
        throw invalid(value, "vectors cannot hold null elements");
      }
      out.add(element.coerce(o));
    }
    return Collections.unmodifiableList(out);
  }

  /** Encoding reads the values only: no defensive copy needed for a float vector. */
  @Override
  Object checked(Object canonicalValue) {
    if (floats && canonicalValue instanceof float[] f) {
      if (f.length != dimension) {
        throw wrongLength(canonicalValue, f.length);
      }
      return f;
    }
    return coerce(canonicalValue);
  }

  @Override
  void serializeValue(Object value, ByteArrayOutputStream out) {
    if (floats) {
      for (float f : (float[]) value) {
        KeyBytes.writeLong(out, Float.floatToIntBits(f), 4);
      }
      return;
    }
    for (Object o : (List<?>) value) {
      byte[] b = element.serialize(o);
      KeyBytes.writeUnsignedVarint(out, b.length);
      out.writeBytes(b);
    }
  }

  @Override
  Object deserializeValue(byte[] src, int[] pos) {
    if (floats) {
      float[] f = new float[dimension];
      for (int i = 0; i < dimension; i++) {
        f[i] = Float.intBitsToFloat((int) KeyBytes.readLong(src, pos, 4));
      }
      return f;
    }
    List<Object> out = new ArrayList<>(dimension);
    for (int i = 0; i < dimension; i++) {
      int len = KeyBytes.readLength(src, pos);
      out.add(element.deserialize(KeyBytes.readBytes(src, pos, len)));
    }
    return Collections.unmodifiableList(out);
  }

  @Override
  void encodeKeyValue(Object value, ByteArrayOutputStream out) {
    throw new IllegalArgumentException("vectors cannot be part of a key");
  }

  @Override
  Object decodeKeyValue(byte[] src, int[] pos) {
    throw new IllegalArgumentException("vectors cannot be part of a key");
  }

  @Override
  int compareValues(Object a, Object b) {
    throw new IllegalArgumentException("vectors have no order");
  }

  @Override
  String formatValue(Object value) {
    StringJoiner j = new StringJoiner(", ", "[", "]");
    if (value instanceof float[] f) {
      for (float x : f) {
        j.add(Float.toString(x));
      }
    } else {
      for (Object o : (List<?>) value) {
        j.add(element.literal(o));
      }
    }
    return j.toString();
  }
}
