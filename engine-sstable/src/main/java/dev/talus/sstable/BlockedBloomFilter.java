package dev.talus.sstable;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * A cache-local Bloom filter: the first hash picks one 512-bit block (a 64-byte cache line) and the
 * second places all k probes inside it, so adding or asking costs one cache miss instead of k (the
 * idea of RocksDB's "fast local Bloom" and of Putze, Sanders and Singler's blocked Bloom filters).
 * For the same bits it answers "maybe" a little more often than a plain Bloom filter, which the
 * sizing allows for. The block is {@code multiplyHigh(h1, blocks)} (unsigned), and probe i sets the
 * top 9 bits of {@code h2 · φ^i} (φ = 0x9E3779B97F4A7C15, products mod 2^64), so each probe costs a
 * multiply and a shift, no division. A filter with k = 0 answers "maybe" for everything.
 *
 * <p>Not thread-safe while being built; after the writer hands it over (or it is read) it is only
 * read, and reads are thread-safe.
 */
final class BlockedBloomFilter {
  /** Bits per block: one cache line. */
  static final int BLOCK_BITS = 512;

  private static final long PHI = 0x9E3779B97F4A7C15L;

  private final int hashCount;
  private final long blocks;
  private final long[] words;

  private BlockedBloomFilter(int hashCount, long blocks, long[] words) {
    this.hashCount = hashCount;
    this.blocks = blocks;
    this.words = words;
  }

  /**
   * A filter for {@code expectedKeys} keys at about {@code fpChance}: a plain filter's size, plus a
   * tenth for what blocking costs, rounded up to whole blocks, with the plain filter's k.
   */
  static BlockedBloomFilter create(long expectedKeys, double fpChance) {
    if (fpChance >= 1.0) {
      return new BlockedBloomFilter(0, 0, new long[0]);
    }
    long n = Math.max(1, expectedKeys);
    double ln2 = Math.log(2);
    double bits = -n * Math.log(fpChance) / (ln2 * ln2) * 1.1;
    long blocks = Math.max(1, (long) Math.ceil(bits / BLOCK_BITS));
    int k = (int) Math.max(1, Math.min(16, Math.round(bits / n * ln2 / 1.1)));
    return new BlockedBloomFilter(k, blocks, new long[(int) (blocks * (BLOCK_BITS / 64))]);
  }

  static BlockedBloomFilter alwaysMaybe() {
    return new BlockedBloomFilter(0, 0, new long[0]);
  }

  boolean isAlwaysPresent() {
    return hashCount == 0;
  }

  private int blockStart(long h1) {
    // unsigned high half of h1 × blocks: a uniform block number without a division
    long hi = Math.multiplyHigh(h1, blocks) + ((h1 >> 63) & blocks);
    return (int) (hi * (BLOCK_BITS / 64));
  }

  void add(long h1, long h2) {
    int base = blockStart(h1);
    long x = h2;
    for (int i = 0; i < hashCount; i++) {
      int bit = (int) (x >>> 55);
      words[base + (bit >>> 6)] |= 1L << bit;
      x *= PHI;
    }
  }

  boolean mayContain(long h1, long h2) {
    if (hashCount == 0) {
      return true;
    }
    int base = blockStart(h1);
    long x = h2;
    for (int i = 0; i < hashCount; i++) {
      int bit = (int) (x >>> 55);
      if ((words[base + (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
      x *= PHI;
    }
    return true;
  }

  long sizeInBytes() {
    return words.length * 8L;
  }

  /** Written as a plain filter is: {@code int k, long m} (bits, a multiple of 512), the words. */
  void write(DataOutputStream out) throws IOException {
    out.writeInt(hashCount);
    out.writeLong(blocks * BLOCK_BITS);
    for (long w : words) {
      out.writeLong(w);
    }
  }

  /**
   * Reads a filter that fills the {@code bytesAvailable} bytes left exactly; null if the stored
   * shape is inconsistent (the caller reports corruption).
   */
  static BlockedBloomFilter read(DataInputStream in, long bytesAvailable) throws IOException {
    int k = in.readInt();
    long m = in.readLong();
    if (k < 0
        || k > 16
        || m < 0
        || m % BLOCK_BITS != 0
        || m / 8 != bytesAvailable - 12
        || (k == 0) != (m == 0)) {
      return null;
    }
    long[] words = new long[(int) (m / 64)];
    for (int i = 0; i < words.length; i++) {
      words[i] = in.readLong();
    }
    return new BlockedBloomFilter(k, m / BLOCK_BITS, words);
  }
}
