package dev.talus.sstable;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A bounded cache of decompressed Data chunks, and of parsed Index.db stretches ({@link
 * IndexStretch}), shared by every reader of an engine instance, so hot chunks and index stretches
 * are read, checksummed and decoded once: bytes are verified when they come from disk, and a hit
 * returns the verified, decoded copy. Capacity is in bytes of decompressed chunk; capacity 0
 * disables caching (every read decompresses). Thread-safe. Entries are keyed by a per-reader id
 * handed out by this cache, so a reopened or replaced file never sees stale chunks.
 *
 * <p><b>Slots.</b> A hit costs a Caffeine lookup (a key, a hash-map probe, a recorded access) —
 * about a fifth of a point read that finds its chunks cached. So each reader also has an array of
 * slots, one per chunk and index stretch ({@link Slots}), holding exactly the values the cache
 * holds for it: a value enters its slot once the cache has it, and an eviction clears the slot (the
 * removal listener, which runs on the evicting thread once the entry has left the cache), so a slot
 * keeps an evicted value only until that listener runs and the byte bound stays the cache's. A slot
 * hit skips the lookup; one slot hit in {@value #RECORD_EVERY} is still recorded with the cache, so
 * W-TinyLFU keeps seeing which chunks are hot (their frequencies are counted at that rate, the same
 * for every chunk).
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

  /** A slot hit is recorded with the cache once in this many (a power of two). */
  static final int RECORD_EVERY = 4;

  /**
   * One reader's slots: its chunks, then its index stretches. A slot holds what the cache holds for
   * that item, or null. Thread-safe.
   */
  static final class Slots {
    final long reader;
    final String file;
    private final int chunks;
    private final AtomicReferenceArray<Object> items;

    /** Slot hits so far, for recording one in {@link #RECORD_EVERY}; races only skew the count. */
    private int hits;

    Slots(long reader, String file, int chunks, int stretches) {
      this.reader = reader;
      this.file = file;
      this.chunks = chunks;
      this.items = new AtomicReferenceArray<>(chunks + stretches);
    }

    private int slot(int item) {
      return item >= 0 ? item : chunks + ~item;
    }

    int chunkCount() {
      return chunks;
    }

    /** What slot {@code item} holds now (tests). */
    Object peek(int item) {
      return items.get(slot(item));
    }

    /** The heap of the slot array (header and one reference per slot), for the reader's figure. */
    long heapBytes() {
      return (16 + 4L * items.length() + 7) & ~7L;
    }
  }

  private final Cache<Key, Object> cache;
  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, Slots> liveReaders = new ConcurrentHashMap<>();
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
                .removalListener((Key k, Object v, RemovalCause c) -> clearSlot(k, v))
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

  /**
   * Registers a reader of {@code file} with {@code chunks} Data chunks and {@code stretches} index
   * stretches; it stays listed until its last reference is released.
   */
  Slots register(String file, int chunks, int stretches) {
    long id = ids.incrementAndGet();
    Slots s = new Slots(id, file, chunks, stretches);
    liveReaders.put(id, s);
    return s;
  }

  /**
   * The files of readers opened with this cache whose references are not all released yet. Tests
   * assert it is empty at teardown to catch leaked references (the role of Lucene's
   * MockDirectoryWrapper open-file check).
   */
  public List<String> unreleasedReaders() {
    List<String> out = new ArrayList<>();
    for (Slots s : liveReaders.values()) {
      out.add(s.file);
    }
    return out;
  }

  byte[] get(Slots slots, int chunk, Loader loader) throws IOException {
    return (byte[]) lookup(slots, chunk, loader, null);
  }

  IndexStretch getIndex(Slots slots, int stretch, IndexLoader loader) throws IOException {
    return (IndexStretch) lookup(slots, ~stretch, null, loader);
  }

  /** Item {@code item} (a chunk, or {@code ~stretch}): from its slot, the cache, or the loader. */
  private Object lookup(Slots slots, int item, Loader chunks, IndexLoader index)
      throws IOException {
    if (cache == null) {
      return item >= 0 ? chunks.load(item) : index.load(~item);
    }
    int slot = slots.slot(item);
    Object v = slots.items.get(slot);
    if (v != null) {
      if ((++slots.hits & (RECORD_EVERY - 1)) == 0) {
        cache.getIfPresent(new Key(slots.reader, item)); // an access W-TinyLFU should count
      }
      return v;
    }
    Key key = new Key(slots.reader, item);
    v = cache.getIfPresent(key);
    if (v == null) {
      try {
        v =
            cache.get(
                key,
                k -> {
                  try {
                    return k.item >= 0 ? chunks.load(k.item) : index.load(~k.item);
                  } catch (IOException e) {
                    throw new UncheckedIOException(e);
                  }
                });
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
    }
    // Into the slot only while the cache holds it: set, then check. The removal listener runs
    // after the entry has left the map (Caffeine's eviction listener runs inside the removal, while
    // a concurrent get still sees the old value, which let a slot keep an evicted chunk): so a
    // removal the check did not see is followed by the listener, which finds the value set.
    slots.items.set(slot, v);
    if (cache.asMap().get(key) != v) {
      slots.items.compareAndSet(slot, v, null);
    }
    return v;
  }

  /** Runs pending evictions now (tests). */
  void cleanUp() {
    if (cache != null) {
      cache.cleanUp();
    }
  }

  /** A copy of what the cache holds (tests). */
  Map<Key, Object> entries() {
    return cache == null ? Map.of() : Map.copyOf(cache.asMap());
  }

  /** The removal listener: a removed value leaves its slot too (it may be gone already). */
  private void clearSlot(Key k, Object v) {
    Slots s = liveReaders.get(k.reader);
    if (s != null) {
      s.items.compareAndSet(s.slot(k.item), v, null);
    }
  }

  /** Drops every chunk and index stretch of one reader (called when the reader's files go away). */
  void invalidate(Slots slots) {
    liveReaders.remove(slots.reader);
    for (int i = 0; i < slots.items.length(); i++) {
      slots.items.set(i, null);
    }
    if (cache != null) {
      cache.asMap().keySet().removeIf(k -> k.reader == slots.reader);
    }
  }
}
