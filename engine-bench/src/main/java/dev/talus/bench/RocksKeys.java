package dev.talus.bench;

/**
 * The wide-column model as RocksDB keys: a 4-byte big-endian partition id with its sign bit
 * flipped, then the sequence as 8 big-endian bytes with the sign bit flipped (so unsigned byte
 * order is numeric order), every bit inverted for {@link BenchEngine.Layout#NEWEST_FIRST} so the
 * newest row sorts first and "latest N" is a forward scan, as with Talus's DESC clustering.
 * Stateless.
 */
final class RocksKeys {
  static final int PREFIX_BYTES = 4;
  static final int KEY_BYTES = PREFIX_BYTES + 8;

  private RocksKeys() {}

  static byte[] key(int partition, long seq, BenchEngine.Layout layout) {
    byte[] k = new byte[KEY_BYTES];
    putInt(k, partition ^ Integer.MIN_VALUE);
    long s = seq ^ Long.MIN_VALUE;
    if (layout == BenchEngine.Layout.NEWEST_FIRST) {
      s = ~s;
    }
    for (int i = 0; i < 8; i++) {
      k[PREFIX_BYTES + i] = (byte) (s >>> (56 - 8 * i));
    }
    return k;
  }

  static byte[] prefix(int partition) {
    byte[] k = new byte[PREFIX_BYTES];
    putInt(k, partition ^ Integer.MIN_VALUE);
    return k;
  }

  static boolean hasPrefix(byte[] key, byte[] prefix) {
    if (key.length < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (key[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private static void putInt(byte[] k, int v) {
    k[0] = (byte) (v >>> 24);
    k[1] = (byte) (v >>> 16);
    k[2] = (byte) (v >>> 8);
    k[3] = (byte) v;
  }
}
