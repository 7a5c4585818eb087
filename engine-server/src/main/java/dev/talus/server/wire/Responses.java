package dev.talus.server.wire;

import dev.talus.cql.CqlColumn;
import dev.talus.cql.CqlResult;
import dev.talus.cql.CqlRow;
import dev.talus.cql.PreparedCql;
import dev.talus.cql.SchemaChange;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** Writes the server's messages: whole response frames, header included. Stateless. */
public final class Responses {
  private static final int VOID = 0x0001;
  private static final int ROWS = 0x0002;
  private static final int SET_KEYSPACE = 0x0003;
  private static final int PREPARED = 0x0004;
  private static final int SCHEMA_CHANGE = 0x0005;

  private static final int HAS_MORE_PAGES = 0x0002;
  private static final int NO_METADATA = 0x0004;
  private static final int METADATA_CHANGED = 0x0008;

  private Responses() {}

  /** Starts a response frame: the header with a length to be set by {@link #finish}. */
  public static ByteBuf start(
      ByteBufAllocator alloc, int version, int stream, int opcode, List<String> warnings) {
    ByteBuf out = alloc.buffer();
    out.writeByte(0x80 | version);
    out.writeByte(warnings.isEmpty() ? 0 : Frame.FLAG_WARNING);
    out.writeShort(stream);
    out.writeByte(opcode);
    out.writeInt(0);
    if (!warnings.isEmpty()) {
      Wire.writeStringList(out, warnings);
    }
    return out;
  }

  /** Sets the body length of a frame begun with {@link #start}. */
  public static ByteBuf finish(ByteBuf frame) {
    frame.setInt(5, frame.writerIndex() - Frame.HEADER_SIZE);
    return frame;
  }

  /** A message with an empty body ({@code READY}). */
  public static ByteBuf empty(ByteBufAllocator alloc, int version, int stream, int opcode) {
    return finish(start(alloc, version, stream, opcode, List.of()));
  }

  /** {@code SUPPORTED}. */
  public static ByteBuf supported(
      ByteBufAllocator alloc, int version, int stream, Map<String, List<String>> options) {
    ByteBuf out = start(alloc, version, stream, Opcodes.SUPPORTED, List.of());
    Wire.writeStringMultimap(out, options);
    return finish(out);
  }

  /** An {@code ERROR} with no extra fields. */
  public static ByteBuf error(
      ByteBufAllocator alloc, int version, int stream, int code, String message) {
    ByteBuf out = start(alloc, version, stream, Opcodes.ERROR, List.of());
    out.writeInt(code);
    Wire.writeString(out, truncate(message));
    return out;
  }

  /** A message fits a {@code [string]} (64 KiB of UTF-8). */
  static String truncate(String message) {
    String m = message == null ? "" : message;
    while (m.getBytes(StandardCharsets.UTF_8).length > 0xFFFF) {
      m = m.substring(0, m.length() / 2) + "...";
    }
    return m;
  }

  /**
   * The {@code RESULT} of a statement.
   *
   * @param resultMetadataId in v5, the id of the result's metadata the client holds (from {@code
   *     EXECUTE}); when it is not the id of these rows' columns the answer carries the new id and
   *     the columns. Null otherwise.
   */
  public static ByteBuf result(
      ByteBufAllocator alloc,
      int version,
      int stream,
      CqlResult r,
      boolean skipMetadata,
      byte[] resultMetadataId) {
    ByteBuf out = start(alloc, version, stream, Opcodes.RESULT, r.warnings());
    switch (r.kind()) {
      case VOID -> out.writeInt(VOID);
      case SET_KEYSPACE -> {
        out.writeInt(SET_KEYSPACE);
        Wire.writeString(out, r.keyspace().orElseThrow());
      }
      case SCHEMA_CHANGE -> {
        out.writeInt(SCHEMA_CHANGE);
        schemaChange(out, r.schemaChange().orElseThrow());
      }
      case ROWS -> rows(out, r, skipMetadata, resultMetadataId);
    }
    return finish(out);
  }

  private static void rows(
      ByteBuf out, CqlResult r, boolean skipMetadata, byte[] resultMetadataId) {
    out.writeInt(ROWS);
    List<CqlColumn> columns = r.columns();
    byte[] paging =
        r.pagingState().map(p -> p.toString().getBytes(StandardCharsets.UTF_8)).orElse(null);
    byte[] newId = null;
    if (resultMetadataId != null) {
      byte[] id = MetadataIds.of(columns);
      if (!java.util.Arrays.equals(id, resultMetadataId)) {
        newId = id;
        skipMetadata = false;
      }
    }
    int flags =
        (paging != null ? HAS_MORE_PAGES : 0)
            | (skipMetadata ? NO_METADATA : 0)
            | (newId != null ? METADATA_CHANGED : 0);
    out.writeInt(flags);
    out.writeInt(columns.size());
    if (paging != null) {
      Wire.writeBytes(out, paging);
    }
    if (newId != null) {
      Wire.writeShortBytes(out, newId);
    }
    if (!skipMetadata) {
      columnSpecs(out, columns);
    }
    out.writeInt(r.size());
    for (CqlRow row : r.rows()) {
      for (int i = 0; i < columns.size(); i++) {
        Object v = row.get(i);
        Wire.writeBytes(out, v == null ? null : Values.encode(columns.get(i).type(), v));
      }
    }
  }

  private static void columnSpecs(ByteBuf out, List<CqlColumn> columns) {
    for (CqlColumn c : columns) {
      Wire.writeString(out, c.keyspace());
      Wire.writeString(out, c.table());
      Wire.writeString(out, c.name());
      Values.writeType(out, c.type(), c.keyspace());
    }
  }

  /**
   * The {@code RESULT} of a {@code PREPARE}: the id, in v5 the id of the result's metadata ({@link
   * MetadataIds}), the markers, the result's columns.
   */
  public static ByteBuf prepared(ByteBufAllocator alloc, int version, int stream, PreparedCql p) {
    ByteBuf out = start(alloc, version, stream, Opcodes.RESULT, List.of());
    out.writeInt(PREPARED);
    Wire.writeShortBytes(out, p.id());
    List<CqlColumn> result = p.resultColumns();
    if (version >= 5) {
      Wire.writeShortBytes(out, MetadataIds.of(result));
    }
    out.writeInt(0);
    out.writeInt(p.variables().size());
    out.writeInt(0); // no partition key indexes: a single node needs no token-aware routing
    columnSpecs(out, p.variables());
    out.writeInt(result.isEmpty() ? NO_METADATA : 0);
    out.writeInt(result.size());
    columnSpecs(out, result);
    return finish(out);
  }

  /** A {@code SCHEMA_CHANGE} event, on stream -1. */
  public static ByteBuf schemaChangeEvent(
      ByteBufAllocator alloc, int version, SchemaChange change) {
    ByteBuf out = start(alloc, version, -1, Opcodes.EVENT, List.of());
    Wire.writeString(out, "SCHEMA_CHANGE");
    schemaChange(out, change);
    return finish(out);
  }

  private static void schemaChange(ByteBuf out, SchemaChange c) {
    Wire.writeString(out, c.change().name());
    Wire.writeString(out, c.target().name());
    Wire.writeString(out, c.keyspace());
    if (c.target() != SchemaChange.Target.KEYSPACE) {
      Wire.writeString(out, c.name());
    }
  }
}
