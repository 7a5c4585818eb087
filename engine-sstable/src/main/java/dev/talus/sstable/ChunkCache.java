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

  /** {@code item} is a chunk number, or {@code ~stretch} (negative) for an index stretch. */
  private record Key(long reader, int item) {}

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
                  return loader.load(k.item());
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
                  return loader.load(~k.item());
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
      cache.asMap().keySet().removeIf(k -> k.reader() == reader);
    }
  }
}
