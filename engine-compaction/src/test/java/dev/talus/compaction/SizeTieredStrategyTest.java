package dev.talus.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SizeTieredStrategyTest {
  static final long MIB = 1L << 20;
  static final long NOW = 10_000_000;
  static final long GC_BEFORE = NOW - 864_000;
  static final StrategyOptions.SizeTiered DEFAULTS = StrategyOptions.SizeTiered.defaults();

  private final SizeTieredStrategy stcs = new SizeTieredStrategy(DEFAULTS);
  private long nextGen = 1;

  private SyntheticSSTable sized(long bytes) {
    return SyntheticSSTable.builder(nextGen++).size(bytes).createdAt(NOW).build();
  }

  private static StrategyContext<SSTableInfo> ctx(List<? extends SSTableInfo> candidates) {
    return new StrategyContext<>(
        new ArrayList<>(candidates), List.of(), NOW, GC_BEFORE, Long.MAX_VALUE);
  }

  private static List<Long> sizes(List<SSTableInfo> l) {
    return l.stream().map(SSTableInfo::onDiskSize).toList();
  }

  @Test
  void similarSizesBucketTogetherAndOutliersDoNot() {
    List<SSTableInfo> in =
        List.of(
            sized(100 * MIB),
            sized(110 * MIB),
            sized(90 * MIB),
            sized(120 * MIB),
            sized(400 * MIB),
            sized(420 * MIB),
            sized(2000 * MIB));
    List<List<SSTableInfo>> b =
        SizeTieredStrategy.buckets(in, SSTableInfo::onDiskSize, 0.5, 1.5, 50 * MIB);
    assertThat(b).hasSize(3);
    assertThat(sizes(b.get(0))).containsExactly(90 * MIB, 100 * MIB, 110 * MIB, 120 * MIB);
    assertThat(sizes(b.get(1))).containsExactly(400 * MIB, 420 * MIB);
    assertThat(sizes(b.get(2))).containsExactly(2000 * MIB);
  }

  @Test
  void bucketBoundsAreStrictAgainstTheRunningAverage() {
    // 100 then 150: 150 is not < 100 * 1.5, so a new bucket; 149 joins.
    assertThat(
            SizeTieredStrategy.buckets(
                List.of(sized(100 * MIB), sized(150 * MIB)), SSTableInfo::onDiskSize, 0.5, 1.5, 0))
        .hasSize(2);
    assertThat(
            SizeTieredStrategy.buckets(
                List.of(sized(100 * MIB), sized(149 * MIB)), SSTableInfo::onDiskSize, 0.5, 1.5, 0))
        .hasSize(1);
    // The average moves: 100, 140 → avg 120, so 179 (< 180) joins though it is 1.79 × the first.
    assertThat(
            SizeTieredStrategy.buckets(
                List.of(sized(100 * MIB), sized(140 * MIB), sized(179 * MIB)),
                SSTableInfo::onDiskSize,
                0.5,
                1.5,
                0))
        .hasSize(1);
  }

  @Test
  void smallSSTablesAreLumpedTogether() {
    // 1 KiB and 40 MiB are far apart, but both below min_sstable_size (50 MiB).
    List<SSTableInfo> in =
        List.of(sized(1024), sized(40 * MIB), sized(3 * MIB), sized(49 * MIB), sized(60 * MIB));
    List<List<SSTableInfo>> b =
        SizeTieredStrategy.buckets(in, SSTableInfo::onDiskSize, 0.5, 1.5, 50 * MIB);
    assertThat(b).hasSize(2);
    assertThat(b.get(0)).hasSize(4);
    assertThat(b.get(1)).hasSize(1);
  }

  @Test
  void minThresholdIsRespected() {
    List<SSTableInfo> three = List.of(sized(MIB), sized(MIB), sized(MIB));
    assertThat(stcs.nextBackgroundTask(ctx(three))).isEmpty();
    List<SSTableInfo> four = new ArrayList<>(three);
    four.add(sized(MIB));
    Optional<CompactionPlan<SSTableInfo>> p = stcs.nextBackgroundTask(ctx(four));
    assertThat(p).isPresent();
    assertThat(p.get().inputs()).containsExactlyInAnyOrderElementsOf(four);
    assertThat(p.get().outputLevel()).isZero();
    assertThat(p.get().expired()).isEmpty();
  }

  @Test
  void maxThresholdTrimsKeepingTheSmallest() {
    List<SSTableInfo> in = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      in.add(sized(100 * MIB + i * MIB / 2));
    }
    CompactionPlan<SSTableInfo> p = stcs.nextBackgroundTask(ctx(in)).orElseThrow();
    assertThat(p.inputs()).hasSize(32);
    assertThat(p.inputs()).containsExactlyInAnyOrderElementsOf(in.subList(0, 32));
  }

  @Test
  void theBucketWithMostSSTablesWinsThenTheSmallest() {
    List<SSTableInfo> in = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      in.add(sized(100 * MIB));
    }
    for (int i = 0; i < 5; i++) {
      in.add(sized(1000 * MIB));
    }
    CompactionPlan<SSTableInfo> p = stcs.nextBackgroundTask(ctx(in)).orElseThrow();
    assertThat(p.inputs()).hasSize(5).allMatch(s -> s.onDiskSize() == 1000 * MIB);

    in.add(sized(1000 * MIB)); // 6 big
    in.add(sized(100 * MIB));
    in.add(sized(100 * MIB)); // 6 small
    p = stcs.nextBackgroundTask(ctx(in)).orElseThrow();
    assertThat(p.inputs()).hasSize(6).allMatch(s -> s.onDiskSize() == 100 * MIB);
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void randomSizesGiveAValidPlanDeterministically(long seed) {
    System.out.println("seed=" + seed);
    Random r = new Random(seed);
    List<SSTableInfo> in = new ArrayList<>();
    int n = 1 + r.nextInt(60);
    for (int i = 0; i < n; i++) {
      in.add(sized(1 + (long) (Math.pow(2, r.nextDouble() * 34))));
    }
    Optional<CompactionPlan<SSTableInfo>> p = stcs.nextBackgroundTask(ctx(in));
    assertThat(p).isEqualTo(stcs.nextBackgroundTask(ctx(in)));
    List<List<SSTableInfo>> buckets =
        SizeTieredStrategy.buckets(in, SSTableInfo::onDiskSize, 0.5, 1.5, 50 * MIB);
    assertThat(buckets.stream().mapToInt(List::size).sum()).isEqualTo(n);
    boolean anyQualifies = buckets.stream().anyMatch(b -> b.size() >= 4);
    assertThat(p.isPresent()).as("seed %s", seed).isEqualTo(anyQualifies);
    p.ifPresent(
        plan -> {
          assertThat(plan.inputs().size()).isBetween(4, 32);
          assertThat(in).containsAll(plan.inputs());
          // every input of the plan sits in one bucket
          assertThat(buckets).anyMatch(b -> b.containsAll(plan.inputs()));
        });
  }

  @Test
  void neverPicksCompactingSSTables() {
    List<SSTableInfo> cands = List.of(sized(MIB), sized(MIB), sized(MIB));
    List<SSTableInfo> compacting = List.of(sized(MIB), sized(MIB));
    StrategyContext<SSTableInfo> c =
        new StrategyContext<>(cands, compacting, NOW, GC_BEFORE, Long.MAX_VALUE);
    assertThat(stcs.nextBackgroundTask(c)).isEmpty();
  }

  @Test
  void majorCompactionIsOnePlanOfAllCandidates() {
    List<SSTableInfo> in = List.of(sized(MIB), sized(1000 * MIB), sized(5));
    List<CompactionPlan<SSTableInfo>> plans = stcs.majorCompaction(ctx(in));
    assertThat(plans).hasSize(1);
    assertThat(plans.get(0).inputs()).containsExactlyElementsOf(in);
    assertThat(stcs.majorCompaction(ctx(List.of()))).isEmpty();
  }

  @Test
  void invalidOptionsAreRejected() {
    var t = StrategyOptions.Tombstones.DEFAULTS;
    assertThatThrownBy(
            () ->
                new SizeTieredStrategy(
                    new StrategyOptions.SizeTiered(4, 32, 1.5, 0.5, 50 * MIB, t)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bucket_low");
    assertThatThrownBy(
            () ->
                new SizeTieredStrategy(new StrategyOptions.SizeTiered(4, 2, 0.5, 1.5, 50 * MIB, t)))
        .hasMessageContaining("max_threshold");
    assertThat(stcs.describe()).contains("min_threshold=4");
  }

  // ---- single-SSTable tombstone compaction ----

  private static final long DAY = 86_400;

  private SyntheticSSTable.Builder tomb(double ratio) {
    return SyntheticSSTable.builder(nextGen++)
        .size(10 * MIB)
        .createdAt(NOW - 2 * DAY)
        .droppableRatio(ratio)
        .tokens(0, 1000);
  }

  @Test
  void tombstoneCompactionOnlyWhenNoBucketQualifies() {
    SyntheticSSTable heavy = tomb(0.5).build();
    CompactionPlan<SSTableInfo> p = stcs.nextBackgroundTask(ctx(List.of(heavy))).orElseThrow();
    assertThat(p.inputs()).containsExactly(heavy);
    assertThat(p.reason()).contains("tombstone");

    List<SSTableInfo> withBucket = new ArrayList<>(List.of(heavy));
    for (int i = 0; i < 4; i++) {
      withBucket.add(sized(MIB).withTokens(5000, 6000));
    }
    CompactionPlan<SSTableInfo> q = stcs.nextBackgroundTask(ctx(withBucket)).orElseThrow();
    assertThat(q.inputs()).hasSize(5).contains(heavy); // heavy (10 MiB) is lumped with the small
  }

  @Test
  void tombstoneCompactionNeedsAgeAndRatio() {
    var opts = StrategyOptions.Tombstones.DEFAULTS;
    StrategyContext<SSTableInfo> none = ctx(List.of());
    assertThat(TombstoneCompaction.worthDroppingTombstones(tomb(0.5).build(), none, opts)).isTrue();
    // too young: exactly the interval old is old enough, one second less is not
    assertThat(
            TombstoneCompaction.worthDroppingTombstones(
                tomb(0.5).createdAt(NOW - DAY).build(), none, opts))
        .isTrue();
    assertThat(
            TombstoneCompaction.worthDroppingTombstones(
                tomb(0.5).createdAt(NOW - DAY + 1).build(), none, opts))
        .isFalse();
    // ratio must be strictly above the threshold
    assertThat(TombstoneCompaction.worthDroppingTombstones(tomb(0.2).build(), none, opts))
        .isFalse();
    assertThat(TombstoneCompaction.worthDroppingTombstones(tomb(0.21).build(), none, opts))
        .isTrue();
  }

  @Test
  void tombstoneCompactionChecksOverlap() {
    var opts = StrategyOptions.Tombstones.DEFAULTS;
    SyntheticSSTable heavy = tomb(0.5).tokens(0, 1000).timestamps(500, 600).build();
    // An overlapping SSTable covering the whole range with live data: blocked.
    SyntheticSSTable cover = tomb(0).tokens(-10, 2000).timestamps(1, 1000).build();
    assertThat(TombstoneCompaction.worthDroppingTombstones(heavy, ctx(List.of(heavy, cover)), opts))
        .isFalse();
    // ... unless unchecked
    var unchecked = new StrategyOptions.Tombstones(0.2, DAY, true);
    assertThat(
            TombstoneCompaction.worthDroppingTombstones(
                heavy, ctx(List.of(heavy, cover)), unchecked))
        .isTrue();
    // ... or the overlap is only a compacting SSTable elsewhere in the ring: no overlap
    SyntheticSSTable far = tomb(0).tokens(5000, 6000).build();
    assertThat(TombstoneCompaction.worthDroppingTombstones(heavy, ctx(List.of(heavy, far)), opts))
        .isTrue();
    // compacting SSTables count as overlapping too
    StrategyContext<SSTableInfo> compacting =
        new StrategyContext<>(List.of(heavy), List.of(cover), NOW, GC_BEFORE, Long.MAX_VALUE);
    assertThat(TombstoneCompaction.worthDroppingTombstones(heavy, compacting, opts)).isFalse();
  }

  @Test
  void tombstoneCompactionOfAFullyExpiredSSTableIgnoresOverlap() {
    var opts = StrategyOptions.Tombstones.DEFAULTS;
    SyntheticSSTable expired =
        tomb(1.0).timestamps(10, 20).maxLocalDeletionTime(GC_BEFORE - 1).build();
    SyntheticSSTable newer = tomb(0).tokens(-10, 2000).timestamps(21, 1000).build();
    assertThat(
            TombstoneCompaction.worthDroppingTombstones(
                expired, ctx(List.of(expired, newer)), opts))
        .isTrue();
    // Older live data overlapping it: not fully expired (it may shadow that data).
    SyntheticSSTable older = tomb(0).tokens(-10, 2000).timestamps(5, 1000).build();
    assertThat(
            TombstoneCompaction.worthDroppingTombstones(
                expired, ctx(List.of(expired, older)), opts))
        .isFalse();
    // A memtable with older data blocks it too.
    StrategyContext<SSTableInfo> mem =
        new StrategyContext<>(List.of(expired, newer), List.of(), NOW, GC_BEFORE, 15);
    assertThat(TombstoneCompaction.worthDroppingTombstones(expired, mem, opts)).isFalse();
  }

  @Test
  void partialOverlapUsesTheShareOfTheRangeOutsideIt() {
    var opts = StrategyOptions.Tombstones.DEFAULTS;
    SyntheticSSTable heavy = tomb(0.5).tokens(0, 1000).build();
    // overlaps 30% of the range: 0.7 × 0.5 = 0.35 > 0.2
    SyntheticSSTable part = tomb(0).tokens(700, 5000).build();
    assertThat(TombstoneCompaction.remainingKeyShare(heavy, List.of(part)))
        .isCloseTo(0.7, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(TombstoneCompaction.worthDroppingTombstones(heavy, ctx(List.of(heavy, part)), opts))
        .isTrue();
    // two overlaps leaving 30%: 0.3 × 0.5 = 0.15 < 0.2
    SyntheticSSTable other = tomb(0).tokens(-50, 400).build();
    assertThat(TombstoneCompaction.remainingKeyShare(heavy, List.of(part, other)))
        .isCloseTo(0.3, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(
            TombstoneCompaction.worthDroppingTombstones(
                heavy, ctx(List.of(heavy, part, other)), opts))
        .isFalse();
    // too few partitions to estimate: no
    SyntheticSSTable tiny = tomb(0.5).tokens(0, 1000).partitions(100).build();
    assertThat(TombstoneCompaction.worthDroppingTombstones(tiny, ctx(List.of(tiny, part)), opts))
        .isFalse();
  }

  @Test
  void stcsPicksTheLargestEligibleSSTable() {
    SyntheticSSTable small = tomb(0.9).size(MIB).tokens(0, 10).build();
    SyntheticSSTable large = tomb(0.3).size(500 * MIB).tokens(100, 110).build();
    SyntheticSSTable young = tomb(0.9).size(900 * MIB).tokens(200, 210).createdAt(NOW).build();
    CompactionPlan<SSTableInfo> p =
        stcs.nextBackgroundTask(ctx(List.of(small, large, young))).orElseThrow();
    assertThat(p.inputs()).containsExactly(large);
  }
}
