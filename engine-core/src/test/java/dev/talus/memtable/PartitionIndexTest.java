package dev.talus.memtable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.talus.data.PartitionKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The memtable's hash index of partitions against a map, with colliding tokens, and lookups racing
 * additions. Seeded; replay with {@code -Dtalus.memtable.seed=N}.
 */
class PartitionIndexTest {
  /** A key whose token is one of few, so many keys share a token and probe past each other. */
  private static PartitionKey key(Random rnd, int tokens) {
    byte[] k = new byte[1 + rnd.nextInt(6)];
    rnd.nextBytes(k);
    long token = rnd.nextInt(tokens) * 0x9E3779B97F4A7C15L;
    return PartitionKey.of(k, token, 0);
  }

  @Test
  void findsWhatWasAddedAndNothingElse() {
    long seed = MemtableSeed.next(PartitionIndexTest.class);
    Random rnd = new Random(seed);
    PartitionIndex index = new PartitionIndex();
    Map<PartitionKey, MemPartition> model = new HashMap<>();
    assertEquals(0, index.heapSize(), "an empty index holds nothing yet");
    for (int i = 0; i < 20_000; i++) {
      PartitionKey k = key(rnd, 1 + rnd.nextInt(3) * 500);
      MemPartition found = index.get(k);
      assertSame(model.get(k), found, "seed " + seed + ", step " + i);
      if (found == null) {
        MemPartition p = new MemPartition(k);
        long before = index.heapSize();
        long grown = index.add(p);
        assertEquals(before + grown, index.heapSize(), "seed " + seed);
        model.put(k, p);
      }
    }
    for (var e : model.entrySet()) {
      assertSame(e.getValue(), index.get(e.getKey()), "seed " + seed);
    }
    assertNull(index.get(PartitionKey.of(new byte[20])), "seed " + seed);
  }

  @Test
  void aLookupFindsEveryPartitionAddedBeforeItBeganWhileTheTableGrows() throws Exception {
    long seed = MemtableSeed.next(PartitionIndexTest.class);
    Random rnd = new Random(seed);
    PartitionIndex index = new PartitionIndex();
    List<PartitionKey> keys = new ArrayList<>();
    for (int i = 0; i < 50_000; i++) {
      PartitionKey k = key(rnd, 40_000);
      if (!keys.contains(k)) {
        keys.add(k);
      }
    }
    AtomicInteger added = new AtomicInteger();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread writer =
        new Thread(
            () -> {
              for (PartitionKey k : keys) {
                synchronized (index) {
                  index.add(new MemPartition(k));
                }
                added.incrementAndGet();
              }
            });
    writer.start();
    Random reads = new Random(seed + 1);
    while (added.get() < keys.size() && failure.get() == null) {
      int before = added.get();
      if (before == 0) {
        continue;
      }
      PartitionKey k = keys.get(reads.nextInt(before));
      MemPartition p = index.get(k);
      if (p == null || !p.key().equals(k)) {
        failure.set(new AssertionError("seed " + seed + ": lost " + k));
      }
    }
    writer.join();
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    for (PartitionKey k : keys) {
      assertEquals(k, index.get(k).key(), "seed " + seed);
    }
  }
}
