package dev.talus.server.wire;

import dev.talus.DataType;
import dev.talus.DurationValue;
import dev.talus.cql.ColumnType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * CQL values in the native protocol's binary form (the serialization of each type, section 6 of the
 * v4 specification), and type descriptions ({@code [option]}s). Decoding checks sizes and throws
 * {@link BadValueException}, which the server answers as an invalid request, as Cassandra does.
 * Stateless.
 */
public final class Values {
  private static final long DATE_EPOCH = 1L << 31;

  private Values() {}

  /** A bound value that does not fit its marker's type. */
  public static final class BadValueException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadValueException(String message) {
      super(message);
    }
  }

  /** Writes the {@code [option]} that describes {@code type}. */
  public static void writeType(ByteBuf out, ColumnType type) {
    writeType(out, type, "");
  }

  /**
   * Writes the {@code [option]} that describes {@code type}; a user type is named in {@code
   * keyspace} (the keyspace of the column's table).
   */
  public static void writeType(ByteBuf out, ColumnType type, String keyspace) {
    if (type instanceof ColumnType.Native n && !n.type().isNative()) {
      CompositeValues.writeType(out, n.type(), keyspace);
    } else if (type instanceof ColumnType.Native n) {
      out.writeShort(typeId(n.type()));
    } else if (type instanceof ColumnType.ListOf l) {
      out.writeShort(0x0020);
      writeType(out, l.element(), keyspace);
    } else if (type instanceof ColumnType.SetOf s) {
      out.writeShort(0x0022);
      writeType(out, s.element(), keyspace);
    } else {
      ColumnType.MapOf m = (ColumnType.MapOf) type;
      out.writeShort(0x0021);
      writeType(out, m.key(), keyspace);
      writeType(out, m.value(), keyspace);
    }
  }

  static int typeId(DataType t) {
    return switch (t.kind()) {
      case COUNTER -> 0x0005;
      case ASCII -> 0x0001;
      case BIGINT -> 0x0002;
      case BLOB -> 0x0003;
      case BOOLEAN -> 0x0004;
      case DECIMAL -> 0x0006;
      case DOUBLE -> 0x0007;
      case FLOAT -> 0x0008;
      case INT -> 0x0009;
      case TIMESTAMP -> 0x000B;
      case UUID -> 0x000C;
      case TEXT -> 0x000D;
      case VARINT -> 0x000E;
      case TIMEUUID -> 0x000F;
      case INET -> 0x0010;
      case DATE -> 0x0011;
      case TIME -> 0x0012;
      case SMALLINT -> 0x0013;
      case TINYINT -> 0x0014;
      case DURATION -> 0x0015;
      default -> throw notNative(t);
    };
  }

  /** A composite type met where a native one was expected (a bug: the callers dispatch first). */
  private static IllegalArgumentException notNative(DataType t) {
    return new IllegalArgumentException("not a native type: " + t);
  }

  /** The binary form of {@code value} (not null) as a value of {@code type}. */
  public static byte[] encode(ColumnType type, Object value) {
    ByteBuf b = Unpooled.buffer();
    write(b, type, value);
    byte[] out = new byte[b.readableBytes()];
    b.readBytes(out);
    return out;
  }

  private static void write(ByteBuf b, ColumnType type, Object v) {
    if (type instanceof ColumnType.Native n && !n.type().isNative()) {
      CompositeValues.write(b, n.type(), v);
    } else if (type instanceof ColumnType.Native n) {
      writeNative(b, n.type(), v);
    } else if (type instanceof ColumnType.ListOf l) {
      writeElements(b, l.element(), (Collection<?>) v);
    } else if (type instanceof ColumnType.SetOf s) {
      writeElements(b, s.element(), (Collection<?>) v);
    } else {
      ColumnType.MapOf m = (ColumnType.MapOf) type;
      Map<?, ?> map = (Map<?, ?>) v;
      b.writeInt(map.size());
      for (Map.Entry<?, ?> e : map.entrySet()) {
        writeElement(b, m.key(), e.getKey());
        writeElement(b, m.value(), e.getValue());
      }
    }
  }

  private static void writeElements(ByteBuf b, ColumnType element, Collection<?> c) {
    b.writeInt(c.size());
    for (Object e : c) {
      writeElement(b, element, e);
    }
  }

  private static void writeElement(ByteBuf b, ColumnType type, Object e) {
    if (e == null) {
      b.writeInt(-1);
      return;
    }
    int at = b.writerIndex();
    b.writeInt(0);
    write(b, type, e);
    b.setInt(at, b.writerIndex() - at - 4);
  }

  static void writeNative(ByteBuf b, DataType t, Object v) {
    switch (t.kind()) {
      case COUNTER -> b.writeLong(((Number) v).longValue());
      case TEXT, ASCII -> b.writeBytes(((String) v).getBytes(StandardCharsets.UTF_8));
      case BOOLEAN -> b.writeByte((Boolean) v ? 1 : 0);
      case TINYINT -> b.writeByte(((Number) v).byteValue());
      case SMALLINT -> b.writeShort(((Number) v).shortValue());
      case INT -> b.writeInt(((Number) v).intValue());
      case BIGINT -> b.writeLong(((Number) v).longValue());
      case VARINT -> b.writeBytes(((BigInteger) v).toByteArray());
      case FLOAT -> b.writeFloat((Float) v);
      case DOUBLE -> b.writeDouble((Double) v);
      case DECIMAL -> {
        BigDecimal d = (BigDecimal) v;
        b.writeInt(d.scale());
        b.writeBytes(d.unscaledValue().toByteArray());
      }
      case BLOB -> {
        if (v instanceof java.nio.ByteBuffer bb) {
          b.writeBytes(bb.duplicate());
        } else {
          b.writeBytes((byte[]) v);
        }
      }
      case UUID, TIMEUUID -> {
        UUID u = (UUID) v;
        b.writeLong(u.getMostSignificantBits());
        b.writeLong(u.getLeastSignificantBits());
      }
      case TIMESTAMP -> b.writeLong(((Instant) v).toEpochMilli());
      case DATE -> b.writeInt((int) (((LocalDate) v).toEpochDay() + DATE_EPOCH));
      case TIME -> b.writeLong(((LocalTime) v).toNanoOfDay());
      case INET -> b.writeBytes(((InetAddress) v).getAddress());
      case DURATION -> {
        DurationValue d = (DurationValue) v;
        VInts.writeSigned(b, d.months());
        VInts.writeSigned(b, d.days());
        VInts.writeSigned(b, d.nanoseconds());
      }
      default -> throw notNative(t);
    }
  }

  /** The Java value of {@code bytes} as a value of {@code type}. */
  public static Object decode(ColumnType type, byte[] bytes) {
    ByteBuf b = Unpooled.wrappedBuffer(bytes);
    Object v = read(b, type, bytes.length);
    if (b.isReadable()) {
      throw new BadValueException(
          "Invalid value for " + type.cql() + ": " + b.readableBytes() + " extra bytes");
    }
    return v;
  }

  private static Object read(ByteBuf b, ColumnType type, int size) {
    if (type instanceof ColumnType.Native n && !n.type().isNative()) {
      return CompositeValues.read(b, n.type(), size);
    } else if (type instanceof ColumnType.Native n) {
      return readNative(b, n.type(), size);
    } else if (type instanceof ColumnType.ListOf l) {
      return List.copyOf(readElements(b, l.element(), new ArrayList<>()));
    } else if (type instanceof ColumnType.SetOf s) {
      return readElements(b, s.element(), new LinkedHashSet<>());
    }
    ColumnType.MapOf m = (ColumnType.MapOf) type;
    int n = count(b, type);
    Map<Object, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      Object k = readElement(b, m.key());
      map.put(k, readElement(b, m.value()));
    }
    return map;
  }

  private static int count(ByteBuf b, ColumnType type) {
    need(b, 4, type);
    int n = b.readInt();
    if (n < 0 || n > b.readableBytes() / 4) {
      throw new BadValueException("Invalid value for " + type.cql() + ": " + n + " elements");
    }
    return n;
  }

  private static <C extends Collection<Object>> C readElements(ByteBuf b, ColumnType e, C out) {
    int n = count(b, e);
    for (int i = 0; i < n; i++) {
      out.add(readElement(b, e));
    }
    return out;
  }

  private static Object readElement(ByteBuf b, ColumnType type) {
    need(b, 4, type);
    int size = b.readInt();
    if (size < 0) {
      throw new BadValueException("null is not allowed inside a " + type.cql() + " collection");
    }
    need(b, size, type);
    return read(b.readSlice(size), type, size);
  }

  static void need(ByteBuf b, int n, ColumnType type) {
    if (b.readableBytes() < n) {
      throw new BadValueException("Invalid value for " + type.cql() + ": too few bytes");
    }
  }

  private static void size(DataType t, int size, int expected) {
    if (size != expected) {
      throw new BadValueException(
          "Expected " + expected + " byte " + t.cqlName() + " value, got " + size + " bytes");
    }
  }

  static Object readNative(ByteBuf b, DataType t, int size) {
    byte[] all;
    switch (t.kind()) {
      case COUNTER:
        size(t, size, 8);
        return b.readLong();
      case TEXT, ASCII:
        all = new byte[size];
        b.readBytes(all);
        return utf8(t, all);
      case BOOLEAN:
        size(t, size, 1);
        return b.readByte() != 0;
      case TINYINT:
        size(t, size, 1);
        return b.readByte();
      case SMALLINT:
        size(t, size, 2);
        return b.readShort();
      case INT:
        size(t, size, 4);
        return b.readInt();
      case BIGINT:
        size(t, size, 8);
        return b.readLong();
      case TIMESTAMP:
        size(t, size, 8);
        return Instant.ofEpochMilli(b.readLong());
      case TIME:
        size(t, size, 8);
        long nanos = b.readLong();
        if (nanos < 0 || nanos >= 86_400_000_000_000L) {
          throw new BadValueException("Invalid time value: " + nanos + " ns since midnight");
        }
        return LocalTime.ofNanoOfDay(nanos);
      case DATE:
        size(t, size, 4);
        return LocalDate.ofEpochDay(b.readUnsignedInt() - DATE_EPOCH);
      case FLOAT:
        size(t, size, 4);
        return b.readFloat();
      case DOUBLE:
        size(t, size, 8);
        return b.readDouble();
      case UUID, TIMEUUID:
        size(t, size, 16);
        return new UUID(b.readLong(), b.readLong());
      case VARINT:
        if (size == 0) {
          throw new BadValueException("Invalid varint: no bytes");
        }
        all = new byte[size];
        b.readBytes(all);
        return new BigInteger(all);
      case DECIMAL:
        if (size < 5) {
          throw new BadValueException("Invalid decimal: " + size + " bytes");
        }
        int scale = b.readInt();
        all = new byte[size - 4];
        b.readBytes(all);
        return new BigDecimal(new BigInteger(all), scale);
      case BLOB:
        all = new byte[size];
        b.readBytes(all);
        return all;
      case INET:
        if (size != 4 && size != 16) {
          throw new BadValueException("Invalid inet: " + size + " bytes");
        }
        all = new byte[size];
        b.readBytes(all);
        try {
          return InetAddress.getByAddress(all);
        } catch (UnknownHostException e) {
          throw new BadValueException("Invalid inet: " + e.getMessage());
        }
      case DURATION:
        try {
          int months = (int) VInts.readSigned(b);
          int days = (int) VInts.readSigned(b);
          return DurationValue.of(months, days, VInts.readSigned(b));
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
          throw new BadValueException("Invalid duration: " + e.getMessage());
        }
      default:
        throw notNative(t);
    }
  }

  private static String utf8(DataType t, byte[] bytes) {
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(java.nio.ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new BadValueException("Invalid UTF-8 bytes for a " + t.cqlName() + " value");
    }
  }
}
