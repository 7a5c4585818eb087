package dev.talus.server.wire;

import dev.talus.DataType;
import dev.talus.InvalidQueryException;
import dev.talus.TupleValue;
import dev.talus.UdtValue;
import dev.talus.UserType;
import dev.talus.cql.ColumnType;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The native protocol's forms of Cassandra's composite types (sections 6 and 3 of
 * native_protocol_v4.spec, and Cassandra 5.0's {@code VectorType}): list {@code 0x0020}, map {@code
 * 0x0021}, set {@code 0x0022}, user type {@code 0x0030} (keyspace, name, fields), tuple {@code
 * 0x0031}, vector as the custom type {@code org.apache.cassandra.db.marshal.VectorType(<element
 * class>,<n>)}. Values: a collection is {@code [int n]} then its elements (a map's keys and values)
 * as {@code [bytes]}; a tuple or user type is its components as {@code [bytes]} (null allowed), no
 * count; a vector of a fixed-size element type is its elements back to back, of another type each
 * element prefixed by its length as an unsigned vint. Stateless.
 */
final class CompositeValues {
  private static final String MARSHAL = "org.apache.cassandra.db.marshal.";

  private CompositeValues() {}

  static void writeType(ByteBuf out, DataType t, String keyspace) {
    List<DataType> c = t.componentTypes();
    switch (t.kind()) {
      case LIST -> {
        out.writeShort(0x0020);
        type(out, c.get(0), keyspace);
      }
      case MAP -> {
        out.writeShort(0x0021);
        type(out, c.get(0), keyspace);
        type(out, c.get(1), keyspace);
      }
      case SET -> {
        out.writeShort(0x0022);
        type(out, c.get(0), keyspace);
      }
      case UDT -> {
        UserType u = t.userType();
        out.writeShort(0x0030);
        Wire.writeString(out, keyspace);
        Wire.writeString(out, u.name());
        out.writeShort(u.fieldNames().size());
        for (int i = 0; i < u.fieldNames().size(); i++) {
          Wire.writeString(out, u.fieldNames().get(i));
          type(out, u.fieldTypes().get(i), keyspace);
        }
      }
      case TUPLE -> {
        out.writeShort(0x0031);
        out.writeShort(c.size());
        for (DataType e : c) {
          type(out, e, keyspace);
        }
      }
      case VECTOR -> {
        out.writeShort(0x0000);
        Wire.writeString(
            out, MARSHAL + "VectorType(" + marshalName(c.get(0)) + "," + t.dimension() + ")");
      }
      default -> throw new IllegalArgumentException("not a composite type: " + t);
    }
  }

  private static void type(ByteBuf out, DataType t, String keyspace) {
    Values.writeType(out, ColumnType.of(t), keyspace);
  }

  /** Cassandra's marshal class of a native vector element type. */
  private static String marshalName(DataType t) {
    String simple =
        switch (t.kind()) {
          case ASCII -> "AsciiType";
          case BIGINT -> "LongType";
          case BLOB -> "BytesType";
          case BOOLEAN -> "BooleanType";
          case DATE -> "SimpleDateType";
          case DECIMAL -> "DecimalType";
          case DOUBLE -> "DoubleType";
          case DURATION -> "DurationType";
          case FLOAT -> "FloatType";
          case INET -> "InetAddressType";
          case INT -> "Int32Type";
          case SMALLINT -> "ShortType";
          case TEXT -> "UTF8Type";
          case TIME -> "TimeType";
          case TIMESTAMP -> "TimestampType";
          case TIMEUUID -> "TimeUUIDType";
          case TINYINT -> "ByteType";
          case UUID -> "UUIDType";
          case VARINT -> "IntegerType";
          default ->
              throw new IllegalArgumentException(
                  "vectors of " + t.cqlName() + " cannot be described on the wire by Talus yet");
        };
    return MARSHAL + simple;
  }

  /** The size of each value of a fixed-size type, or -1. */
  private static int fixedSize(DataType t) {
    return switch (t.kind()) {
      case BOOLEAN, TINYINT -> 1;
      case SMALLINT -> 2;
      case INT, FLOAT, DATE -> 4;
      case BIGINT, DOUBLE, TIMESTAMP, TIME, COUNTER -> 8;
      case UUID, TIMEUUID -> 16;
      default -> -1;
    };
  }

  static void write(ByteBuf b, DataType t, Object v) {
    List<DataType> c = t.componentTypes();
    switch (t.kind()) {
      case LIST, SET -> {
        Collection<?> all = (Collection<?>) v;
        b.writeInt(all.size());
        for (Object e : all) {
          element(b, c.get(0), e);
        }
      }
      case MAP -> {
        Map<?, ?> m = (Map<?, ?>) v;
        b.writeInt(m.size());
        for (Map.Entry<?, ?> e : m.entrySet()) {
          element(b, c.get(0), e.getKey());
          element(b, c.get(1), e.getValue());
        }
      }
      case TUPLE -> {
        TupleValue tv = (TupleValue) v;
        for (int i = 0; i < c.size(); i++) {
          element(b, c.get(i), i < tv.size() ? tv.get(i) : null);
        }
      }
      case UDT -> {
        UdtValue u = (UdtValue) v;
        for (int i = 0; i < c.size(); i++) {
          element(b, c.get(i), u.get(i));
        }
      }
      case VECTOR -> {
        DataType e = c.get(0);
        List<?> values = v instanceof float[] f ? floats(f) : (List<?>) v;
        int fixed = fixedSize(e);
        for (Object x : values) {
          if (fixed > 0) {
            Values.writeNative(b, e, x);
          } else {
            byte[] bytes = Values.encode(ColumnType.of(e), x);
            VInts.writeUnsigned(b, bytes.length);
            b.writeBytes(bytes);
          }
        }
      }
      default -> throw new IllegalArgumentException("not a composite type: " + t);
    }
  }

  private static List<Float> floats(float[] f) {
    List<Float> out = new ArrayList<>(f.length);
    for (float x : f) {
      out.add(x);
    }
    return out;
  }

  private static void element(ByteBuf b, DataType t, Object e) {
    if (e == null) {
      b.writeInt(-1);
      return;
    }
    int at = b.writerIndex();
    b.writeInt(0);
    if (t.isNative()) {
      Values.writeNative(b, t, e);
    } else {
      write(b, t, e);
    }
    b.setInt(at, b.writerIndex() - at - 4);
  }

  static Object read(ByteBuf b, DataType t, int size) {
    try {
      return readValue(b, t, size);
    } catch (IndexOutOfBoundsException | IllegalArgumentException | InvalidQueryException e) {
      // a truncated vint, a value the engine's value classes refuse (more fields than the type's)
      throw new Values.BadValueException(
          "Invalid value for " + t.cqlName() + ": " + e.getMessage());
    }
  }

  private static Object readValue(ByteBuf b, DataType t, int size) {
    List<DataType> c = t.componentTypes();
    ColumnType ct = ColumnType.of(t);
    switch (t.kind()) {
      case LIST, SET -> {
        int n = count(b, ct);
        List<Object> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          Object e = element(b, c.get(0), ct);
          if (e == null) {
            throw new Values.BadValueException("null is not supported inside collections");
          }
          out.add(e);
        }
        return t.kind() == DataType.Kind.LIST
            ? Collections.unmodifiableList(out)
            : Collections.unmodifiableSet(new LinkedHashSet<>(out));
      }
      case MAP -> {
        int n = count(b, ct);
        Map<Object, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
          Object k = element(b, c.get(0), ct);
          Object v = element(b, c.get(1), ct);
          if (k == null || v == null) {
            throw new Values.BadValueException("null is not supported inside collections");
          }
          out.put(k, v);
        }
        return Collections.unmodifiableMap(out);
      }
      case TUPLE, UDT -> {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < c.size() && b.isReadable(); i++) {
          out.add(element(b, c.get(i), ct));
        }
        if (t.kind() == DataType.Kind.UDT) {
          return UdtValue.ofFields(t.userType(), out);
        }
        while (out.size() < c.size()) {
          out.add(null);
        }
        return TupleValue.of(out);
      }
      case VECTOR -> {
        DataType e = c.get(0);
        int fixed = fixedSize(e);
        List<Object> out = new ArrayList<>(t.dimension());
        for (int i = 0; i < t.dimension(); i++) {
          int n = fixed > 0 ? fixed : (int) VInts.readUnsigned(b);
          Values.need(b, n, ct);
          out.add(readOne(b.readSlice(n), e, n));
        }
        if (e.kind() == DataType.Kind.FLOAT) {
          float[] f = new float[out.size()];
          for (int i = 0; i < f.length; i++) {
            f[i] = (Float) out.get(i);
          }
          return f;
        }
        return List.copyOf(out);
      }
      default ->
          throw new Values.BadValueException(
              "values of type " + t.cqlName().toLowerCase(Locale.ROOT) + " cannot be bound");
    }
  }

  private static int count(ByteBuf b, ColumnType type) {
    Values.need(b, 4, type);
    int n = b.readInt();
    if (n < 0 || n > b.readableBytes() / 4) {
      throw new Values.BadValueException(
          "Invalid value for " + type.cql() + ": " + n + " elements");
    }
    return n;
  }

  private static Object element(ByteBuf b, DataType t, ColumnType outer) {
    Values.need(b, 4, outer);
    int size = b.readInt();
    if (size < 0) {
      return null;
    }
    Values.need(b, size, outer);
    return readOne(b.readSlice(size), t, size);
  }

  private static Object readOne(ByteBuf slice, DataType t, int size) {
    Object v = t.isNative() ? Values.readNative(slice, t, size) : read(slice, t, size);
    if (slice.isReadable()) {
      throw new Values.BadValueException(
          "Invalid value for " + t.cqlName() + ": " + slice.readableBytes() + " extra bytes");
    }
    return v;
  }
}
