package dev.talus.server.wire;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.AttributeKey;

/**
 * Compresses every response frame of a connection once it negotiated a compression (the channel's
 * {@link #KEY} attribute, set on the event loop right after the {@code READY} that answers {@code
 * STARTUP} was written, so that {@code READY} itself goes uncompressed). Stateless: one instance
 * may serve every connection.
 */
@io.netty.channel.ChannelHandler.Sharable
public final class CompressionHandler extends ChannelOutboundHandlerAdapter {
  /** The connection's compression; absent when none was negotiated. */
  public static final AttributeKey<Compression> KEY = AttributeKey.valueOf("talus.compression");

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    Compression c = ctx.channel().attr(KEY).get();
    if (c != null && msg instanceof ByteBuf frame) {
      ctx.write(c.compressFrame(ctx.alloc(), frame), promise);
    } else {
      ctx.write(msg, promise);
    }
  }
}
