package dev.talus.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The chunk cache's keys spread over the hash table whatever the mix of readers and chunks. */
class ChunkCacheKeyTest {

  @Test
  void keysOfNeighbouringReadersAndChunksHashApart() {
    // 32 SSTables of 4,096 chunks and 512 index stretches each: with 31 * reader + item (a
    // record's hash) the 147,456 keys share about 4,600 hashes, 32 keys to a bucket
    Set<Integer> hashes = new HashSet<>();
    Map<Integer, Integer> perBucket = new HashMap<>();
    int keys = 0;
    int buckets = 1 << 18; // a table sized for the keys at ConcurrentHashMap's 0.75 load factor
    for (long reader = 1; reader <= 32; reader++) {
      for (int item = -512; item < 4096; item++) {
        int h = new ChunkCache.Key(reader, item).hashCode();
        hashes.add(h);
        int spread = (h ^ (h >>> 16)) & (buckets - 1); // ConcurrentHashMap.spread, then the index
        perBucket.merge(spread, 1, Integer::sum);
        keys++;
      }
    }
    assertTrue(hashes.size() > keys - 16, hashes.size() + " distinct hashes for " + keys + " keys");
    // as a random hash spreads them (this one leaves 0.3 % of the keys in buckets of 5 or more):
    // a record's hash leaves every key in a bucket of about 32
    long crowded =
        perBucket.values().stream().filter(c -> c >= 5).mapToLong(Integer::longValue).sum();
    assertTrue(
        crowded < keys / 100, crowded + " of " + keys + " keys share a bucket with 4 others");
  }

  @Test
  void equalityIsByReaderAndItem() {
    assertEquals(new ChunkCache.Key(3, 7), new ChunkCache.Key(3, 7));
    assertEquals(new ChunkCache.Key(3, 7).hashCode(), new ChunkCache.Key(3, 7).hashCode());
    assertNotEquals(new ChunkCache.Key(3, 7), new ChunkCache.Key(4, 7));
    assertNotEquals(new ChunkCache.Key(3, 7), new ChunkCache.Key(3, ~7));
    assertNotEquals(new ChunkCache.Key(4, 7), new ChunkCache.Key(3, 38));
  }
}
