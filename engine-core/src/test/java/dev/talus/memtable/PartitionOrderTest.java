package dev.talus.memtable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.data.PartitionKey;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link PartitionOrder} against a sorted map: the same partitions in the same (token, key) order
 * from every starting key, whatever the tokens (Murmur3 ones, equal ones, the extremes), and a
 * reader racing the writer meets every partition added before it began, once, in order. Seeded;
 * replay with {@code -Dtalus.memtable.seed=N}.
 */
class PartitionOrderTest {
  /**
   * A key with a Murmur3 token, or now and then one of a few fixed tokens (collisions, extremes).
   */
  private static PartitionKey randomKey(Random rnd) {
    byte[] k = new byte[1 + rnd.nextInt(6)];
    rnd.nextBytes(k);
    return switch (rnd.nextInt(20)) {
      case 0 -> PartitionKey.of(k, Long.MIN_VALUE, 0);
      case 1 -> PartitionKey.of(k, Long.MAX_VALUE, 0);
      case 2 -> PartitionKey.of(k, 0, 0);
      case 3 -> PartitionKey.of(k, -1, 0);
      default -> PartitionKey.of(k);
    };
  }

  private static List<PartitionKey> keysOf(Iterator<MemPartition> it) {
    List<PartitionKey> out = new ArrayList<>();
    it.forEachRemaining(p -> out.add(p.key()));
    return out;
  }

  @Test
  void holdsThePartitionsInTokenThenKeyOrderFromAnyKey() {
    long seed = MemtableSeed.next(PartitionOrderTest.class);
    Random rnd = new Random(seed);
    for (int round = 0; round < 20; round++) {
      PartitionOrder order = new PartitionOrder();
      NavigableMap<PartitionKey, MemPartition> model = new TreeMap<>();
      long accounted = 0;
      int n = rnd.nextInt(3) == 0 ? rnd.nextInt(40) : rnd.nextInt(3_000);
      while (model.size() < n) {
        PartitionKey k = randomKey(rnd);
        if (model.containsKey(k)) {
          continue;
        }
        MemPartition p = new MemPartition(k);
        model.put(k, p);
        accounted += order.addPartition(p);
        if (rnd.nextInt(200) == 0 || model.size() == n) {
          String what = "seed " + seed + ", round " + round + ", " + model.size() + " partitions";
          assertThat(order.size()).as(what).isEqualTo(model.size());
          assertThat(keysOf(order.iterator())).as(what).isEqualTo(List.copyOf(model.keySet()));
          assertThat(accounted).as(what + ": the bytes added up").isEqualTo(order.heapSize());
          for (int q = 0; q < 20; q++) {
            PartitionKey from = rnd.nextBoolean() ? randomKey(rnd) : randomExisting(rnd, model);
            boolean inclusive = rnd.nextBoolean();
            assertThat(keysOf(order.from(from, inclusive)))
                .as("%s, from %s inclusive %s", what, from, inclusive)
                .isEqualTo(List.copyOf(model.tailMap(from, inclusive).keySet()));
          }
        }
      }
      assertThat(order.isEmpty()).isEqualTo(model.isEmpty());
    }
  }

  private static PartitionKey randomExisting(Random rnd, NavigableMap<PartitionKey, ?> model) {
    if (model.isEmpty()) {
      return PartitionKey.of(new byte[] {1});
    }
    PartitionKey k = model.ceilingKey(PartitionKey.of(new byte[] {(byte) rnd.nextInt()}));
    return k == null ? model.firstKey() : k;
  }

  @Test
  void aReaderRacingTheWriterMeetsEveryEarlierPartitionOnceInOrder() throws Exception {
    long seed = MemtableSeed.next(PartitionOrderTest.class);
    Random rnd = new Random(seed);
    int n = 60_000;
    List<PartitionKey> keys = new ArrayList<>();
    java.util.Set<PartitionKey> distinct = new java.util.HashSet<>();
    while (keys.size() < n) {
      byte[] k = new byte[8];
      rnd.nextBytes(k);
      PartitionKey key = PartitionKey.of(k);
      if (distinct.add(key)) {
        keys.add(key);
      }
    }
    PartitionOrder order = new PartitionOrder();
    AtomicReference<String> failure = new AtomicReference<>();
    Thread reader =
        new Thread(
            () -> {
              int passes = 0;
              while (order.size() < n && failure.get() == null) {
                int before = order.size(); // the first `before` keys were all added by now
                java.util.Set<PartitionKey> seen = new java.util.HashSet<>();
                PartitionKey last = null;
                for (MemPartition p : order) {
                  PartitionKey k = p.key();
                  if (last != null && last.compareTo(k) >= 0) {
                    failure.set("out of order after " + passes + " passes: " + last + ", " + k);
                    return;
                  }
                  seen.add(k);
                  last = k;
                }
                for (int i = 0; i < before; i++) {
                  if (!seen.contains(keys.get(i))) {
                    failure.set("pass " + passes + " missed partition " + i + " of " + before);
                    return;
                  }
                }
                passes++;
              }
            });
    reader.start();
    for (PartitionKey k : keys) {
      order.addPartition(new MemPartition(k));
    }
    reader.join();
    assertThat(failure.get()).as("seed %d", seed).isNull();
    assertThat(order.size()).isEqualTo(n);
  }
}
