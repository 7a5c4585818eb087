package dev.talus.data;

/**
 * MurmurHash3, x64 128-bit variant, seed 0. The first 64 bits of the hash of a partition key are
 * its token; both halves feed the Bloom filter, so a key is hashed exactly once.
 *
 * <p>Written from the public description of the algorithm (Austin Appleby's MurmurHash3); the test
 * suite checks it against an independent implementation. Stateless and thread-safe.
 */
public final class Murmur3 {
  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;

  private Murmur3() {}

  /** Returns {h1, h2} of the 128-bit hash of {@code data[offset, offset+length)}. */
  public static long[] hash128(byte[] data, int offset, int length) {
    return hash128(data, offset, length, (d, h1, h2) -> new long[] {h1, h2});
  }

  /** Receives the two halves of a hash, with the array they hash (so it need not capture it). */
  @FunctionalInterface
  public interface Hashed<T> {
    T of(byte[] data, long h1, long h2);
  }

  /**
   * The 128-bit hash of {@code data[offset..offset+length)}, handed to {@code result} with {@code
   * data}: a non-capturing {@code result} (a constructor reference) allocates nothing but what it
   * builds.
   */
  @SuppressWarnings("fallthrough") // the tail switch falls through on purpose
  public static <T> T hash128(byte[] data, int offset, int length, Hashed<T> result) {
    long h1 = 0;
    long h2 = 0;
    int blocks = length >>> 4;
    for (int i = 0; i < blocks; i++) {
      int p = offset + (i << 4);
      long k1 = getLongLe(data, p);
      long k2 = getLongLe(data, p + 8);
      k1 *= C1;
      k1 = Long.rotateLeft(k1, 31);
      k1 *= C2;
      h1 ^= k1;
      h1 = Long.rotateLeft(h1, 27);
      h1 += h2;
      h1 = h1 * 5 + 0x52dce729;
      k2 *= C2;
      k2 = Long.rotateLeft(k2, 33);
      k2 *= C1;
      h2 ^= k2;
      h2 = Long.rotateLeft(h2, 31);
      h2 += h1;
      h2 = h2 * 5 + 0x38495ab5;
    }
    int tail = offset + (blocks << 4);
    long k1 = 0;
    long k2 = 0;
    switch (length & 15) {
      case 15:
        k2 ^= (data[tail + 14] & 0xFFL) << 48;
      // fall through
      case 14:
        k2 ^= (data[tail + 13] & 0xFFL) << 40;
      // fall through
      case 13:
        k2 ^= (data[tail + 12] & 0xFFL) << 32;
      // fall through
      case 12:
        k2 ^= (data[tail + 11] & 0xFFL) << 24;
      // fall through
      case 11:
        k2 ^= (data[tail + 10] & 0xFFL) << 16;
      // fall through
      case 10:
        k2 ^= (data[tail + 9] & 0xFFL) << 8;
      // fall through
      case 9:
        k2 ^= data[tail + 8] & 0xFFL;
        k2 *= C2;
        k2 = Long.rotateLeft(k2, 33);
        k2 *= C1;
        h2 ^= k2;
      // fall through
      case 8:
        k1 ^= (data[tail + 7] & 0xFFL) << 56;
      // fall through
      case 7:
        k1 ^= (data[tail + 6] & 0xFFL) << 48;
      // fall through
      case 6:
        k1 ^= (data[tail + 5] & 0xFFL) << 40;
      // fall through
      case 5:
        k1 ^= (data[tail + 4] & 0xFFL) << 32;
      // fall through
      case 4:
        k1 ^= (data[tail + 3] & 0xFFL) << 24;
      // fall through
      case 3:
        k1 ^= (data[tail + 2] & 0xFFL) << 16;
      // fall through
      case 2:
        k1 ^= (data[tail + 1] & 0xFFL) << 8;
      // fall through
      case 1:
        k1 ^= data[tail] & 0xFFL;
        k1 *= C1;
        k1 = Long.rotateLeft(k1, 31);
        k1 *= C2;
        h1 ^= k1;
        break;
      default:
        break;
    }
    h1 ^= length;
    h2 ^= length;
    h1 += h2;
    h2 += h1;
    h1 = fmix(h1);
    h2 = fmix(h2);
    h1 += h2;
    h2 += h1;
    return result.of(data, h1, h2);
  }

  private static long getLongLe(byte[] b, int p) {
    return (b[p] & 0xFFL)
        | (b[p + 1] & 0xFFL) << 8
        | (b[p + 2] & 0xFFL) << 16
        | (b[p + 3] & 0xFFL) << 24
        | (b[p + 4] & 0xFFL) << 32
        | (b[p + 5] & 0xFFL) << 40
        | (b[p + 6] & 0xFFL) << 48
        | (b[p + 7] & 0xFFL) << 56;
  }

  /** MurmurHash3's 64-bit finalizer: every input bit affects every output bit. */
  public static long fmix(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }
}
