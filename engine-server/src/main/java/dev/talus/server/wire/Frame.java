package dev.talus.server.wire;

import io.netty.buffer.ByteBuf;

/**
 * One native protocol frame (the v4 and v5 layout): a 9-byte header — version, flags, stream,
 * opcode, body length — and the body. The body is a retained slice that whoever handles the frame
 * releases.
 *
 * @param version the protocol version (without the direction bit)
 * @param flags the header flags
 * @param stream the stream id the answer must carry
 * @param opcode the message
 * @param body the body
 */
public record Frame(int version, int flags, int stream, int opcode, ByteBuf body) {
  /** Size of the header. */
  public static final int HEADER_SIZE = 9;

  /** Header flag: the body is compressed. */
  public static final int FLAG_COMPRESSED = 0x01;

  /** Header flag: tracing requested / tracing id present. */
  public static final int FLAG_TRACING = 0x02;

  /** Header flag: a custom payload precedes the message. */
  public static final int FLAG_CUSTOM_PAYLOAD = 0x04;

  /** Header flag (responses): a list of warnings precedes the message. */
  public static final int FLAG_WARNING = 0x08;

  /** Header flag: the client uses a beta protocol version. */
  public static final int FLAG_BETA = 0x10;
}
