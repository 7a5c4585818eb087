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
import dev.talus.server.wire.Segments;
import dev.talus.server.wire.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.util.AttributeKey;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * One client connection: the handshake ({@code OPTIONS}, {@code STARTUP}, {@code REGISTER}) on the
 * event loop, statements on the server's worker threads, each answered on its stream. Each
 * connection has its own {@link TalusSession}, so {@code USE} is per connection, as in Cassandra.
 * The event loop is the only thread that reads the handshake state.
 */
final class Connection extends ChannelInboundHandlerAdapter {
  private final ServerState server;
  private final TalusSession session;

  /** The protocol version of the connection's frames (an attribute, for the events sent to it). */
  static final AttributeKey<Integer> VERSION = AttributeKey.valueOf("talus.version");

  private final AtomicInteger inFlight = new AtomicInteger();
  private boolean started;
  private boolean authenticated;
  private int version; // fixed by STARTUP; before it, each frame is answered in its own version
  private Compression compression;

  Connection(ServerState server) {
    this.server = server;
    this.session = TalusSession.on(server.db());
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    Frame f = (Frame) msg;
    ByteBuf decompressed = null;
    int v = started ? version : f.version();
    try {
      if (f.version() != v) {
        throw new ProtocolException(
            "Invalid message version. Got "
                + f.version()
                + "/v"
                + f.version()
                + " but previous messages on this connection had version "
                + version
                + "/v"
                + version,
            true);
      }
      // v5 compresses whole segments, never a frame body: the flag of a v5 frame means nothing
      // (the Java driver sets it on every frame of a compressed connection)
      if ((f.flags() & Frame.FLAG_COMPRESSED) != 0 && v < 5) {
        if (compression == null) {
          throw new ProtocolException("the body is compressed but no compression was negotiated");
        }
        decompressed = compression.decompress(ctx.alloc(), f.body(), server.maxFrameBytes());
      }
      handle(ctx, f, v, decompressed != null ? decompressed : f.body());
    } catch (ProtocolException e) {
      reply(ctx, Errors.encode(ctx.alloc(), v, f.stream(), e), e.fatal());
    } finally {
      f.body().release();
      if (decompressed != null) {
        decompressed.release();
      }
    }
  }

