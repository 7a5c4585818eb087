package dev.talus.server;

import dev.talus.server.wire.Opcodes;
import dev.talus.server.wire.Responses;
import dev.talus.server.wire.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.List;
import java.util.Locale;

/**
 * What a statement in flight longer than {@link ServerOptions#requestTimeout()} is answered —
 * instead of running, if it still waited for a worker; instead of its result, if it runs:
 * Cassandra's {@code Read_timeout} for a {@code SELECT}, its {@code Write_timeout} (with the write
 * type a Cassandra coordinator reports) for anything else. The fields say no replica answered (0
 * received, 1 blocked for), which is the truth: the statement did not run or has not finished.
 * Immutable.
 *
 * @param read true for a {@code SELECT}
 * @param writeType for a write: {@code SIMPLE}, {@code BATCH}, {@code UNLOGGED_BATCH} or {@code
 *     COUNTER}
 * @param consistency the consistency level the request asked for
 */
record Deadline(boolean read, String writeType, int consistency) {
  static final int WRITE_TIMEOUT = 0x1100;
  static final int READ_TIMEOUT = 0x1200;

  /** The deadline of the statement {@code query}. */
  static Deadline of(String query, int consistency) {
    String q = query.stripLeading().toUpperCase(Locale.ROOT);
    boolean read = q.startsWith("SELECT");
    return new Deadline(read, read ? null : "SIMPLE", consistency);
  }

  /** The deadline of a {@code BATCH} of {@code type} (0 logged, 1 unlogged, 2 counter). */
  static Deadline batch(int type, int consistency) {
    String writeType =
        switch (type) {
          case 1 -> "UNLOGGED_BATCH";
          case 2 -> "COUNTER";
          default -> "BATCH";
        };
    return new Deadline(false, writeType, consistency);
  }

  /**
   * The timeout error, for a request in flight for {@code waitedMillis}: one that waited for a
   * worker and did not run, or ({@code running}) one whose statement runs longer than the timeout.
   */
  ByteBuf error(
      ByteBufAllocator alloc,
      int version,
      int stream,
      long waitedMillis,
      long timeoutMillis,
      boolean running) {
    String message =
        running
            ? "Operation timed out - received only 0 responses. (the statement has run for "
                + waitedMillis
                + " ms, over the server's request timeout of "
                + timeoutMillis
                + " ms; it is not stopped, so "
                + (read ? "it runs to its end, unanswered)" : "its write may still be applied)")
            : "Operation timed out - received only 0 responses. (the request waited "
                + waitedMillis
                + " ms for a worker thread, over the server's request timeout of "
                + timeoutMillis
                + " ms, and did not run)";
    ByteBuf out = Responses.start(alloc, version, stream, Opcodes.ERROR, List.of());
    out.writeInt(read ? READ_TIMEOUT : WRITE_TIMEOUT);
    Wire.writeString(out, message);
    out.writeShort(consistency);
    out.writeInt(0); // received
    out.writeInt(1); // block for
    if (read) {
      out.writeByte(0); // data present
    } else {
      Wire.writeString(out, writeType);
    }
    return Responses.finish(out);
  }
}
