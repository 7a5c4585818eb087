package dev.talus.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LeveledStrategyTest {
  private static final long S = 1000;
  private static final LeveledStrategy LCS =
      new LeveledStrategy(new StrategyOptions.Leveled(S, 10, StrategyOptions.Tombstones.DEFAULTS));

  private static StrategyContext<SSTableInfo> context(List<? extends SSTableInfo> candidates) {
    return context(candidates, List.of());
  }

  private static StrategyContext<SSTableInfo> context(
      List<? extends SSTableInfo> candidates, List<? extends SSTableInfo> compacting) {
    return new StrategyContext<>(
        List.copyOf(candidates), List.copyOf(compacting), 1_000_000, 0, Long.MAX_VALUE);
  }

  private static FakeSSTable sst(long gen, int level, long size, long first, long last) {
    return FakeSSTable.builder(gen).level(level).size(size).tokens(first, last).build();
  }

  /**
   * {@code count} SSTables in {@code level} of one sstable size each, side by side from token 0.
   */
  private static List<FakeSSTable> run(long firstGen, int level, int count, long width) {
    List<FakeSSTable> run = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      run.add(sst(firstGen + i, level, S, i * width, i * width + width - 1));
    }
    return run;
  }

  private static LeveledStrategy lcs(long levelBase) {
    return new LeveledStrategy(
        new StrategyOptions.Leveled(S, 10, levelBase, StrategyOptions.Tombstones.DEFAULTS));
  }

  private static long[] levelBytes(int level, long bytes) {
    long[] b = new long[LeveledStrategy.MAX_LEVEL_COUNT];
    b[level] = bytes;
    return b;
  }

  @Test
  void twoL0SSTablesCompactOnceReadsHavePaidForThePlan() {
    List<FakeSSTable> base = run(10, 8, 3, 100); // 3 × 1000 bytes under the L0 span
    FakeSSTable a = sst(1, 0, 100, 0, 299);
    FakeSSTable b = sst(2, 0, 100, 50, 250);
    List<SSTableInfo> quiet = new ArrayList<>(base);
    quiet.addAll(List.of(a, b));
    assertThat(LCS.nextBackgroundTask(context(quiet))).as("below the L0 trigger").isEmpty();

    // the plan rewrites 3,200 bytes; one charged read is worth 16 KiB of compaction
    FakeSSTable worn =
        FakeSSTable.builder(2).level(0).size(100).tokens(50, 250).seeks(true, 1).build();
    List<SSTableInfo> read = new ArrayList<>(base);
    read.addAll(List.of(a, worn));
    CompactionPlan<SSTableInfo> p = LCS.nextBackgroundTask(context(read)).orElseThrow();
    assertThat(p.outputLevel()).isEqualTo(8);
    assertThat(p.inputs()).contains(a, worn).containsAll(base);

    List<SSTableInfo> alone = new ArrayList<>(base);
    alone.add(worn);
    assertThat(LCS.nextBackgroundTask(context(alone)))
        .as("one L0 SSTable: reads pay for two sources at most")
        .isEmpty();

    FakeSSTable notYet =
        FakeSSTable.builder(2).level(0).size(100).tokens(50, 250).seeks(false, 5).build();
    List<SSTableInfo> early = new ArrayList<>(base);
    early.addAll(List.of(a, notYet));
    assertThat(LCS.nextBackgroundTask(context(early))).as("allowance not used up").isEmpty();
  }

  @Test
  void aSeekCompactionWaitsUntilReadsHavePaidForRewritingTheBaseLevel() {
    long big = 100L * LeveledStrategy.BYTES_PER_SEEK; // the base level: 300 seeks' worth
    List<FakeSSTable> base = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      base.add(sst(10 + i, 8, big, i * 100, i * 100 + 99));
    }
    FakeSSTable a = sst(1, 0, 100, 0, 299);
    List<SSTableInfo> cheapReads = new ArrayList<>(base);
    cheapReads.add(a);
    cheapReads.add(
        FakeSSTable.builder(2).level(0).size(100).tokens(0, 299).seeks(true, 200).build());
    assertThat(LCS.nextBackgroundTask(context(cheapReads)))
        .as("200 reads do not pay for rewriting 300 seeks' worth")
        .isEmpty();
    List<SSTableInfo> paid = new ArrayList<>(base);
    paid.add(a);
    paid.add(FakeSSTable.builder(2).level(0).size(100).tokens(0, 299).seeks(true, 301).build());
    assertThat(LCS.nextBackgroundTask(context(paid)).orElseThrow().reason())
        .contains("reads merged");
  }

  @Test
  void levelTargetsGrowFromTheBottomLevel() {
    LevelTargets empty = LevelTargets.of(new long[9], 10, 256);
    assertThat(empty.baseLevel()).isEqualTo(8);
    assertThat(empty.target(8)).isEqualTo(256);

    LevelTargets small = LevelTargets.of(levelBytes(8, 100), 10, 256);
    assertThat(small.baseLevel()).as("small data: L0 goes straight to the bottom").isEqualTo(8);

    LevelTargets over = LevelTargets.of(levelBytes(8, 300), 10, 256);
    assertThat(over.baseLevel()).isEqualTo(7);
    assertThat(over.target(7)).isEqualTo(256);
    assertThat(over.target(8)).isEqualTo(300);

    LevelTargets big = LevelTargets.of(levelBytes(8, 30_000), 10, 256);
    assertThat(big.baseLevel()).isEqualTo(5);
    assertThat(big.target(5)).as("never below the level base").isEqualTo(256);
    assertThat(big.target(6)).isEqualTo(300);
    assertThat(big.target(7)).isEqualTo(3_000);
    assertThat(big.target(8)).isEqualTo(30_000);
    assertThat(big.target(4)).as("above the base level: drained").isZero();
    assertThat(big.target(0)).isEqualTo(Long.MAX_VALUE);

    LevelTargets legacy = LevelTargets.of(levelBytes(1, 1_000), 10, 256);
    assertThat(legacy.baseLevel()).isEqualTo(7);
    assertThat(legacy.target(1)).as("data left at L1 by an older layout moves down").isZero();

    LevelTargets huge = LevelTargets.of(levelBytes(8, Long.MAX_VALUE / 2), 2, 1);
    assertThat(huge.baseLevel()).isEqualTo(1);
    assertThat(huge.target(8)).isPositive();
  }

  @Test
  void optionsAreValidated() {
    assertThatThrownBy(
            () ->
                new LeveledStrategy(
                    new StrategyOptions.Leveled(S, 1, StrategyOptions.Tombstones.DEFAULTS)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fanout");
    assertThatThrownBy(() -> lcs(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("levelBaseBytes");
    assertThat(StrategyOptions.Leveled.defaults().levelBaseBytes()).isEqualTo(256L << 20);
  }

  @Test
  void nothingToDoForOneFlush() {
    assertThat(LCS.nextBackgroundTask(context(List.of(sst(1, 0, 10, 0, 100))))).isEmpty();
    assertThat(LCS.nextBackgroundTask(context(List.of()))).isEmpty();
  }

  @Test
  void l0WaitsForFourSSTables() {
    List<FakeSSTable> l0 = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      l0.add(sst(i, 0, 300, 0, 1000));
    }
    FakeSSTable bottom = sst(10, 8, S, 0, 1000);
    List<FakeSSTable> all = new ArrayList<>(l0);
    all.add(bottom);
    assertThat(LCS.nextBackgroundTask(context(all))).as("3 L0 SSTables wait").isEmpty();

    FakeSSTable fourth = sst(4, 0, 300, 0, 1000);
    all.add(fourth);
    CompactionPlan<SSTableInfo> plan = LCS.nextBackgroundTask(context(all)).orElseThrow();
    assertThat(plan.inputs()).containsExactlyInAnyOrderElementsOf(all);
    assertThat(plan.outputLevel()).as("small data: the bottom level is the base").isEqualTo(8);
    assertThat(plan.maxOutputBytes()).isEqualTo(S);
  }

  @Test
  void l0HoldingALevelBaseOfBytesGoesDownBeforeFourSSTables() {
    LeveledStrategy lcs = lcs(1_000);
    FakeSSTable a = sst(1, 0, 600, 0, 100);
    FakeSSTable b = sst(2, 0, 500, 50, 150);
    CompactionPlan<SSTableInfo> plan = lcs.nextBackgroundTask(context(List.of(a, b))).orElseThrow();
    assertThat(plan.inputs()).containsExactlyInAnyOrder(a, b);
    assertThat(plan.outputLevel()).isEqualTo(8);
  }

  @Test
  void l0ToTheBaseLevelTakesEveryBaseSSTableOverlappingTheirSpan() {
    LeveledStrategy lcs = lcs(5 * S); // 30·S at L8: the base level is L7, target 5·S
    FakeSSTable a = sst(1, 0, 100, 0, 100);
    FakeSSTable b = sst(2, 0, 100, 50, 150);
    FakeSSTable c = sst(3, 0, 100, 500, 600);
    FakeSSTable d = sst(4, 0, 100, 520, 560);
    FakeSSTable x = sst(10, 7, S, 0, 40);
    FakeSSTable y = sst(11, 7, S, 120, 200); // overlaps only the span between b and c
    FakeSSTable gap = sst(12, 7, S, 300, 400); // overlaps no L0 SSTable, but sits inside the span
    FakeSSTable z = sst(13, 7, S, 700, 800);
    FakeSSTable bottom = sst(20, 8, 30 * S, 0, 1000);
    CompactionPlan<SSTableInfo> plan =
        lcs.nextBackgroundTask(context(List.of(d, c, b, a, x, y, gap, z, bottom))).orElseThrow();
    assertThat(plan.inputs()).containsExactlyInAnyOrder(a, b, c, d, x, y, gap);
    assertThat(plan.outputLevel()).isEqualTo(7);
    assertThat(plan.reason()).isEqualTo("L0 to L7: 4 L0 SSTables");
  }

  @Test
  void l0WaitsWhenAnOverlappingBaseSSTableIsCompacting() {
    List<FakeSSTable> l0 = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      l0.add(sst(i, 0, 600, 0, 100));
    }
    FakeSSTable busy = sst(10, 8, S, 90, 120);
    assertThat(LCS.nextBackgroundTask(context(l0, List.of(busy)))).isEmpty();
  }

  @Test
  void l0SkipsSSTablesOverlappingCompactingL0() {
    FakeSSTable busy = sst(1, 0, 600, 0, 100);
    FakeSSTable a = sst(2, 0, 600, 50, 150);
    List<FakeSSTable> idle = new ArrayList<>(List.of(a));
    for (int i = 0; i < 4; i++) {
      idle.add(sst(3 + i, 0, 300, 500 + 10 * i, 700));
    }
    CompactionPlan<SSTableInfo> plan =
        LCS.nextBackgroundTask(context(idle, List.of(busy))).orElseThrow();
    assertThat(plan.inputs()).containsExactlyInAnyOrderElementsOf(idle.subList(1, 5));
    assertThat(plan.outputLevel()).isEqualTo(8);
  }

  @Test
  void aLevelOverItsTargetMovesTheSSTableWithTheLeastOverlapBelow() {
    LeveledStrategy lcs = lcs(4 * S);
    // 100·S at L8: L7's target is 10·S and it holds 11·S; the base level is L6 (target 4·S)
    List<FakeSSTable> sstables = new ArrayList<>(run(100, 7, 11, 100));
    FakeSSTable n1 = sst(1, 8, 50 * S, 0, 149); // under L7's first two SSTables
    FakeSSTable n2 = sst(2, 8, 40 * S, 150, 650);
    FakeSSTable n3 = sst(3, 8, 10 * S, 651, 2000); // small, under L7's last SSTables
    sstables.addAll(List.of(n1, n2, n3));
    assertThat(lcs.targets(sstables).baseLevel()).isEqualTo(6);
    CompactionPlan<SSTableInfo> plan = lcs.nextBackgroundTask(context(sstables)).orElseThrow();
    assertThat(plan.inputs()).containsExactlyInAnyOrder(sstables.get(7), n3);
    assertThat(plan.outputLevel()).isEqualTo(8);
    assertThat(plan.maxOutputBytes()).isEqualTo(S);

    // with n3 compacting, everything over it waits; the next least-overlapping one goes
    List<FakeSSTable> candidates = new ArrayList<>(sstables);
    candidates.remove(n3);
    CompactionPlan<SSTableInfo> next =
        lcs.nextBackgroundTask(context(candidates, List.of(n3))).orElseThrow();
    assertThat(next.inputs()).containsExactlyInAnyOrder(sstables.get(2), n2);
  }

  @Test
  void theHighestScoreGoesFirst() {
    LeveledStrategy lcs = lcs(4 * S);
    List<FakeSSTable> sstables = new ArrayList<>(run(100, 6, 11, 100)); // 11·S / 4·S
    sstables.addAll(run(200, 7, 30, 40)); // 30·S / 10·S
    sstables.add(sst(300, 8, 100 * S, 0, 2000));
    for (int i = 1; i <= 4; i++) {
      sstables.add(sst(i, 0, 10, 0, 1000)); // score 1
    }
    assertThat(lcs.targets(sstables).baseLevel()).isEqualTo(6);
    CompactionPlan<SSTableInfo> plan = lcs.nextBackgroundTask(context(sstables)).orElseThrow();
    assertThat(plan.outputLevel()).isEqualTo(8);
  }

  @Test
  void dataAboveTheBaseLevelMovesIntoTheBaseLevel() {
    FakeSSTable legacy = sst(1, 1, S, 0, 100);
    FakeSSTable bottom = sst(2, 8, S, 50, 500);
    CompactionPlan<SSTableInfo> plan =
        LCS.nextBackgroundTask(context(List.of(legacy, bottom))).orElseThrow();
    assertThat(plan.inputs()).containsExactlyInAnyOrder(legacy, bottom);
    assertThat(plan.outputLevel()).isEqualTo(8);
    assertThat(plan.reason()).contains("above the base level");
  }

  @Test
  void sizeTieredInL0WhenL0IsFloodedAndCannotGoDown() {
    List<FakeSSTable> sstables = new ArrayList<>();
    for (int i = 0; i < 33; i++) {
      sstables.add(sst(i + 1, 0, 100, 0, 1000));
    }
    FakeSSTable busyBottom = sst(100, 8, S, 0, 1000);
    CompactionPlan<SSTableInfo> plan =
        LCS.nextBackgroundTask(context(sstables, List.of(busyBottom))).orElseThrow();
    assertThat(plan.reason()).startsWith("size-tiered in L0");
    assertThat(plan.outputLevel()).isZero();
    assertThat(plan.inputs()).hasSize(32).allMatch(s -> s.level() == 0);
    assertThat(plan.maxOutputBytes()).isEqualTo(Long.MAX_VALUE);

    // 32 in L0 and blocked: wait
    assertThat(LCS.nextBackgroundTask(context(sstables.subList(0, 31), List.of(busyBottom))))
        .isEmpty();
  }

  @Test
  void manyL0SSTablesGoToTheBaseLevel32AtATime() {
    List<FakeSSTable> sstables = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      sstables.add(sst(i + 1, 0, 100, 0, 1000));
    }
    CompactionPlan<SSTableInfo> plan = LCS.nextBackgroundTask(context(sstables)).orElseThrow();
    assertThat(plan.inputs()).hasSize(32).isEqualTo(sstables.subList(0, 32));
    assertThat(plan.outputLevel()).isEqualTo(8);
  }

  @Test
  void majorCompactionTakesEverythingToTheBottomLevel() {
    List<FakeSSTable> sstables = new ArrayList<>(run(100, 2, 3, 100));
    sstables.add(sst(1, 0, 10, 0, 1000));
    List<CompactionPlan<SSTableInfo>> plans = LCS.majorCompaction(context(sstables));
    assertThat(plans).hasSize(1);
    assertThat(plans.get(0).inputs()).containsExactlyInAnyOrderElementsOf(sstables);
    assertThat(plans.get(0).outputLevel()).isEqualTo(8);
    assertThat(LCS.majorCompaction(context(sstables.subList(1, 4), sstables.subList(0, 1))))
        .isEmpty();
  }

  @Test
  void fullRangeFlushesAreMergedDownOncePerFourFlushes() {
    // Every flush covers the whole token range, as with hashed partition keys. Cassandra's L0 rules
    // merged every two L0 SSTables and kept the result in L0, rewriting all of L0 on each flush.
    Sim sim = new Sim(LCS, new Random(1));
    long compacted = 0;
    int compactions = 0;
    for (int f = 0; f < 16; f++) {
      sim.live.add(FakeSSTable.builder(sim.nextGen++).size(100).tokens(0, 999_999).build());
      while (sim.start()) {
        compacted += SizeTieredBuckets.totalBytes(sim.inFlight.get(0).inputs());
        compactions++;
        sim.finish(0);
      }
    }
    assertThat(compactions).isEqualTo(4);
    assertThat(compacted).as("bytes merged").isEqualTo(400 + 800 + 1200 + 1600);
    assertThat(sim.live).allMatch(s -> s.level() == 8);
  }

  @Test
  void checkInvariantsReportsOverlapsOnlyAboveL0() {
    assertThat(
            LeveledStrategy.checkInvariants(List.of(sst(1, 0, S, 0, 100), sst(2, 0, S, 50, 150))))
        .isEmpty();
    assertThat(
            LeveledStrategy.checkInvariants(List.of(sst(1, 1, S, 0, 100), sst(2, 1, S, 101, 150))))
        .isEmpty();
    assertThat(
            LeveledStrategy.checkInvariants(List.of(sst(1, 2, S, 0, 100), sst(2, 2, S, 100, 150))))
        .singleElement()
        .asString()
        .contains("L2", "generation 1", "generation 2");
  }

  // ---- seeded random simulation ----

  /** Live SSTables plus compactions in flight, applying plans as a compaction task would. */
  private static final class Sim {
    final LeveledStrategy lcs;
    final Random rnd;
    final List<SSTableInfo> live = new ArrayList<>();
    final List<CompactionPlan<SSTableInfo>> inFlight = new ArrayList<>();
    long nextGen = 1;
    int sizeTieredRounds;

    Sim(LeveledStrategy lcs, Random rnd) {
      this.lcs = lcs;
      this.rnd = rnd;
    }

    void flush() {
      long first = rnd.nextInt(1_000_000);
      long width = rnd.nextBoolean() ? 1_000_000 : 1 + rnd.nextInt(50_000);
      live.add(
          FakeSSTable.builder(nextGen++)
              .size(50 + rnd.nextInt(350))
              .tokens(first, Math.min(999_999, first + width))
              .build());
    }

    StrategyContext<SSTableInfo> context() {
      Set<SSTableInfo> compacting = new HashSet<>();
      inFlight.forEach(p -> compacting.addAll(p.inputs()));
      List<SSTableInfo> candidates = new ArrayList<>();
      for (SSTableInfo s : live) {
        if (!compacting.contains(s)) {
          candidates.add(s);
        }
      }
      return new StrategyContext<>(candidates, List.copyOf(compacting), 0, 0, Long.MAX_VALUE);
    }

    /** Asks for a plan, checks it respects the contract, and marks its inputs compacting. */
    boolean start() {
      StrategyContext<SSTableInfo> context = context();
      Optional<CompactionPlan<SSTableInfo>> plan = lcs.nextBackgroundTask(context);
      assertThat(lcs.nextBackgroundTask(context)).as("pure function").isEqualTo(plan);
      if (plan.isEmpty()) {
        return false;
      }
      CompactionPlan<SSTableInfo> p = plan.get();
      assertThat(p.inputs()).isNotEmpty().doesNotHaveDuplicates();
      assertThat(context.candidates()).containsAll(p.inputs());
      for (SSTableInfo s : p.inputs()) {
        assertThat(p.outputLevel()).isGreaterThanOrEqualTo(s.level());
      }
      if (p.reason().startsWith("size-tiered")) {
        sizeTieredRounds++;
      }
      inFlight.add(p);
      return true;
    }

    /** Replaces a running plan's inputs by outputs covering their span, split at the size limit. */
    void finish(int index) {
      CompactionPlan<SSTableInfo> p = inFlight.remove(index);
      live.removeAll(p.inputs());
      long total = SizeTieredBuckets.totalBytes(p.inputs());
      long first = Long.MAX_VALUE;
      long last = Long.MIN_VALUE;
      for (SSTableInfo s : p.inputs()) {
        first = Math.min(first, s.firstKey().token());
        last = Math.max(last, s.lastKey().token());
      }
      long pieces =
          p.maxOutputBytes() == Long.MAX_VALUE
              ? 1
              : (total + p.maxOutputBytes() - 1) / p.maxOutputBytes();
      pieces = Math.max(1, Math.min(pieces, last - first + 1));
      long width = (last - first + 1) / pieces;
      for (long i = 0; i < pieces; i++) {
        long from = first + i * width;
        long to = i == pieces - 1 ? last : from + width - 1;
        long size = total / pieces + (i == pieces - 1 ? total % pieces : 0);
        live.add(
            FakeSSTable.builder(nextGen++)
                .level(p.outputLevel())
                .size(size)
                .tokens(from, to)
                .build());
      }
    }

    void assertSound(String when) {
      assertThat(LeveledStrategy.checkInvariants(live)).as(when).isEmpty();
    }
  }

  @ParameterizedTest(name = "seed={0}")
  @ValueSource(longs = {1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 0xDEADBEEFL, 20260101L})
  void randomFlushesKeepLevelsNonOverlappingAndWithinCapacity(long seed) {
    LeveledStrategy lcs =
        new LeveledStrategy(
            new StrategyOptions.Leveled(S, 4, 4 * S, StrategyOptions.Tombstones.DEFAULTS));
    Sim sim = new Sim(lcs, new Random(seed));
    String step = "";
    try {
      for (int i = 0; i < 600; i++) {
        int action = sim.rnd.nextInt(10);
        if (action < 3) {
          int flushes =
              sim.rnd.nextInt(12) == 0 ? 20 + sim.rnd.nextInt(30) : 1 + sim.rnd.nextInt(3);
          step = "step " + i + ": " + flushes + " flushes";
          for (int f = 0; f < flushes; f++) {
            sim.flush();
          }
        } else if (action < 7 && sim.inFlight.size() < 3 && sim.start()) {
          step = "step " + i + ": started " + sim.inFlight.get(sim.inFlight.size() - 1);
        } else if (!sim.inFlight.isEmpty()) {
          int which = sim.rnd.nextInt(sim.inFlight.size());
          step = "step " + i + ": finished " + sim.inFlight.get(which);
          sim.finish(which);
        }
        sim.assertSound(step);
      }
      while (!sim.inFlight.isEmpty()) {
        sim.finish(0);
        sim.assertSound("draining");
      }
      int rounds = 0;
      while (sim.start()) {
        sim.finish(0);
        sim.assertSound("quiescing");
        assertThat(++rounds).as("compactions to quiesce").isLessThan(100_000);
      }
      long[] bytes = new long[LeveledStrategy.MAX_LEVEL_COUNT];
      for (SSTableInfo s : sim.live) {
        bytes[s.level()] += s.onDiskSize();
      }
      LevelTargets targets = lcs.targets(sim.live);
      for (int level = 1; level < LeveledStrategy.LAST_LEVEL; level++) {
        assertThat((double) bytes[level])
            .as("bytes in L%d (%s)", level, targets)
            .isLessThanOrEqualTo(targets.target(level) * LeveledStrategy.SCORE_THRESHOLD);
      }
      assertThat(sim.live.stream().filter(s -> s.level() == 0))
          .hasSizeLessThan(LeveledStrategy.L0_COMPACTION_TRIGGER);
      System.out.printf(
          "seed=%d: %d SSTables, %d size-tiered L0 rounds, bytes per level %s%n",
          seed, sim.live.size(), sim.sizeTieredRounds, java.util.Arrays.toString(bytes));
    } catch (AssertionError e) {
      throw new AssertionError("seed=" + seed + " " + step + "\nlive: " + sim.live, e);
    }
  }
}
