package dev.talus.server.wire;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Cuts the byte stream of a connection into {@link Frame}s: first as bare frames (all of protocol
 * v4, and the handshake of v5), then, once a v5 connection is started ({@link #useSegments}), from
 * inside v5 {@link Segments}. A header that is not a request of a supported version (a response's
 * direction bit, another version, a beta flag, a body longer than the limit) or a broken segment
 * cannot be resynchronised: the decoder raises a fatal {@link FrameException} carrying the stream
 * id, and ignores every byte after it. One instance per connection; not thread-safe (Netty calls it
 * from the connection's event loop).
 */
public final class FrameDecoder extends ByteToMessageDecoder {
  /** The lowest protocol version spoken. */
  public static final int MIN_VERSION = 4;

  /** The highest protocol version spoken. */
  public static final int MAX_VERSION = 5;

  /** The versions spoken, as Cassandra lists them in errors and {@code SUPPORTED}. */
  public static final List<String> VERSIONS = List.of("4/v4", "5/v5");

  private final int maxBodyBytes;
  private boolean failed;
  private Segments segments;
  private int segmentVersion;

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

  /**
   * From now on, reads frames of {@code version} from inside segments (a v5 connection whose {@code
   * STARTUP} was answered).
   *
   * @param lz4 true if the segments are LZ4-compressed
   */
  public void useSegments(int version, boolean lz4) {
    this.segments = new Segments(lz4, maxBodyBytes);
    this.segmentVersion = version;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (failed) {
      in.skipBytes(in.readableBytes());
      return;
    }
    try {
      if (segments != null) {
        segments.decode(ctx.alloc(), in, out, segmentVersion);
      } else {
        Frame f = readFrame(in, maxBodyBytes, -1);
        if (f != null) {
          out.add(f);
        }
      }
    } catch (FrameException e) {
      failed = true;
      in.skipBytes(in.readableBytes());
      throw e;
    }
  }

  @Override
  protected void handlerRemoved0(ChannelHandlerContext ctx) {
    if (segments != null) {
      segments.release();
    }
  }

  /**
   * Reads one frame of {@code in} if it is all there.
   *
   * @param version the version the frame must have, or -1 for any supported one
   * @return the frame (its body a retained slice of {@code in}), or null if {@code in} does not
   *     hold it whole yet (nothing is read)
   * @throws FrameException for a header that is not one of a supported request
   */
  static Frame readFrame(ByteBuf in, int maxBodyBytes, int version) {
    if (in.readableBytes() < Frame.HEADER_SIZE) {
      return null;
    }
    int at = in.readerIndex();
    int first = in.getUnsignedByte(at);
    int v = first & 0x7F;
    int flags = in.getUnsignedByte(at + 1);
    int stream = in.getShort(at + 2);
    int opcode = in.getUnsignedByte(at + 4);
    long length = in.getUnsignedInt(at + 5);
    String problem = null;
    if (v < MIN_VERSION || v > MAX_VERSION) {
      problem =
          "Invalid or unsupported protocol version ("
              + v
              + "); supported versions are ("
              + String.join(", ", VERSIONS)
              + ")";
    } else if (version != -1 && v != version) {
      problem =
          "Invalid message version. Got "
              + v
              + "/v"
              + v
              + " but previous messages on this connection had version "
              + version
              + "/v"
              + version;
    } else if ((first & 0x80) != 0) {
      problem = "Invalid frame: the direction bit says this is a response";
    } else if ((flags & Frame.FLAG_BETA) != 0) {
      problem = "Beta version of the protocol used (" + v + "/v" + v + "-beta)";
    } else if (length > maxBodyBytes) {
      problem = "Request is too big: length " + length + " exceeds maximum of " + maxBodyBytes;
    }
    if (problem != null) {
      throw new FrameException(problem, stream, v);
    }
    if (in.readableBytes() < Frame.HEADER_SIZE + length) {
      return null;
    }
    in.skipBytes(Frame.HEADER_SIZE);
    return new Frame(v, flags, stream, opcode, in.readRetainedSlice((int) length));
  }
}
