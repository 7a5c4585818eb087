package dev.talus.cql.exec.term;

import dev.talus.DataType;
import dev.talus.DurationValue;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.UUID;

/**
 * Values of the native types in Cassandra's binary form (what {@code intAsBlob}, {@code blobAsInt}
 * and friends convert between, and what the native protocol carries): big-endian integers and IEEE
 * floats, two's-complement varints, decimals as a 4-byte scale then the unscaled varint, UUIDs as
 * 16 bytes, timestamps as 8-byte milliseconds, dates as 4-byte unsigned days with 2^31 at
 * 1970-01-01, times as 8-byte nanoseconds, addresses as 4 or 16 bytes, durations as three zig-zag
 * variable-length integers. Static methods, thread-safe.
 */
public final class Bytes {
  private Bytes() {}

  /** Collections, tuples, user types, vectors and counters are refused before values reach here. */
  private static IllegalArgumentException notNative(DataType type) {
    return new IllegalArgumentException(
        "not supported yet by Talus in CQL: values of type " + type);
  }

  /** The binary form of a value of {@code type}. */
  public static byte[] encode(DataType type, Object v) {
    return switch (type.kind()) {
      case TEXT -> ((String) v).getBytes(StandardCharsets.UTF_8);
      case ASCII -> ((String) v).getBytes(StandardCharsets.US_ASCII);
      case BOOLEAN -> new byte[] {(byte) (((Boolean) v) ? 1 : 0)};
      case TINYINT -> new byte[] {(Byte) v};
      case SMALLINT -> ByteBuffer.allocate(2).putShort((Short) v).array();
      case INT -> ByteBuffer.allocate(4).putInt((Integer) v).array();
      case BIGINT -> ByteBuffer.allocate(8).putLong((Long) v).array();
      case VARINT -> ((BigInteger) v).toByteArray();
      case FLOAT -> ByteBuffer.allocate(4).putFloat((Float) v).array();
      case DOUBLE -> ByteBuffer.allocate(8).putDouble((Double) v).array();
      case DECIMAL -> decimal((BigDecimal) v);
      case BLOB -> ((byte[]) v).clone();
      case UUID, TIMEUUID -> uuid((UUID) v);
      case TIMESTAMP -> ByteBuffer.allocate(8).putLong(((Instant) v).toEpochMilli()).array();
      case DATE ->
          ByteBuffer.allocate(4).putInt((int) (((LocalDate) v).toEpochDay() + (1L << 31))).array();
      case TIME -> ByteBuffer.allocate(8).putLong(((LocalTime) v).toNanoOfDay()).array();
      case INET -> ((InetAddress) v).getAddress();
      case DURATION -> duration((DurationValue) v);
      default -> throw notNative(type);
    };
  }

