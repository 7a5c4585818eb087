package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * The per-reader slots in front of the chunk cache: a slot never keeps a value the cache evicted
 * (so the cache's byte bound holds), a slot hit returns the value the cache holds, and a released
 * reader's slots are empty.
 */
class ChunkCacheSlotsTest {
  private static final int CHUNK = 1_000;

  /** A loader that hands out a fresh array per load and counts loads. */
  private static ChunkCache.Loader loader(AtomicInteger loads) {
    return i -> {
      loads.incrementAndGet();
      byte[] b = new byte[CHUNK];
      b[0] = (byte) i;
      return b;
    };
  }

  @Test
  void slotsHoldOnlyWhatTheCacheHoldsThroughEvictions() throws Exception {
    long seed = 20261205L;
    System.out.println("ChunkCacheSlotsTest seed " + seed);
    Random rnd = new Random(seed);
    // room for about 20 chunks (each weighs its length + 48) among 3 readers of 40 chunks
    ChunkCache cache = ChunkCache.create(20L * (CHUNK + 48));
    List<ChunkCache.Slots> readers = new ArrayList<>();
    for (int r = 0; r < 3; r++) {
      readers.add(cache.register("file" + r, 40, 2));
    }
    AtomicInteger loads = new AtomicInteger();
    ChunkCache.Loader load = loader(loads);
    for (int op = 0; op < 20_000; op++) {
      ChunkCache.Slots s = readers.get(rnd.nextInt(readers.size()));
      // skewed: low chunk numbers are hot, so both hits and evictions happen
      int chunk = Math.min(39, (int) Math.abs(rnd.nextGaussian() * 12));
      byte[] b = cache.get(s, chunk, load);
      assertThat(b[0]).isEqualTo((byte) chunk);
      if (op % 500 == 0) {
        assertSlotsMatchCache(cache, readers);
      }
    }
    assertSlotsMatchCache(cache, readers);
    assertThat(loads.get()).as("some lookups missed").isGreaterThan(20).isLessThan(20_000);
  }

  @Test
  void aSlotHitReturnsTheCachedValueAndARepeatedMissLoadsOnce() throws Exception {
    ChunkCache cache = ChunkCache.create(1L << 20);
    ChunkCache.Slots s = cache.register("f", 4, 1);
    AtomicInteger loads = new AtomicInteger();
    byte[] first = cache.get(s, 2, loader(loads));
    for (int i = 0; i < 10; i++) {
      assertThat(cache.get(s, 2, loader(loads))).isSameAs(first);
    }
    assertThat(loads.get()).isEqualTo(1);
    AtomicInteger stretchLoads = new AtomicInteger();
    ChunkCache.IndexLoader index =
        i -> {
          stretchLoads.incrementAndGet();
          return IndexStretch.parse(new byte[0], FormatVersion.CURRENT);
        };
    IndexStretch st = cache.getIndex(s, 0, index);
    assertThat(cache.getIndex(s, 0, index)).isSameAs(st);
    assertThat(stretchLoads.get()).isEqualTo(1);
    // a chunk and a stretch with the same number are different items
    assertThat(cache.get(s, 0, loader(loads))).isNotNull();
    assertThat(loads.get()).isEqualTo(2);
  }

  @Test
  void releasingAReaderEmptiesItsSlotsAndItsEntries() throws Exception {
    ChunkCache cache = ChunkCache.create(1L << 20);
    ChunkCache.Slots s = cache.register("f", 4, 1);
    AtomicInteger loads = new AtomicInteger();
    for (int i = 0; i < 4; i++) {
      cache.get(s, i, loader(loads));
    }
    cache.invalidate(s);
    assertThat(cache.size()).isZero();
    for (int i = 0; i < 4; i++) {
      assertThat(s.peek(i)).isNull();
    }
    assertThat(cache.unreleasedReaders()).isEmpty();
  }

  @RepeatedTest(20) // the race it guards against showed in about one run in four
  void concurrentReadersNeverSeeAnotherChunkAndSlotsEndConsistent() throws Exception {
    ChunkCache cache = ChunkCache.create(10L * (CHUNK + 48));
    ChunkCache.Slots s = cache.register("f", 64, 0);
    AtomicInteger loads = new AtomicInteger();
    ChunkCache.Loader load = loader(loads);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      long seed = 31L * t + 7;
      Thread th =
          new Thread(
              () -> {
                Random rnd = new Random(seed);
                try {
                  for (int op = 0; op < 20_000; op++) {
                    int chunk = rnd.nextInt(64);
                    byte[] b = cache.get(s, chunk, load);
                    if (b[0] != (byte) chunk) {
                      throw new AssertionError("chunk " + chunk + " returned " + b[0]);
                    }
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              });
      threads.add(th);
      th.start();
    }
    for (Thread th : threads) {
      th.join();
    }
    assertThat(failure.get()).isNull();
    assertSlotsMatchCache(cache, List.of(s));
  }

  /** Every non-empty slot holds the very value the cache holds for that item. */
  private static void assertSlotsMatchCache(ChunkCache cache, List<ChunkCache.Slots> readers) {
    cache.cleanUp();
    ConcurrentHashMap<ChunkCache.Key, Object> held = new ConcurrentHashMap<>(cache.entries());
    int filled = 0;
    for (ChunkCache.Slots s : readers) {
      for (int item = 0; item < s.chunkCount(); item++) {
        Object v = s.peek(item);
        if (v != null) {
          filled++;
          assertThat(held.get(new ChunkCache.Key(s.reader, item)))
              .as("slot %d of reader %d", item, s.reader)
              .isSameAs(v);
        }
      }
    }
    assertThat(filled).isPositive();
  }
}
