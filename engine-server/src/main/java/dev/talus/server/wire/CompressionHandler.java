package dev.talus.server.wire;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.AttributeKey;

/**
 * Frames the responses of a started connection: in v4, compresses every frame body once the
 * connection negotiated a compression (the channel's {@link #KEY} attribute); in v5, wraps every
 * frame in segments (the {@link #SEGMENTS} attribute). Both are set on the event loop right after
 * the {@code READY} that answers {@code STARTUP} was written, so that {@code READY} itself goes as
 * a bare uncompressed frame. Stateless: one instance may serve every connection.
 */
@io.netty.channel.ChannelHandler.Sharable
public final class CompressionHandler extends ChannelOutboundHandlerAdapter {
  /** The connection's compression; absent when none was negotiated. */
  public static final AttributeKey<Compression> KEY = AttributeKey.valueOf("talus.compression");

  /** The connection's v5 segments; absent before a v5 {@code STARTUP} was answered, and in v4. */
  public static final AttributeKey<Segments> SEGMENTS = AttributeKey.valueOf("talus.segments");

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    Segments segments = ctx.channel().attr(SEGMENTS).get();
    Compression c = ctx.channel().attr(KEY).get();
    if (segments != null && msg instanceof ByteBuf frame) {
      ctx.write(segments.encode(ctx.alloc(), frame), promise);
    } else if (c != null && msg instanceof ByteBuf frame) {
      ctx.write(c.compressFrame(ctx.alloc(), frame), promise);
    } else {
      ctx.write(msg, promise);
    }
  }
}
