package dev.talus.server.wire;

import io.netty.buffer.ByteBuf;
import java.util.List;

/**
 * The {@code <query_parameters>} of a {@code QUERY} or {@code EXECUTE}: consistency, bound values
 * (by position, or by name when {@link #names()} is not null), page size, paging state, serial
 * consistency, default timestamp and, in v5, keyspace and {@code now_in_seconds}. Values are raw:
 * null for a null, {@link Wire#UNSET} for unset; they are typed once the statement's markers are
 * known. The flags are a {@code [byte]} in v4 and an {@code [int]} in v5.
 *
 * @param consistency the consistency level (accepted; Talus is one replica)
 * @param values the bound values in their binary form
 * @param names the values' names, or null when bound by position
 * @param skipMetadata true if the client does not want the rows' metadata again
 * @param pageSize rows per page, or a value of 0 or less for all rows
 * @param pagingState where to resume, or null
 * @param serialConsistency the serial consistency (accepted), or -1
 * @param timestamp the default write timestamp in microseconds, or {@link Long#MIN_VALUE}
 * @param keyspace (v5) the keyspace the statement runs in, or null for the connection's
 * @param nowInSeconds (v5) the "now" the client asks the statement to run at, or null
 */
public record QueryOptions(
    int consistency,
    List<byte[]> values,
    List<String> names,
    boolean skipMetadata,
    int pageSize,
    byte[] pagingState,
    int serialConsistency,
    long timestamp,
    String keyspace,
    Integer nowInSeconds) {
  private static final int VALUES = 0x01;
  private static final int SKIP_METADATA = 0x02;
  private static final int PAGE_SIZE = 0x04;
  private static final int PAGING_STATE = 0x08;
  private static final int SERIAL_CONSISTENCY = 0x10;
  private static final int DEFAULT_TIMESTAMP = 0x20;
  private static final int NAMES = 0x40;
  private static final int KEYSPACE = 0x80;
  private static final int NOW_IN_SECONDS = 0x100;
  private static final int KNOWN_V4 = 0x7F;
  private static final int KNOWN_V5 = 0x1FF;

  /** Reads the parameters of protocol {@code version} from {@code in}. */
  public static QueryOptions read(ByteBuf in, int version) {
    int consistency = Wire.readShort(in);
    int flags = version >= 5 ? Wire.readInt(in) : Wire.readByte(in);
    if ((flags & ~(version >= 5 ? KNOWN_V5 : KNOWN_V4)) != 0) {
      throw new ProtocolException("unknown query flags 0x" + Integer.toHexString(flags));
    }
    List<byte[]> values = List.of();
    List<String> names = null;
    if ((flags & VALUES) != 0) {
      int n = Wire.readShort(in);
      byte[][] v = new byte[n][];
      String[] nm = (flags & NAMES) != 0 ? new String[n] : null;
      for (int i = 0; i < n; i++) {
        if (nm != null) {
          nm[i] = Wire.readString(in);
        }
        v[i] = Wire.readValue(in);
      }
      values = java.util.Arrays.asList(v);
      names = nm == null ? null : List.of(nm);
    }
    int pageSize = (flags & PAGE_SIZE) != 0 ? Wire.readInt(in) : -1;
    byte[] paging = (flags & PAGING_STATE) != 0 ? Wire.readBytes(in) : null;
    int serial = (flags & SERIAL_CONSISTENCY) != 0 ? Wire.readShort(in) : -1;
    long timestamp = (flags & DEFAULT_TIMESTAMP) != 0 ? Wire.readLong(in) : Long.MIN_VALUE;
    if (timestamp == Long.MIN_VALUE && (flags & DEFAULT_TIMESTAMP) != 0) {
      throw new ProtocolException("Out of bound timestamp, must be in [-2^63 + 1, 2^63 - 1]");
    }
    String keyspace = (flags & KEYSPACE) != 0 ? Wire.readString(in) : null;
    Integer now = (flags & NOW_IN_SECONDS) != 0 ? Wire.readInt(in) : null;
    return new QueryOptions(
        consistency,
        values,
        names,
        (flags & SKIP_METADATA) != 0,
        pageSize,
        paging,
        serial,
        timestamp,
        keyspace,
        now);
  }

  /** The options of one statement of a {@code BATCH}: its values, the batch's settings. */
  public static QueryOptions ofBatch(
      List<byte[]> values, int consistency, long timestamp, Integer nowInSeconds) {
    return new QueryOptions(
        consistency, values, null, false, -1, null, -1, timestamp, null, nowInSeconds);
  }
}
