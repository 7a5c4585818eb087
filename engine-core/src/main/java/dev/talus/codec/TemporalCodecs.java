package dev.talus.codec;

import dev.talus.DataType;
import dev.talus.DurationValue;
import java.io.ByteArrayOutputStream;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;

/**
 * Codecs of the time types: timestamp, date, time and duration.
 *
 * <p>timestamp: an {@link Instant} of millisecond precision; instants with a sub-millisecond part
 * (refused with the fix, {@code truncatedTo(ChronoUnit.MILLIS)}, where Cassandra's drivers truncate
 * silently), or beyond the range of a long of milliseconds, are rejected. Cell encoding: epoch
 * milliseconds as an 8-byte big-endian long; key encoding: the same with the sign bit flipped.
 * Formatted in ISO-8601 ({@link Instant#toString}).
 *
 * <p>date: a {@link LocalDate}. Cell encoding: the epoch day as a zig-zag LEB128 varint (3 bytes
 * for current dates); key encoding: the epoch day as an 8-byte big-endian long with the sign bit
 * flipped.
 *
 * <p>time: a {@link LocalTime} with nanosecond precision. Cell and key encoding: the nano of day as
 * an 8-byte big-endian long (sign bit flipped in the key, as for bigint).
 *
 * <p>timestamp, date and time sort chronologically.
 *
 * <p>duration: a {@link DurationValue}. Cell encoding: months, days and nanoseconds as three
 * zig-zag LEB128 varints. Durations have no order and no key encoding.
 *
 * <p>All codecs here are immutable and thread-safe.
 */
final class TemporalCodecs {
  static final TypeCodec<Instant> TIMESTAMP = new TimestampCodec();
  static final TypeCodec<LocalDate> DATE = new DateCodec();
  static final TypeCodec<LocalTime> TIME = new TimeCodec();
  static final TypeCodec<DurationValue> DURATION = new DurationCodec();

  private TemporalCodecs() {}

  private static void writeKeyLong(ByteArrayOutputStream out, long v) {
    KeyBytes.writeLong(out, v ^ Long.MIN_VALUE, 8);
  }

  private static long readKeyLong(byte[] src, int[] pos) {
    return KeyBytes.readLong(src, pos, 8) ^ Long.MIN_VALUE;
  }

  private static final class TimestampCodec extends TypeCodec<Instant> {
    TimestampCodec() {
      super(DataType.TIMESTAMP, Instant.class);
    }

    @Override
    Instant coerceNonNull(Object value) {
      Instant instant = cast(value);
      if (instant.getNano() % 1_000_000 != 0) {
        throw invalid(
            value,
            instant
                + " has a sub-millisecond part; timestamp values have millisecond precision, as in"
                + " Cassandra. Truncate it: instant.truncatedTo(ChronoUnit.MILLIS) (Cassandra's"
                + " drivers truncate silently; Talus refuses, so that the value read back is the"
                + " value written and two writes in one millisecond do not silently share a key)");
      }
      try {
        instant.toEpochMilli();
      } catch (ArithmeticException e) {
        throw invalid(value, instant + " is beyond the range of epoch milliseconds");
      }
      return instant;
    }

    @Override
    void serializeValue(Instant value, ByteArrayOutputStream out) {
      KeyBytes.writeLong(out, value.toEpochMilli(), 8);
    }

    @Override
    Instant deserializeValue(byte[] src, int[] pos) {
      return Instant.ofEpochMilli(KeyBytes.readLong(src, pos, 8));
    }

    @Override
    void encodeKeyValue(Instant value, ByteArrayOutputStream out) {
      writeKeyLong(out, value.toEpochMilli());
    }

    @Override
    Instant decodeKeyValue(byte[] src, int[] pos) {
      return Instant.ofEpochMilli(readKeyLong(src, pos));
    }

    @Override
    int compareValues(Instant a, Instant b) {
      return a.compareTo(b);
    }
  }

  private static final class DateCodec extends TypeCodec<LocalDate> {
    DateCodec() {
      super(DataType.DATE, LocalDate.class);
    }

