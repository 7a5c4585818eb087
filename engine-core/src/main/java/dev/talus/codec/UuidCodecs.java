package dev.talus.codec;

import dev.talus.DataType;
import java.io.ByteArrayOutputStream;

/**
 * Codecs of uuid and timeuuid.
 *
 * <p>Cell encoding of both: the 16 bytes of the UUID, most significant first.
 *
 * <p>uuid: natural order is unsigned 128-bit comparison (most significant 64 bits unsigned, then
 * the least significant 64 bits unsigned), unlike the signed {@link java.util.UUID#compareTo}. Its
 * key encoding is the cell encoding.
 *
 * <p>timeuuid: only version 1 UUIDs are accepted. Natural order is by the embedded 60-bit
 * timestamp, then by the least significant 64 bits unsigned (clock sequence and node). Key
 * encoding: the timestamp as an 8-byte big-endian number, then the 8 least significant bytes; the
 * UUID is rebuilt from these on decoding, as a version 1 UUID holds nothing else.
 *
 * <p>Coercion accepts {@link java.util.UUID} only; strings are not parsed.
 *
 * <p>All codecs here are immutable and thread-safe.
 */
final class UuidCodecs {
  static final TypeCodec<java.util.UUID> UUID = new UuidCodec();
  static final TypeCodec<java.util.UUID> TIMEUUID = new TimeUuidCodec();

  private static final long MAX_TIMESTAMP = (1L << 60) - 1;

  private UuidCodecs() {}

  private static void write(java.util.UUID value, ByteArrayOutputStream out) {
    KeyBytes.writeLong(out, value.getMostSignificantBits(), 8);
    KeyBytes.writeLong(out, value.getLeastSignificantBits(), 8);
  }

  private static java.util.UUID read(byte[] src, int[] pos) {
    long msb = KeyBytes.readLong(src, pos, 8);
    return new java.util.UUID(msb, KeyBytes.readLong(src, pos, 8));
  }

  private static class UuidCodec extends TypeCodec<java.util.UUID> {
    UuidCodec() {
      this(DataType.UUID);
    }

    UuidCodec(DataType type) {
      super(type, java.util.UUID.class);
    }

    @Override
    java.util.UUID coerceNonNull(Object value) {
      return cast(value);
    }

    @Override
    void serializeValue(java.util.UUID value, ByteArrayOutputStream out) {
      write(value, out);
    }

    @Override
    java.util.UUID deserializeValue(byte[] src, int[] pos) {
      return read(src, pos);
    }

    @Override
    void encodeKeyValue(java.util.UUID value, ByteArrayOutputStream out) {
      write(value, out);
    }

    @Override
    java.util.UUID decodeKeyValue(byte[] src, int[] pos) {
      return read(src, pos);
    }

    @Override
    int compareValues(java.util.UUID a, java.util.UUID b) {
      int c = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
      return c != 0
          ? c
          : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
    }
  }

  private static final class TimeUuidCodec extends UuidCodec {
    TimeUuidCodec() {
      super(DataType.TIMEUUID);
    }

    @Override
    java.util.UUID coerceNonNull(Object value) {
      java.util.UUID uuid = cast(value);
      timestamp(uuid);
      return uuid;
    }

    /** Like {@link java.util.UUID#timestamp} but fails with the codec's exception type. */
    private long timestamp(java.util.UUID uuid) {
      if (uuid.version() != 1) {
        throw invalid(
            uuid,
            uuid
                + " is version "
                + uuid.version()
                + (uuid.version() == 4 ? " (random)" : "")
                + ", not 1 (time-based). Generate timeuuid values with db.timeUuids().next() (or"
                + " TimeUuidGenerator.minFor/maxFor(instant) for range bounds); use the uuid type"
                + " for random UUIDs");
      }
      return uuid.timestamp();
    }

    @Override
    java.util.UUID deserializeValue(byte[] src, int[] pos) {
      java.util.UUID uuid = read(src, pos);
      if (uuid.version() != 1) {
        throw new IllegalArgumentException("Stored timeuuid is not version 1: " + uuid);
      }
      return uuid;
    }

    @Override
    void encodeKeyValue(java.util.UUID value, ByteArrayOutputStream out) {
      KeyBytes.writeLong(out, timestamp(value), 8);
      KeyBytes.writeLong(out, value.getLeastSignificantBits(), 8);
    }

    @Override
    java.util.UUID decodeKeyValue(byte[] src, int[] pos) {
      long timestamp = KeyBytes.readLong(src, pos, 8);
      if (timestamp < 0 || timestamp > MAX_TIMESTAMP) {
        throw new IllegalArgumentException("Timeuuid key timestamp beyond 60 bits: " + timestamp);
      }
      long msb =
          (timestamp << 32)
              | ((timestamp >>> 16) & 0xFFFF_0000L)
              | 0x1000L
              | ((timestamp >>> 48) & 0x0FFFL);
      return new java.util.UUID(msb, KeyBytes.readLong(src, pos, 8));
    }

    @Override
    int compareValues(java.util.UUID a, java.util.UUID b) {
      int c = Long.compare(timestamp(a), timestamp(b));
      return c != 0
          ? c
          : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
    }
  }
}
