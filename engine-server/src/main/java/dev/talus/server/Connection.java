package dev.talus.server;

import dev.talus.cql.CqlResult;
import dev.talus.cql.PreparedCql;
import dev.talus.cql.TalusSession;
import dev.talus.server.wire.Compression;
import dev.talus.server.wire.CompressionHandler;
import dev.talus.server.wire.Frame;
import dev.talus.server.wire.FrameDecoder;
import dev.talus.server.wire.Opcodes;
import dev.talus.server.wire.ProtocolException;
import dev.talus.server.wire.QueryOptions;
import dev.talus.server.wire.Responses;
import dev.talus.server.wire.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;

/**
 * One client connection: the handshake ({@code OPTIONS}, {@code STARTUP}, {@code REGISTER}) on the
 * event loop, statements on the server's worker threads, each answered on its stream. Each
 * connection has its own {@link TalusSession}, so {@code USE} is per connection, as in Cassandra.
 * The event loop is the only thread that reads the handshake state.
 */
final class Connection extends ChannelInboundHandlerAdapter {
  private final ServerState server;
  private final TalusSession session;
  private boolean started;
  private Compression compression;

  Connection(ServerState server) {
    this.server = server;
    this.session = TalusSession.on(server.db());
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    Frame f = (Frame) msg;
    ByteBuf decompressed = null;
    try {
      if ((f.flags() & Frame.FLAG_COMPRESSED) != 0) {
        if (compression == null) {
          throw new ProtocolException("the body is compressed but no compression was negotiated");
        }
        decompressed = compression.decompress(ctx.alloc(), f.body(), server.maxFrameBytes());
      }
      handle(ctx, f, decompressed != null ? decompressed : f.body());
    } catch (ProtocolException e) {
      reply(ctx, Errors.encode(ctx.alloc(), f.stream(), e), e.fatal());
    } finally {
      f.body().release();
      if (decompressed != null) {
        decompressed.release();
      }
    }
  }

  private void handle(ChannelHandlerContext ctx, Frame f, ByteBuf in) {
    if ((f.flags() & Frame.FLAG_CUSTOM_PAYLOAD) != 0) {
      skipCustomPayload(in);
    }
    int stream = f.stream();
    switch (f.opcode()) {
      case Opcodes.OPTIONS -> {
        Wire.end(in);
        reply(ctx, Responses.supported(ctx.alloc(), stream, supported()), false);
      }
      case Opcodes.STARTUP -> {
        Compression c = startup(Wire.readStringMap(in));
        Wire.end(in);
        reply(ctx, Responses.empty(ctx.alloc(), stream, Opcodes.READY), false);
        // READY went uncompressed; every frame after it is compressed, both ways
        compression = c;
        ctx.channel().attr(CompressionHandler.KEY).set(c);
      }
      case Opcodes.REGISTER -> {
        requireStarted();
        List<String> events = Wire.readStringList(in);
        Wire.end(in);
        for (String e : events) {
          if (!List.of("TOPOLOGY_CHANGE", "STATUS_CHANGE", "SCHEMA_CHANGE").contains(e)) {
            throw new ProtocolException("Invalid value '" + e + "' for Type");
          }
        }
        if (events.contains("SCHEMA_CHANGE")) {
          server.listenForSchemaChanges(ctx.channel());
        }
        reply(ctx, Responses.empty(ctx.alloc(), stream, Opcodes.READY), false);
      }
      case Opcodes.QUERY -> {
        requireStarted();
        String query = Wire.readLongString(in);
        QueryOptions o = QueryOptions.read(in);
        Wire.end(in);
        submit(ctx, stream, () -> result(ctx, stream, run(session.prepare(query), o), false));
      }
      case Opcodes.PREPARE -> {
        requireStarted();
        String query = Wire.readLongString(in);
        Wire.end(in);
        submit(
            ctx,
            stream,
            () ->
                Responses.prepared(ctx.alloc(), stream, server.prepared().prepare(session, query)));
      }
      case Opcodes.EXECUTE -> {
        requireStarted();
        byte[] id = Wire.readShortBytes(in);
        QueryOptions o = QueryOptions.read(in);
        Wire.end(in);
        submit(
            ctx,
            stream,
            () ->
                result(ctx, stream, run(server.prepared().find(session, id), o), o.skipMetadata()));
      }
      case Opcodes.BATCH -> {
        requireStarted();
        BatchRequest b = BatchRequest.read(in);
        Wire.end(in);
        submit(ctx, stream, () -> result(ctx, stream, b.run(server.prepared(), session), false));
      }
      case Opcodes.AUTH_RESPONSE ->
          throw new ProtocolException("Unexpected AUTH_RESPONSE: no authentication was asked for");
      default ->
          throw new ProtocolException(
              "Unknown or unexpected opcode 0x" + Integer.toHexString(f.opcode()));
    }
  }

