package dev.talus.server.wire;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Cuts the byte stream of a connection into {@link Frame}s. A header that is not a v4 request (a
 * response's direction bit, another version, a beta flag, a body longer than the limit) cannot be
 * resynchronised: the decoder raises a fatal {@link FrameException} carrying the stream id, and
 * ignores every byte after it. One instance per connection; not thread-safe (Netty calls it from
 * the connection's event loop).
 */
public final class FrameDecoder extends ByteToMessageDecoder {
  /** The only protocol version spoken. */
  public static final int VERSION = 4;

  private final int maxBodyBytes;
  private boolean failed;

  /**
   * A decoder.
   *
   * @param maxBodyBytes the largest body accepted
   */
  public FrameDecoder(int maxBodyBytes) {
    this.maxBodyBytes = maxBodyBytes;
  }

  /** A header that ends the connection, with the stream id to answer on. */
  public static final class FrameException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int stream;
    private final int version;

    FrameException(String message, int stream, int version) {
      super(message);
      this.stream = stream;
      this.version = version;
    }

    /** The stream id of the offending frame. */
    public int stream() {
      return stream;
    }

    /** The version the client asked for. */
    public int version() {
      return version;
    }
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (failed) {
      in.skipBytes(in.readableBytes());
      return;
    }
    if (in.readableBytes() < Frame.HEADER_SIZE) {
      return;
    }
    int at = in.readerIndex();
    int first = in.getUnsignedByte(at);
    int version = first & 0x7F;
    int flags = in.getUnsignedByte(at + 1);
    int stream = in.getShort(at + 2);
    int opcode = in.getUnsignedByte(at + 4);
    long length = in.getUnsignedInt(at + 5);
    String problem = null;
    if (version != VERSION) {
      problem =
          "Invalid or unsupported protocol version ("
              + version
              + "); supported versions are ("
              + VERSION
              + "/v"
              + VERSION
              + ")";
    } else if ((first & 0x80) != 0) {
      problem = "Invalid frame: the direction bit says this is a response";
    } else if ((flags & Frame.FLAG_BETA) != 0) {
      problem = "Beta version of the protocol used (" + version + "/v" + version + "-beta)";
    } else if (length > maxBodyBytes) {
      problem = "Request is too big: length " + length + " exceeds maximum of " + maxBodyBytes;
    }
    if (problem != null) {
      failed = true;
      in.skipBytes(in.readableBytes());
      throw new FrameException(problem, stream, version);
    }
    if (in.readableBytes() < Frame.HEADER_SIZE + length) {
      return;
    }
    in.skipBytes(Frame.HEADER_SIZE);
    out.add(new Frame(version, flags, stream, opcode, in.readRetainedSlice((int) length)));
  }
}
