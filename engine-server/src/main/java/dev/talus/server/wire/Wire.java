package dev.talus.server.wire;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The native protocol's primitive notations ({@code [int]}, {@code [string]}, {@code [bytes]},
 * {@code [string map]}...), read from and written to Netty buffers. Every read checks the bytes are
 * there and the lengths make sense, and throws {@link ProtocolException} otherwise. Stateless.
 */
public final class Wire {
  /** The value of a {@code [value]} whose length is -2: the protocol's "unset". */
  public static final byte[] UNSET = new byte[0];

  private Wire() {}

  private static void need(ByteBuf in, int n, String what) {
    if (n < 0 || in.readableBytes() < n) {
      throw new ProtocolException(
          "malformed message: " + what + " needs " + n + " bytes, " + in.readableBytes() + " left");
    }
  }

  public static int readByte(ByteBuf in) {
    need(in, 1, "a [byte]");
    return in.readUnsignedByte();
  }

  public static int readShort(ByteBuf in) {
    need(in, 2, "a [short]");
    return in.readUnsignedShort();
  }

  public static int readInt(ByteBuf in) {
    need(in, 4, "an [int]");
    return in.readInt();
  }

  public static long readLong(ByteBuf in) {
    need(in, 8, "a [long]");
    return in.readLong();
  }

  public static String readString(ByteBuf in) {
    int n = readShort(in);
    need(in, n, "a [string]");
    return in.readCharSequence(n, StandardCharsets.UTF_8).toString();
  }

  public static String readLongString(ByteBuf in) {
    int n = readInt(in);
    need(in, n, "a [long string]");
    return in.readCharSequence(n, StandardCharsets.UTF_8).toString();
  }

  /** {@code [short bytes]}. */
  public static byte[] readShortBytes(ByteBuf in) {
    int n = readShort(in);
    need(in, n, "[short bytes]");
    byte[] b = new byte[n];
    in.readBytes(b);
    return b;
  }

  /** {@code [bytes]}: null for a negative length. */
  public static byte[] readBytes(ByteBuf in) {
    int n = readInt(in);
    if (n < 0) {
      return null;
    }
    need(in, n, "[bytes]");
    byte[] b = new byte[n];
    in.readBytes(b);
    return b;
  }

  /** {@code [value]}: null for length -1, {@link #UNSET} for -2. */
  public static byte[] readValue(ByteBuf in) {
    int n = readInt(in);
    if (n == -1) {
      return null;
    }
    if (n == -2) {
      return UNSET;
    }
    if (n < 0) {
      throw new ProtocolException("malformed message: a [value] of length " + n);
    }
    need(in, n, "a [value]");
    byte[] b = new byte[n];
    in.readBytes(b);
    return b;
  }

  public static List<String> readStringList(ByteBuf in) {
    int n = readShort(in);
    String[] out = new String[n];
    for (int i = 0; i < n; i++) {
      out[i] = readString(in);
    }
    return List.of(out);
  }

  public static Map<String, String> readStringMap(ByteBuf in) {
    int n = readShort(in);
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String k = readString(in);
      out.put(k, readString(in));
    }
    return out;
  }

  /** Fails if bytes are left after a message's body. */
  public static void end(ByteBuf in) {
    if (in.isReadable()) {
      throw new ProtocolException(
          "malformed message: " + in.readableBytes() + " bytes after the end of the message");
    }
  }

  public static void writeString(ByteBuf out, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    if (b.length > 0xFFFF) {
      throw new IllegalArgumentException("a [string] holds at most 65535 bytes");
    }
    out.writeShort(b.length);
    out.writeBytes(b);
  }

  public static void writeLongString(ByteBuf out, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.writeBytes(b);
  }

  public static void writeShortBytes(ByteBuf out, byte[] b) {
    out.writeShort(b.length);
    out.writeBytes(b);
  }

  /** {@code [bytes]}, null as length -1. */
  public static void writeBytes(ByteBuf out, byte[] b) {
    if (b == null) {
      out.writeInt(-1);
    } else {
      out.writeInt(b.length);
      out.writeBytes(b);
    }
  }

  public static void writeStringList(ByteBuf out, List<String> list) {
    out.writeShort(list.size());
    for (String s : list) {
      writeString(out, s);
    }
  }

  public static void writeStringMultimap(ByteBuf out, Map<String, List<String>> map) {
    out.writeShort(map.size());
    for (Map.Entry<String, List<String>> e : map.entrySet()) {
      writeString(out, e.getKey());
      writeStringList(out, e.getValue());
    }
  }
}