  /** Runs {@code p}; a {@code USE} run in another session switches this connection too. */
  private CqlResult run(PreparedCql p, QueryOptions o) {
    CqlResult r = Statements.run(p, o);
    if (r.kind() == CqlResult.Kind.SET_KEYSPACE && !r.keyspace().equals(session.keyspace())) {
      server.prepared().forget(p.keyspace().orElse(null));
      Statements.use(session, r.keyspace().orElseThrow());
    }
    return r;
  }

  private ByteBuf result(ChannelHandlerContext ctx, int stream, CqlResult r, boolean skip) {
    r.schemaChange().ifPresent(server::schemaChanged);
    return Responses.result(ctx.alloc(), stream, r, skip);
  }

  private interface Work {
    ByteBuf run();
  }

  private void submit(ChannelHandlerContext ctx, int stream, Work work) {
    try {
      server
          .workers()
          .execute(
              () -> {
                ByteBuf out;
                try {
                  out = work.run();
                } catch (RuntimeException | Error e) {
                  out = Errors.encode(ctx.alloc(), stream, e);
                }
                ctx.writeAndFlush(out);
              });
    } catch (RejectedExecutionException e) {
      reply(
          ctx,
          Responses.finish(
              Responses.error(ctx.alloc(), stream, 0x1001, "the server is shutting down")),
          false);
    }
  }

  private Compression startup(Map<String, String> options) {
    String version = options.get("CQL_VERSION");
    if (version == null) {
      throw new ProtocolException("CQL_VERSION is mandatory");
    }
    if (!version.startsWith("3.")) {
      throw new ProtocolException("Invalid or unsupported CQL version " + version);
    }
    if (started) {
      throw new ProtocolException("STARTUP was already received on this connection");
    }
    String name = options.get("COMPRESSION");
    Compression c = null;
    if (name != null && !name.isEmpty()) {
      c = Compression.named(name);
      if (c == null) {
        throw new ProtocolException("Unknown compression algorithm: " + name);
      }
    }
    started = true;
    return c;
  }

  private void requireStarted() {
    if (!started) {
      throw new ProtocolException("STARTUP must be sent before any other request but OPTIONS");
    }
  }

  private static Map<String, List<String>> supported() {
    return Map.of(
        "CQL_VERSION", List.of(ServerState.CQL_VERSION),
        "COMPRESSION", Compression.names(),
        "PROTOCOL_VERSIONS", List.of(FrameDecoder.VERSION + "/v" + FrameDecoder.VERSION));
  }

  private static void skipCustomPayload(ByteBuf in) {
    int n = Wire.readShort(in);
    for (int i = 0; i < n; i++) {
      Wire.readString(in);
      Wire.readBytes(in);
    }
  }

  private static void reply(ChannelHandlerContext ctx, ByteBuf out, boolean close) {
    if (close) {
      ctx.writeAndFlush(out).addListener(ChannelFutureListener.CLOSE);
    } else {
      ctx.writeAndFlush(out);
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    Throwable t =
        cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
    if (t instanceof FrameDecoder.FrameException fe) {
      reply(
          ctx,
          Responses.finish(
              Responses.error(ctx.alloc(), fe.stream(), Errors.PROTOCOL_ERROR, fe.getMessage())),
          true);
    } else {
      // an I/O error (the peer reset the connection...) or a bug: this connection ends, the server
      // goes on
      ctx.close();
    }
  }
}
