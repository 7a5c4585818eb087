package dev.talus.commitlog;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A record's payload, serialized by its writer straight into the record's frame: no copy of it is
 * made on the way to the file ({@link CommitLog#append(Payload, int[])}).
 */
public interface Payload {
  /** The payload's length in bytes. */
  int size();

  /** Writes exactly {@link #size()} bytes into {@code out} at its position. */
  void writeTo(ByteBuffer out);

  /** A payload of bytes already serialized. */
  static Payload of(byte[] bytes) {
    Objects.requireNonNull(bytes, "payload");
    return new Payload() {
      @Override
      public int size() {
        return bytes.length;
      }

      @Override
      public void writeTo(ByteBuffer out) {
        out.put(bytes);
      }
    };
  }
}
