package dev.talus.server;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A blocking client that writes frames byte by byte as a test wants them, and reads the server's
 * answers. The socket timeout only guards against a hung server; no test waits for it.
 */
final class RawClient implements AutoCloseable {
  private final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;

  /** A response frame. */
  record Response(int version, int flags, int stream, int opcode, ByteBuffer body) {
    int errorCode() {
      return body.getInt(0);
    }

    String errorMessage() {
      ByteBuffer b = body.duplicate();
      b.getInt();
      byte[] m = new byte[b.getShort() & 0xFFFF];
      b.get(m);
      return new String(m, StandardCharsets.UTF_8);
    }
  }

  RawClient(InetSocketAddress address) throws IOException {
    socket = new Socket();
    socket.connect(address);
    socket.setSoTimeout(120_000);
    in = new DataInputStream(socket.getInputStream());
    out = socket.getOutputStream();
  }

  static byte[] frame(int version, int flags, int stream, int opcode, byte[] body) {
    ByteBuffer b = ByteBuffer.allocate(9 + body.length);
    b.put((byte) version).put((byte) flags).putShort((short) stream).put((byte) opcode);
    b.putInt(body.length).put(body);
    return b.array();
  }

  static byte[] stringMap(Map<String, String> map) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(map.size() >> 8);
    b.write(map.size());
    for (Map.Entry<String, String> e : map.entrySet()) {
      string(b, e.getKey());
      string(b, e.getValue());
    }
    return b.toByteArray();
  }

  static void string(ByteArrayOutputStream b, String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    b.write(bytes.length >> 8);
    b.write(bytes.length);
    b.writeBytes(bytes);
  }

  /** A QUERY body: the text, consistency ONE, no flags. */
  static byte[] query(String cql) {
    byte[] q = cql.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(4 + q.length + 3)
        .putInt(q.length)
        .put(q)
        .putShort((short) 1)
        .put((byte) 0)
        .array();
  }

  static byte[] startupBody() {
    return stringMap(Map.of("CQL_VERSION", "3.0.0"));
  }

  void send(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** Sends STARTUP and checks the answer is READY. */
  void startup() throws IOException {
    send(frame(4, 0, 1, 0x01, startupBody()));
    Response r = read();
    if (r.opcode() != 0x02) {
      throw new IllegalStateException("not READY: " + r);
    }
  }

  Response read() throws IOException {
    int version = in.readUnsignedByte();
    int flags = in.readUnsignedByte();
    int stream = in.readShort();
    int opcode = in.readUnsignedByte();
    int length = in.readInt();
    byte[] body = new byte[length];
    in.readFully(body);
    return new Response(version, flags, stream, opcode, ByteBuffer.wrap(body));
  }

  /** Tells the server nothing more comes. */
  void endOutput() throws IOException {
    socket.shutdownOutput();
  }

  /** Reads until the server closes the connection; true if it did (rather than sending junk). */
  boolean closedByServer() throws IOException {
    try {
      while (true) {
        read();
      }
    } catch (EOFException e) {
      return true;
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
