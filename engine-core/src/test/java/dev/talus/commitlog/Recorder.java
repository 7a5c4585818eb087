package dev.talus.commitlog;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** A replay handler that keeps what it was given, for assertions. */
final class Recorder implements ReplayHandler {
  final List<CommitLogPosition> positions = new ArrayList<>();
  final List<byte[]> payloads = new ArrayList<>();

  @Override
  public void replay(CommitLogPosition position, byte[] payload) {
    positions.add(position);
    payloads.add(payload);
  }

  int size() {
    return payloads.size();
  }

  /** Payloads made by {@link #numbered} decoded back to their numbers. */
  List<Long> numbers() {
    List<Long> out = new ArrayList<>();
    for (byte[] p : payloads) {
      out.add(number(p));
    }
    return out;
  }

  /** A self-checking payload: the number, then {@code len} bytes derived from it. */
  static byte[] numbered(long n, int len) {
    ByteBuffer b = ByteBuffer.allocate(8 + len);
    b.putLong(n);
    for (int i = 0; i < len; i++) {
      b.put((byte) (n * 31 + i));
    }
    return b.array();
  }

  /** The number of a payload made by {@link #numbered}; throws if its body is not intact. */
  static long number(byte[] p) {
    ByteBuffer b = ByteBuffer.wrap(p);
    long n = b.getLong();
    for (int i = 0; i < p.length - 8; i++) {
      if (b.get() != (byte) (n * 31 + i)) {
        throw new AssertionError("payload of record " + n + " is damaged at byte " + (8 + i));
      }
    }
    return n;
  }
}