  private void handle(ChannelHandlerContext ctx, Frame f, int v, ByteBuf in) {
    if ((f.flags() & Frame.FLAG_CUSTOM_PAYLOAD) != 0) {
      skipCustomPayload(in);
    }
    int stream = f.stream();
    switch (f.opcode()) {
      case Opcodes.OPTIONS -> {
        Wire.end(in);
        reply(ctx, Responses.supported(ctx.alloc(), v, stream, supported()), false);
      }
      case Opcodes.STARTUP -> {
        Compression c = startup(Wire.readStringMap(in), v);
        Wire.end(in);
        version = v;
        ctx.channel().attr(VERSION).set(v);
        if (server.authenticator() == null) {
          authenticated = true;
          reply(ctx, Responses.empty(ctx.alloc(), v, stream, Opcodes.READY), false);
        } else {
          ByteBuf out = Responses.start(ctx.alloc(), v, stream, Opcodes.AUTHENTICATE, List.of());
          Wire.writeString(out, Authenticator.CLASS_NAME);
          reply(ctx, Responses.finish(out), false);
        }
        // READY (or AUTHENTICATE) went as a bare, uncompressed frame. After it, v4 compresses
        // every frame body; v5 wraps every frame in segments, compressed or not, both ways.
        if (v >= 5) {
          ctx.pipeline().get(FrameDecoder.class).useSegments(v, c == Compression.LZ4);
          ctx.channel()
              .attr(CompressionHandler.SEGMENTS)
              .set(new Segments(c == Compression.LZ4, server.maxFrameBytes()));
        } else {
          compression = c;
          ctx.channel().attr(CompressionHandler.KEY).set(c);
        }
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
        reply(ctx, Responses.empty(ctx.alloc(), v, stream, Opcodes.READY), false);
      }
      case Opcodes.QUERY -> {
        requireStarted();
        String query = Wire.readLongString(in);
        QueryOptions o = QueryOptions.read(in, v);
        Wire.end(in);
        submit(
            ctx,
            v,
            stream,
            () -> Deadline.of(query, o.consistency()),
            () -> result(ctx, v, stream, run(in(o.keyspace()).prepare(query), o), false, null));
      }
      case Opcodes.PREPARE -> {
        requireStarted();
        String query = Wire.readLongString(in);
        String keyspace = v >= 5 ? prepareKeyspace(in) : null;
        Wire.end(in);
        submit(
            ctx,
            v,
            stream,
            null,
            () ->
                Responses.prepared(
                    ctx.alloc(), v, stream, server.prepared().prepare(in(keyspace), query)));
      }
      case Opcodes.EXECUTE -> {
        requireStarted();
        byte[] id = Wire.readShortBytes(in);
        byte[] resultMetadataId = v >= 5 ? Wire.readShortBytes(in) : null;
        QueryOptions o = QueryOptions.read(in, v);
        Wire.end(in);
        submit(
            ctx,
            v,
            stream,
            () -> Deadline.of(server.prepared().entry(id).query(), o.consistency()),
            () ->
                result(
                    ctx,
                    v,
                    stream,
                    run(server.prepared().find(session, id), o),
                    o.skipMetadata(),
                    resultMetadataId));
      }
      case Opcodes.BATCH -> {
        requireStarted();
        BatchRequest b = BatchRequest.read(in, v);
        Wire.end(in);
        submit(
            ctx,
            v,
            stream,
            b::deadline,
            () -> result(ctx, v, stream, b.run(server.prepared(), in(b.keyspace())), false, null));
      }
      case Opcodes.AUTH_RESPONSE -> {
        if (!started || authenticated) {
          throw new ProtocolException(
              "Unexpected AUTH_RESPONSE: no authentication was asked for on this connection");
        }
        byte[] token = Wire.readBytes(in);
        Wire.end(in);
        try {
          server.authenticator().authenticate(token);
        } catch (Authenticator.BadCredentialsException e) {
          reply(
              ctx,
              Responses.finish(
                  Responses.error(
                      ctx.alloc(),
                      v,
                      stream,
                      Authenticator.BadCredentialsException.CODE,
                      e.getMessage())),
              false);
          return;
        }
        authenticated = true;
        ByteBuf out = Responses.start(ctx.alloc(), v, stream, Opcodes.AUTH_SUCCESS, List.of());
        Wire.writeBytes(out, null);
        reply(ctx, Responses.finish(out), false);
      }
      default ->
          throw new ProtocolException(
              "Unknown or unexpected opcode 0x" + Integer.toHexString(f.opcode()));
    }
  }

  /** Runs {@code p}; a {@code USE} run in another session switches this connection too. */
  private CqlResult run(PreparedCql p, QueryOptions o) {
    CqlResult r = Statements.run(server.db(), p, o);
    if (r.kind() == CqlResult.Kind.SET_KEYSPACE && !r.keyspace().equals(session.keyspace())) {
      server.prepared().forget(p.keyspace().orElse(null));
      Statements.use(session, r.keyspace().orElseThrow());
    }
    return r;
  }

  private ByteBuf result(
      ChannelHandlerContext ctx,
      int v,
      int stream,
      CqlResult r,
      boolean skip,
      byte[] resultMetadataId) {
    r.schemaChange().ifPresent(server::schemaChanged);
    return Responses.result(ctx.alloc(), v, stream, r, skip, resultMetadataId);
  }

  /** The session a statement runs in: the connection's, or one in the keyspace it names (v5). */
  private TalusSession in(String keyspace) {
    return keyspace == null ? session : server.prepared().sessionFor(session, keyspace);
  }

