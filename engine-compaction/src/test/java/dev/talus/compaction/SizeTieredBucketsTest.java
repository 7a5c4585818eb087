package dev.talus.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SizeTieredBucketsTest {
  private static final long MIB = 1L << 20;

  private static FakeSSTable sized(long gen, long bytes) {
    return FakeSSTable.builder(gen).size(bytes).build();
  }

  @Test
  void similarSizesShareABucketAndSmallOnesAreLumpedTogether() {
    List<FakeSSTable> sstables =
        List.of(
            sized(1, 1 * MIB),
            sized(2, 40 * MIB), // both below 50 MiB: one bucket
            sized(3, 100 * MIB),
            sized(4, 120 * MIB),
            sized(5, 400 * MIB));
    List<List<SSTableInfo>> buckets = SizeTieredBuckets.buckets(sstables, 0.5, 1.5, 50 * MIB);
    assertThat(buckets)
        .containsExactly(
            List.of(sstables.get(0), sstables.get(1)),
            List.of(sstables.get(2), sstables.get(3)),
            List.of(sstables.get(4)));
  }

  @Test
  void boundsAreStrict() {
    // 150 is not strictly below 100 · 1.5
    assertThat(
            SizeTieredBuckets.buckets(
                List.of(sized(1, 100 * MIB), sized(2, 150 * MIB)), 0.5, 1.5, 50 * MIB))
        .hasSize(2);
  }

  @Test
  void mostInterestingHasTheMostSSTablesThenTheSmallestTotal() {
    List<SSTableInfo> small = new ArrayList<>();
    List<SSTableInfo> big = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      small.add(sized(i, 10));
      big.add(sized(10 + i, 1000));
    }
    List<SSTableInfo> three = List.of(sized(20, 5), sized(21, 5), sized(22, 5));
    assertThat(SizeTieredBuckets.mostInteresting(List.of(big, three, small), 4, 32))
        .isEqualTo(small);
    assertThat(SizeTieredBuckets.mostInteresting(List.of(three), 4, 32)).isEmpty();
  }

  @Test
  void bucketsAreTrimmedToMaxThresholdKeepingTheSmallest() {
    List<FakeSSTable> sstables = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      sstables.add(sized(i, 1000 - i));
    }
    List<SSTableInfo> picked =
        SizeTieredBuckets.pick(sstables, StrategyOptions.SizeTiered.defaults());
    assertThat(picked).hasSize(32).allMatch(s -> s.onDiskSize() <= 992);
  }
}