    @Override
    LocalDate coerceNonNull(Object value) {
      return cast(value);
    }

    @Override
    void serializeValue(LocalDate value, ByteArrayOutputStream out) {
      KeyBytes.writeSignedVarint(out, value.toEpochDay());
    }

    @Override
    LocalDate deserializeValue(byte[] src, int[] pos) {
      return ofEpochDay(KeyBytes.readSignedVarint(src, pos));
    }

    @Override
    void encodeKeyValue(LocalDate value, ByteArrayOutputStream out) {
      writeKeyLong(out, value.toEpochDay());
    }

    @Override
    LocalDate decodeKeyValue(byte[] src, int[] pos) {
      return ofEpochDay(readKeyLong(src, pos));
    }

    private static LocalDate ofEpochDay(long epochDay) {
      try {
        return LocalDate.ofEpochDay(epochDay);
      } catch (DateTimeException e) {
        throw new IllegalArgumentException("Invalid epoch day " + epochDay, e);
      }
    }

    @Override
    int compareValues(LocalDate a, LocalDate b) {
      return a.compareTo(b);
    }
  }

  private static final class TimeCodec extends TypeCodec<LocalTime> {
    TimeCodec() {
      super(DataType.TIME, LocalTime.class);
    }

    @Override
    LocalTime coerceNonNull(Object value) {
      return cast(value);
    }

    @Override
    void serializeValue(LocalTime value, ByteArrayOutputStream out) {
      KeyBytes.writeLong(out, value.toNanoOfDay(), 8);
    }

    @Override
    LocalTime deserializeValue(byte[] src, int[] pos) {
      return ofNanoOfDay(KeyBytes.readLong(src, pos, 8));
    }

    @Override
    void encodeKeyValue(LocalTime value, ByteArrayOutputStream out) {
      writeKeyLong(out, value.toNanoOfDay());
    }

    @Override
    LocalTime decodeKeyValue(byte[] src, int[] pos) {
      return ofNanoOfDay(readKeyLong(src, pos));
    }

    private static LocalTime ofNanoOfDay(long nanos) {
      try {
        return LocalTime.ofNanoOfDay(nanos);
      } catch (DateTimeException e) {
        throw new IllegalArgumentException("Invalid nano of day " + nanos, e);
      }
    }

    @Override
    int compareValues(LocalTime a, LocalTime b) {
      return a.compareTo(b);
    }
  }

  private static final class DurationCodec extends TypeCodec<DurationValue> {
    DurationCodec() {
      super(DataType.DURATION, DurationValue.class);
    }

    @Override
    DurationValue coerceNonNull(Object value) {
      return cast(value);
    }

    @Override
    void serializeValue(DurationValue value, ByteArrayOutputStream out) {
      KeyBytes.writeSignedVarint(out, value.months());
      KeyBytes.writeSignedVarint(out, value.days());
      KeyBytes.writeSignedVarint(out, value.nanoseconds());
    }

    @Override
    DurationValue deserializeValue(byte[] src, int[] pos) {
      long months = KeyBytes.readSignedVarint(src, pos);
      long days = KeyBytes.readSignedVarint(src, pos);
      long nanos = KeyBytes.readSignedVarint(src, pos);
      if (months != (int) months || days != (int) days) {
        throw new IllegalArgumentException("Duration months or days beyond an int");
      }
      return DurationValue.of((int) months, (int) days, nanos);
    }

    // The base class rejects duration keys and comparisons before these could be reached.

    @Override
    void encodeKeyValue(DurationValue value, ByteArrayOutputStream out) {
      throw new UnsupportedOperationException("duration has no key encoding");
    }

    @Override
    DurationValue decodeKeyValue(byte[] src, int[] pos) {
      throw new UnsupportedOperationException("duration has no key encoding");
    }

    @Override
    int compareValues(DurationValue a, DurationValue b) {
      throw new UnsupportedOperationException("duration has no order");
    }
  }
}