  /** The {@code <flags>[<keyspace>]} that follow the query of a v5 {@code PREPARE}. */
  private static String prepareKeyspace(ByteBuf in) {
    int flags = Wire.readInt(in);
    if ((flags & ~0x01) != 0) {
      throw new ProtocolException("unknown PREPARE flags 0x" + Integer.toHexString(flags));
    }
    return (flags & 0x01) != 0 ? Wire.readString(in) : null;
  }

  private interface Work {
    ByteBuf run();
  }

  /**
   * Runs {@code work} on a worker and writes its answer, if the connection and the server have room
   * for one more request in flight ({@code Overloaded} otherwise). A request with a deadline (none
   * for a null one) that is in flight longer than the request timeout gets the deadline's timeout
   * error instead (see {@link InFlight}): without running, if it still waited for a worker.
   */
  private void submit(
      ChannelHandlerContext ctx, int v, int stream, Supplier<Deadline> deadline, Work work) {
    String overloaded = server.admit(inFlight);
    if (overloaded != null) {
      reply(
          ctx,
          Responses.finish(Responses.error(ctx.alloc(), v, stream, Errors.OVERLOADED, overloaded)),
          false);
      return;
    }
    long arrived = server.clock().millis();
    InFlight request =
        server.track(new InFlight(server, inFlight, ctx, v, stream, deadlineOf(deadline), arrived));
    try {
      server.workers().execute(() -> runOnWorker(ctx, v, stream, request, arrived, work));
    } catch (RejectedExecutionException e) {
      request.answer(
          Responses.finish(
              Responses.error(
                  ctx.alloc(), v, stream, Errors.OVERLOADED, "the server is shutting down")));
    }
  }

  private void runOnWorker(
      ChannelHandlerContext ctx, int v, int stream, InFlight request, long arrived, Work work) {
    if (!request.start()) {
      return; // answered with a timeout while it waited
    }
    ByteBuf out;
    try {
      long waited = server.clock().millis() - arrived;
      long timeout = server.requestTimeout().toMillis();
      if (request.deadline() != null && waited > timeout) {
        out = request.deadline().error(ctx.alloc(), v, stream, waited, timeout, false);
      } else {
        out = work.run();
      }
    } catch (RuntimeException | Error e) {
      out = Errors.encode(ctx.alloc(), v, stream, e);
    }
    request.answer(out);
  }

  /** The deadline, or none when it cannot be told (the statement's own error will say why). */
  private static Deadline deadlineOf(Supplier<Deadline> deadline) {
    if (deadline == null) {
      return null;
    }
    try {
      return deadline.get();
    } catch (RuntimeException e) {
      return null;
    }
  }

  private Compression startup(Map<String, String> options, int v) {
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
      if (v >= 5 && c != Compression.LZ4) {
        throw new ProtocolException(
            "Unsupported compression in protocol v" + v + ": " + name + " (only lz4 is)");
      }
    }
    started = true;
    return c;
  }

  private void requireStarted() {
    if (!started) {
      throw new ProtocolException("STARTUP must be sent before any other request but OPTIONS");
    }
    if (!authenticated) {
      throw new ProtocolException(
          "The server requires authentication: send AUTH_RESPONSE before any other request");
    }
  }

  private static Map<String, List<String>> supported() {
    return Map.of(
        "CQL_VERSION", List.of(ServerState.CQL_VERSION),
        "COMPRESSION", Compression.names(),
        "PROTOCOL_VERSIONS", FrameDecoder.VERSIONS);
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
      int v = started ? version : Math.max(3, Math.min(FrameDecoder.MAX_VERSION, fe.version()));
      reply(
          ctx,
          Responses.finish(
              Responses.error(ctx.alloc(), v, fe.stream(), Errors.PROTOCOL_ERROR, fe.getMessage())),
          true);
    } else {
      // an I/O error (the peer reset the connection...) or a bug: this connection ends, the server
      // goes on
      ctx.close();
    }
  }
}
