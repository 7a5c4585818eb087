package dev.talus.data;

import java.util.Arrays;

/**
 * A partition key in bytes together with its Murmur3 hash. Partitions are ordered by token (the
 * first 64 bits of the hash, compared as a signed long, as Cassandra's Murmur3 partitioner does)
 * and then by the key bytes (unsigned), so the order is total even when tokens collide.
 *
 * <p>Immutable and thread-safe; the key bytes are never modified after construction.
 */
public final class PartitionKey implements Comparable<PartitionKey> {
  private final byte[] key;
  private final long token;
  private final long hash2;

  private PartitionKey(byte[] key, long token, long hash2) {
    this.key = key;
    this.token = token;
    this.hash2 = hash2;
  }

  /** Wraps {@code key} (not copied: the caller hands over ownership) and hashes it. */
  public static PartitionKey of(byte[] key) {
    return Murmur3.hash128(key, 0, key.length, PartitionKey::new);
  }

  /** Rebuilds a key whose hash is already known (for example read back from an index). */
  public static PartitionKey of(byte[] key, long token, long hash2) {
    return new PartitionKey(key, token, hash2);
  }

  /** The key bytes; callers must not modify the array. */
  public byte[] bytes() {
    return key;
  }

  public long token() {
    return token;
  }

  /** The second 64 bits of the Murmur3 hash, used with the token by Bloom filters. */
  public long hash2() {
    return hash2;
  }

  @Override
  public int compareTo(PartitionKey o) {
    int c = Long.compare(token, o.token);
    return c != 0 ? c : Arrays.compareUnsigned(key, o.key);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PartitionKey p && p.token == token && Arrays.equals(p.key, key);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(token);
  }

  @Override
  public String toString() {
    return "PartitionKey{token=" + token + ", bytes=" + key.length + "}";
  }
}
