package dev.talus.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.data.PartitionKey;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BloomFilterTest {
  @Test
  void falsePositiveRateWithinTolerance() {
    long seed = 7;
    System.out.println("seed=" + seed);
    SplittableRandom r = new SplittableRandom(seed);
    int n = 100_000;
    BloomFilter f = BloomFilter.create(n, 0.01);
    long[][] added = new long[n][];
    for (int i = 0; i < n; i++) {
      added[i] = new long[] {r.nextLong(), r.nextLong()};
      f.add(added[i][0], added[i][1]);
    }
    for (long[] h : added) {
      assertThat(f.mayContain(h[0], h[1])).isTrue();
    }
    int fp = 0;
    int probes = 1_000_000;
    for (int i = 0; i < probes; i++) {
      if (f.mayContain(r.nextLong(), r.nextLong())) {
        fp++;
      }
    }
    double rate = (double) fp / probes;
    System.out.println("false-positive rate " + rate + " with " + f.sizeInBytes() + " bytes");
    assertThat(rate).isLessThan(0.015);
  }

  @Test
  void realKeysUseTokenAndHash2() {
    BloomFilter f = BloomFilter.create(1000, 0.01);
    for (int i = 0; i < 1000; i++) {
      f.add(PartitionKey.of(("k" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
    for (int i = 0; i < 1000; i++) {
      assertThat(
              f.mayContain(
                  PartitionKey.of(("k" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8))))
          .isTrue();
    }
  }

  @Test
  void fpChanceOneDisablesTheFilter() {
    BloomFilter f = BloomFilter.create(1000, 1.0);
    assertThat(f.isAlwaysPresent()).isTrue();
    assertThat(f.mayContain(1, 2)).isTrue();
  }
}
