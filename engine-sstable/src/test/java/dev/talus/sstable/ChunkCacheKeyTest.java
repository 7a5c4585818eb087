package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChunkCacheKeyTest {
  @Test
  void keysOfNeighbouringReadersDoNotShareHashes() {
    // 64 readers with consecutive ids, 4,096 chunks and 256 index stretches each: the shape of a
    // cache shared by a few dozen SSTables. A hash of 31 * reader + item gives about 6,300
    // distinct values for these 278,528 keys; a mixed one gives nearly one per key.
    Set<Integer> hashes = new HashSet<>();
    int keys = 0;
    for (long reader = 1; reader <= 64; reader++) {
      for (int chunk = 0; chunk < 4096; chunk++) {
        hashes.add(new ChunkCache.Key(reader, chunk).hashCode());
        keys++;
      }
      for (int stretch = 0; stretch < 256; stretch++) {
        hashes.add(new ChunkCache.Key(reader, ~stretch).hashCode());
        keys++;
      }
    }
    assertThat(hashes.size()).isGreaterThan(keys * 99 / 100);
  }

  @Test
  void equalityIsByReaderAndItem() {
    ChunkCache.Key k = new ChunkCache.Key(7, 42);
    assertThat(k).isEqualTo(new ChunkCache.Key(7, 42)).hasSameHashCodeAs(new ChunkCache.Key(7, 42));
    assertThat(k).isNotEqualTo(new ChunkCache.Key(8, 42)).isNotEqualTo(new ChunkCache.Key(7, 43));
    assertThat(new ChunkCache.Key(7, ~42)).isNotEqualTo(k);
  }
}
