package dev.talus.server;

import dev.talus.cql.CqlAlreadyExistsException;
import dev.talus.cql.CqlErrorCode;
import dev.talus.cql.CqlUnpreparedException;
import dev.talus.server.wire.ProtocolException;
import dev.talus.server.wire.Responses;
import dev.talus.server.wire.Values;
import dev.talus.server.wire.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Turns a failure into the {@code ERROR} message Cassandra sends for it: the code of its category
 * ({@link CqlErrorCode}) and the extra fields the code carries. Stateless.
 */
final class Errors {
  static final int PROTOCOL_ERROR = 0x000A;
  static final int SERVER_ERROR = 0x0000;
  static final int INVALID = 0x2200;
  static final int OVERLOADED = 0x1001;
  private static final int CONSISTENCY_ONE = 0x0001;

  private Errors() {}

  static ByteBuf encode(ByteBufAllocator alloc, int version, int stream, Throwable t) {
    if (t instanceof ProtocolException) {
      return Responses.finish(
          Responses.error(alloc, version, stream, PROTOCOL_ERROR, t.getMessage()));
    }
    if (t instanceof Values.BadValueException || t instanceof IllegalArgumentException) {
      return Responses.finish(Responses.error(alloc, version, stream, INVALID, t.getMessage()));
    }
    CqlErrorCode code = CqlErrorCode.of(t);
    String message =
        code == CqlErrorCode.SERVER_ERROR
            ? t.getClass().getSimpleName() + ": " + t.getMessage()
            : t.getMessage();
    ByteBuf out = Responses.error(alloc, version, stream, code.code(), message);
    switch (code) {
      case ALREADY_EXISTS -> {
        CqlAlreadyExistsException e = (CqlAlreadyExistsException) t;
        Wire.writeString(out, e.keyspace());
        Wire.writeString(out, e.table());
      }
      case UNPREPARED -> Wire.writeShortBytes(out, ((CqlUnpreparedException) t).id());
      case READ_FAILURE -> {
        out.writeShort(CONSISTENCY_ONE);
        out.writeInt(0); // received
        out.writeInt(1); // block for
        if (version >= 5) {
          // v5: the reason of each failed replica; this one node, reason UNKNOWN
          out.writeInt(1);
          out.writeByte(4);
          out.writeBytes(new byte[] {127, 0, 0, 1});
          out.writeShort(0x0000);
        } else {
          out.writeInt(1); // failures
        }
        out.writeByte(0); // data present
      }
      default -> {}
    }
    return Responses.finish(out);
  }
}