  /**
   * The value of {@code type} whose binary form is {@code b}; null for no bytes (Cassandra's empty
   * value) except for text and blobs; {@link IllegalArgumentException} if the bytes are not one.
   */
  public static Object decode(DataType type, byte[] b) {
    if (b.length == 0 && type != DataType.TEXT && type != DataType.ASCII && type != DataType.BLOB) {
      return null;
    }
    ByteBuffer buf = ByteBuffer.wrap(b);
    return switch (type.kind()) {
      case TEXT -> text(b, false);
      case ASCII -> text(b, true);
      case BOOLEAN -> {
        size(b, 1, "boolean");
        yield b[0] != 0;
      }
      case TINYINT -> {
        size(b, 1, "tinyint");
        yield b[0];
      }
      case SMALLINT -> {
        size(b, 2, "smallint");
        yield buf.getShort();
      }
      case INT -> {
        size(b, 4, "int");
        yield buf.getInt();
      }
      case BIGINT -> {
        size(b, 8, "bigint");
        yield buf.getLong();
      }
      case VARINT -> new BigInteger(b);
      case FLOAT -> {
        size(b, 4, "float");
        yield buf.getFloat();
      }
      case DOUBLE -> {
        size(b, 8, "double");
        yield buf.getDouble();
      }
      case DECIMAL -> {
        if (b.length < 5) {
          throw new IllegalArgumentException("a decimal needs at least 5 bytes, got " + b.length);
        }
        int scale = buf.getInt();
        byte[] unscaled = new byte[b.length - 4];
        buf.get(unscaled);
        yield new BigDecimal(new BigInteger(unscaled), scale);
      }
      case BLOB -> b.clone();
      case UUID -> {
        size(b, 16, "uuid");
        yield new UUID(buf.getLong(), buf.getLong());
      }
      case TIMEUUID -> {
        size(b, 16, "timeuuid");
        yield Values.timeuuid(new UUID(buf.getLong(), buf.getLong()));
      }
      case TIMESTAMP -> {
        size(b, 8, "timestamp");
        yield Instant.ofEpochMilli(buf.getLong());
      }
      case DATE -> {
        size(b, 4, "date");
        yield LocalDate.ofEpochDay(Integer.toUnsignedLong(buf.getInt()) - (1L << 31));
      }
      case TIME -> {
        size(b, 8, "time");
        yield Temporal.timeFromNanos(Long.toString(buf.getLong()));
      }
      case INET -> {
        if (b.length != 4 && b.length != 16) {
          throw new IllegalArgumentException("an inet address is 4 or 16 bytes, got " + b.length);
        }
        try {
          yield InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
          throw new IllegalArgumentException(e.getMessage(), e);
        }
      }
      case DURATION -> {
        long[] pos = {0};
        int months = (int) readVInt(b, pos);
        int days = (int) readVInt(b, pos);
        long nanos = readVInt(b, pos);
        if (pos[0] != b.length) {
          throw new IllegalArgumentException(
              "a duration has " + (b.length - pos[0]) + " bytes too many");
        }
        yield DurationValue.of(months, days, nanos);
      }
      default -> throw notNative(type);
    };
  }

  private static void size(byte[] b, int expected, String type) {
    if (b.length != expected) {
      throw new IllegalArgumentException(
          "Expected " + expected + " or 0 byte " + type + " (" + b.length + ")");
    }
  }

  private static String text(byte[] b, boolean ascii) {
    try {
      return (ascii ? StandardCharsets.US_ASCII : StandardCharsets.UTF_8)
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b))
          .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(
          "the bytes are not valid " + (ascii ? "US-ASCII" : "UTF-8") + " text", e);
    }
  }

  private static byte[] decimal(BigDecimal d) {
    byte[] unscaled = d.unscaledValue().toByteArray();
    return ByteBuffer.allocate(4 + unscaled.length).putInt(d.scale()).put(unscaled).array();
  }

  private static byte[] uuid(UUID u) {
    return ByteBuffer.allocate(16)
        .putLong(u.getMostSignificantBits())
        .putLong(u.getLeastSignificantBits())
        .array();
  }

  private static byte[] duration(DurationValue d) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(8);
    writeVInt(out, d.months());
    writeVInt(out, d.days());
    writeVInt(out, d.nanoseconds());
    return out.toByteArray();
  }

  /** Cassandra's signed variable-length integer: zig-zag, then the unsigned form. */
  static void writeVInt(ByteArrayOutputStream out, long v) {
    long value = (v << 1) ^ (v >> 63);
    int magnitude = Long.numberOfLeadingZeros(value | 1);
    int size = (639 - magnitude * 9) >> 6;
    if (size == 1) {
      out.write((int) value);
      return;
    }
    int extra = size - 1;
    byte[] bytes = new byte[size];
    for (int i = extra; i >= 0; --i) {
      bytes[i] = (byte) value;
      value >>= 8;
    }
    bytes[0] |= (byte) ~(0xFF >> extra);
    out.write(bytes, 0, size);
  }

  static long readVInt(byte[] b, long[] pos) {
    if (pos[0] >= b.length) {
      throw new IllegalArgumentException("a duration is cut short");
    }
    int first = b[(int) pos[0]++];
    long value;
    if (first >= 0) {
      value = first;
    } else {
      int extra = Integer.numberOfLeadingZeros(~first) - 24;
      if (pos[0] + extra > b.length) {
        throw new IllegalArgumentException("a duration is cut short");
      }
      value = first & (0xFF >> extra);
      for (int i = 0; i < extra; i++) {
        value = (value << 8) | (b[(int) pos[0]++] & 0xFF);
      }
    }
    return (value >>> 1) ^ -(value & 1);
  }
}
