package dev.talus.sstable;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded cache of decompressed Data chunks, and of parsed Index.db stretches ({@link
 * IndexStretch}), shared by every reader of an engine instance, so hot chunks and index stretches
 * are read, checksummed and decoded once: bytes are verified when they come from disk, and a hit
 * returns the verified, decoded copy. Capacity is in bytes of decompressed chunk; capacity 0
 * disables caching (every read decompresses). Thread-safe. Entries are keyed by a per-reader id
 * handed out by this cache, so a reopened or replaced file never sees stale chunks.
 */
public final class ChunkCache {
  /** Loads one chunk on a miss. */
  interface Loader {
    byte[] load(int chunk) throws IOException;
  }

  /** Loads one index stretch on a miss. */
  interface IndexLoader {
    IndexStretch load(int stretch) throws IOException;
  }

  /**
   * {@code item} is a chunk number, or {@code ~stretch} (negative) for an index stretch.
   *
   * <p>The hash mixes both fields (the 64-bit finalizer of MurmurHash3). A record's generated hash,
   * {@code 31 * reader + item}, gives chunk {@code c} of reader {@code r} the hash of chunk {@code
   * c - 31} of reader {@code r + 1}: with thousands of chunks per SSTable and reader ids a few
   * apart, most cached chunks shared a hash with others, and every lookup walked a chain of equal
   * hashes.
   */
  static final class Key {
    final long reader;
    final int item;
    private final int hash;

    Key(long reader, int item) {
      this.reader = reader;
      this.item = item;
      this.hash = mix(reader, item);
    }

    static int mix(long reader, int item) {
      long h = reader * 0x9E3779B97F4A7C15L + (item & 0xFFFFFFFFL);
      h ^= h >>> 33;
      h *= 0xFF51AFD7ED558CCDL;
      h ^= h >>> 33;
      h *= 0xC4CEB9FE1A85EC53L;
      h ^= h >>> 33;
      return (int) h;
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.item == item && k.reader == reader;
    }

    @Override
    public String toString() {
      return "Key[reader=" + reader + ", item=" + item + "]";
    }
  }

  private final Cache<Key, Object> cache;
  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, String> liveReaders = new ConcurrentHashMap<>();
  private final long capacity;

  private ChunkCache(long capacityBytes) {
    if (capacityBytes < 0) {
      throw new IllegalArgumentException("capacity must be >= 0, got " + capacityBytes);
    }
    this.capacity = capacityBytes;
    this.cache =
        capacityBytes == 0
            ? null
            : Caffeine.newBuilder()
                .maximumWeight(capacityBytes)
                .weigher(
                    (Key k, Object v) ->
                        v instanceof byte[] b ? b.length + 48 : ((IndexStretch) v).weight())
                .executor(Runnable::run)
                .build();
  }

  /** A cache holding up to {@code capacityBytes} of decompressed chunks; 0 disables it. */
  public static ChunkCache create(long capacityBytes) {
    return new ChunkCache(capacityBytes);
  }

  /** A cache that caches nothing. */
  public static ChunkCache disabled() {
    return new ChunkCache(0);
  }

  public long capacity() {
    return capacity;
  }

  /** Approximate number of cached chunks. */
  public long size() {
    return cache == null ? 0 : cache.estimatedSize();
  }

  /** Registers a reader of {@code file}; it stays listed until its last reference is released. */
  long newReaderId(String file) {
    long id = ids.incrementAndGet();
    liveReaders.put(id, file);
    return id;
  }

  /**
   * The files of readers opened with this cache whose references are not all released yet. Tests
   * assert it is empty at teardown to catch leaked references (the role of Lucene's
   * MockDirectoryWrapper open-file check).
   */
  public List<String> unreleasedReaders() {
    return List.copyOf(liveReaders.values());
  }

  byte[] get(long reader, int chunk, Loader loader) throws IOException {
    if (cache == null) {
      return loader.load(chunk);
    }
    Key key = new Key(reader, chunk);
    Object hit = cache.getIfPresent(key);
    if (hit != null) {
      return (byte[]) hit;
    }
    try {
      return (byte[])
          cache.get(
              key,
              k -> {
                try {
                  return loader.load(k.item);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  IndexStretch getIndex(long reader, int stretch, IndexLoader loader) throws IOException {
    if (cache == null) {
      return loader.load(stretch);
    }
    Key key = new Key(reader, ~stretch);
    Object hit = cache.getIfPresent(key);
    if (hit != null) {
      return (IndexStretch) hit;
    }
    try {
      return (IndexStretch)
          cache.get(
              key,
              k -> {
                try {
                  return loader.load(~k.item);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** Drops every chunk and index stretch of one reader (called when the reader's files go away). */
  void invalidate(long reader) {
    liveReaders.remove(reader);
    if (cache != null) {
      cache.asMap().keySet().removeIf(k -> k.reader == reader);
    }
  }
}
