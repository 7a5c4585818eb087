package dev.talus.sstable;

import dev.talus.data.PartitionKey;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * A Bloom filter over partition keys. The k probe positions come from the two halves of the key's
 * Murmur3 hash by Kirsch–Mitzenmacher double hashing, {@code h1 + i*h2 mod m}, so a key is hashed
 * once for placement and filtering alike (Cassandra does the same). Sized as m = -n ln p / (ln 2)^2
 * bits and k = round(m/n ln 2). A filter with k = 0 (fp chance 1.0) answers "maybe" for every key.
 *
 * <p>Not thread-safe while being built; after the writer hands it over (or it is read) it is only
 * read, and reads are thread-safe.
 */
final class BloomFilter {
  private final int hashCount;
  private final long bitCount;
  private final long[] words;

  private BloomFilter(int hashCount, long bitCount, long[] words) {
    this.hashCount = hashCount;
    this.bitCount = bitCount;
    this.words = words;
  }

  static BloomFilter create(long expectedKeys, double fpChance) {
    if (fpChance >= 1.0) {
      return new BloomFilter(0, 0, new long[0]);
    }
    long n = Math.max(1, expectedKeys);
    double ln2 = Math.log(2);
    long m = (long) Math.ceil(-n * Math.log(fpChance) / (ln2 * ln2));
    m = Math.max(64, (m + 63) / 64 * 64);
    int k = (int) Math.max(1, Math.min(30, Math.round((double) m / n * ln2)));
    return new BloomFilter(k, m, new long[(int) (m / 64)]);
  }

  boolean isAlwaysPresent() {
    return hashCount == 0;
  }

  void add(PartitionKey key) {
    add(key.token(), key.hash2());
  }

  void add(long h1, long h2) {
    for (int i = 0; i < hashCount; i++) {
      long bit = Long.remainderUnsigned(h1 + i * h2, bitCount);
      words[(int) (bit >>> 6)] |= 1L << bit;
    }
  }

  boolean mayContain(PartitionKey key) {
    return mayContain(key.token(), key.hash2());
  }

  boolean mayContain(long h1, long h2) {
    for (int i = 0; i < hashCount; i++) {
      long bit = Long.remainderUnsigned(h1 + i * h2, bitCount);
      if ((words[(int) (bit >>> 6)] & (1L << bit)) == 0) {
        return false;
      }
    }
    return true;
  }

  long sizeInBytes() {
    return words.length * 8L;
  }

  void write(DataOutputStream out) throws IOException {
    out.writeInt(hashCount);
    out.writeLong(bitCount);
    for (long w : words) {
      out.writeLong(w);
    }
  }

  /**
   * Reads a filter from a body with {@code bytesAvailable} bytes left; it fills them exactly, or,
   * if {@code anotherFollows}, leaves room for at least another filter's 12-byte shape. Returns
   * null if the stored shape is inconsistent (the caller reports corruption).
   */
  static BloomFilter read(DataInputStream in, long bytesAvailable, boolean anotherFollows)
      throws IOException {
    int k = in.readInt();
    long m = in.readLong();
    long room = bytesAvailable - 12 - (anotherFollows ? 12 : 0);
    if (k < 0
        || k > 30
        || m < 0
        || m % 64 != 0
        || (anotherFollows ? m / 8 > room : m / 8 != room)
        || (k == 0) != (m == 0)) {
      return null;
    }
    long[] words = new long[(int) (m / 64)];
    for (int i = 0; i < words.length; i++) {
      words[i] = in.readLong();
    }
    return new BloomFilter(k, m, words);
  }
}
