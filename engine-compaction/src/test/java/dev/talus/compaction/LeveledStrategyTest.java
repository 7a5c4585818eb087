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

  @Test
  void levelCapacities() {
    LeveledStrategy defaults = new LeveledStrategy(StrategyOptions.Leveled.defaults());
    long size = 160L << 20;
    assertThat(defaults.capacity(0)).isEqualTo(4 * size);
    assertThat(defaults.capacity(1)).isEqualTo(10 * size);
    assertThat(defaults.capacity(2)).isEqualTo(100 * size);
    assertThat(defaults.capacity(8)).isEqualTo(100_000_000L * size);
    assertThatThrownBy(() -> defaults.capacity(9)).isInstanceOf(IllegalArgumentException.class);
    LeveledStrategy fanout4 =
        new LeveledStrategy(new StrategyOptions.Leveled(S, 4, StrategyOptions.Tombstones.DEFAULTS));
    assertThat(fanout4.capacity(3)).isEqualTo(64 * S);
    assertThatThrownBy(
            () ->
                new LeveledStrategy(
                    new StrategyOptions.Leveled(S, 1, StrategyOptions.Tombstones.DEFAULTS)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fanout");
  }

  @Test
  void nothingToDoForOneFlush() {
    assertThat(LCS.nextBackgroundTask(context(List.of(sst(1, 0, 10, 0, 100))))).isEmpty();
    assertThat(LCS.nextBackgroundTask(context(List.of()))).isEmpty();
  }

  @Test
  void smallL0SSTablesAreMergedAndStayInL0() {
    FakeSSTable a = sst(1, 0, 300, 0, 100);
    FakeSSTable b = sst(2, 0, 300, 50, 500);
    FakeSSTable l1 = sst(3, 1, S, 0, 1000);
    CompactionPlan<SSTableInfo> plan =
        LCS.nextBackgroundTask(context(List.of(a, b, l1))).orElseThrow();
    assertThat(plan.inputs()).containsExactlyInAnyOrder(a, b);
    assertThat(plan.outputLevel()).isZero();
  }

  @Test
  void l0ToL1TakesL0SSTablesAndEveryL1SSTableOverlappingTheirSpan() {
    FakeSSTable a = sst(1, 0, 600, 0, 100);
    FakeSSTable b = sst(2, 0, 600, 50, 150);
    FakeSSTable c = sst(3, 0, 100, 500, 600);
    FakeSSTable x = sst(10, 1, S, 0, 40);
    FakeSSTable y = sst(11, 1, S, 120, 200); // overlaps only the span between b and c
    FakeSSTable gap = sst(12, 1, S, 300, 400); // overlaps no L0 SSTable, but sits inside the span
    FakeSSTable z = sst(13, 1, S, 700, 800);
    CompactionPlan<SSTableInfo> plan =
        LCS.nextBackgroundTask(context(List.of(c, b, a, x, y, gap, z))).orElseThrow();
    assertThat(plan.inputs()).containsExactlyInAnyOrder(a, b, c, x, y, gap);
    assertThat(plan.outputLevel()).isEqualTo(1);
    assertThat(plan.maxOutputBytes()).isEqualTo(S);
  }

  @Test
  void l0ToL1WaitsWhenAnOverlappingL1SSTableIsCompacting() {
    FakeSSTable a = sst(1, 0, 600, 0, 100);
    FakeSSTable b = sst(2, 0, 600, 50, 150);
    FakeSSTable busy = sst(10, 1, S, 90, 120);
    assertThat(LCS.nextBackgroundTask(context(List.of(a, b), List.of(busy)))).isEmpty();
  }

  @Test
  void l0SkipsSSTablesOverlappingCompactingL0() {
    FakeSSTable busy = sst(1, 0, 600, 0, 100);
    FakeSSTable a = sst(2, 0, 600, 50, 150);
    FakeSSTable b = sst(3, 0, 300, 500, 600);
    FakeSSTable c = sst(4, 0, 300, 550, 700);
    CompactionPlan<SSTableInfo> plan =
        LCS.nextBackgroundTask(context(List.of(a, b, c), List.of(busy))).orElseThrow();
    assertThat(plan.inputs()).containsExactlyInAnyOrder(b, c);
    assertThat(plan.outputLevel()).isZero();
  }

  @Test
  void promotionTakesTheOldestSSTableAndOnlyItsNextLevelOverlaps() {
    List<FakeSSTable> sstables = new ArrayList<>(run(100, 1, 11, 100)); // 11·S > 10·S
    FakeSSTable n1 = sst(1, 2, S, 0, 49);
    FakeSSTable n2 = sst(2, 2, S, 50, 149);
    FakeSSTable n3 = sst(3, 2, S, 150, 250);
    FakeSSTable n4 = sst(4, 2, S, 1000, 1100);
    sstables.addAll(List.of(n1, n2, n3, n4));
    CompactionPlan<SSTableInfo> plan = LCS.nextBackgroundTask(context(sstables)).orElseThrow();
    assertThat(plan.inputs()).containsExactlyInAnyOrder(sstables.get(0), n1, n2);
    assertThat(plan.outputLevel()).isEqualTo(2);
    assertThat(plan.maxOutputBytes()).isEqualTo(S);

    // with n2 compacting, the oldest L1 SSTable must wait; the next one goes
    List<FakeSSTable> candidates = new ArrayList<>(sstables);
    candidates.remove(n2);
    CompactionPlan<SSTableInfo> next =
        LCS.nextBackgroundTask(context(candidates, List.of(n2))).orElseThrow();
    assertThat(next.inputs()).containsExactlyInAnyOrder(sstables.get(2), n3);
  }

  @Test
  void highestOverfullLevelGoesFirst() {
    List<FakeSSTable> sstables = new ArrayList<>(run(100, 1, 11, 100));
    sstables.addAll(run(200, 2, 101, 10));
    sstables.add(sst(1, 0, 600, 0, 100));
    sstables.add(sst(2, 0, 600, 0, 100));
    CompactionPlan<SSTableInfo> plan = LCS.nextBackgroundTask(context(sstables)).orElseThrow();
    assertThat(plan.outputLevel()).isEqualTo(3);
  }

  @Test
  void sizeTieredInL0KicksInAbove32WhenHigherLevelsAreBehind() {
    List<FakeSSTable> sstables = new ArrayList<>(run(100, 1, 11, 100)); // L1 over capacity
    for (int i = 0; i < 32; i++) {
      sstables.add(sst(i + 1, 0, 100, 0, 1000));
    }
    // 32 in L0: the higher level goes first
    assertThat(LCS.nextBackgroundTask(context(sstables)).orElseThrow().outputLevel()).isEqualTo(2);

    sstables.add(sst(33, 0, 100, 0, 1000));
    CompactionPlan<SSTableInfo> plan = LCS.nextBackgroundTask(context(sstables)).orElseThrow();
    assertThat(plan.reason()).startsWith("size-tiered in L0");
    assertThat(plan.outputLevel()).isZero();
    assertThat(plan.inputs()).hasSize(32).allMatch(s -> s.level() == 0);
    assertThat(plan.maxOutputBytes()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void manyL0SSTablesWithHappyHigherLevelsGoToL1At32AtATime() {
    List<FakeSSTable> sstables = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      sstables.add(sst(i + 1, 0, 100, 0, 1000));
    }
    CompactionPlan<SSTableInfo> plan = LCS.nextBackgroundTask(context(sstables)).orElseThrow();
    assertThat(plan.inputs()).hasSize(32).isEqualTo(sstables.subList(0, 32));
    assertThat(plan.outputLevel()).isEqualTo(1);
  }

  @Test
  void majorCompactionTakesEverythingToTheHighestLevel() {
    List<FakeSSTable> sstables = new ArrayList<>(run(100, 2, 3, 100));
    sstables.add(sst(1, 0, 10, 0, 1000));
    List<CompactionPlan<SSTableInfo>> plans = LCS.majorCompaction(context(sstables));
    assertThat(plans).hasSize(1);
    assertThat(plans.get(0).inputs()).containsExactlyInAnyOrderElementsOf(sstables);
    assertThat(plans.get(0).outputLevel()).isEqualTo(2);
    assertThat(LCS.majorCompaction(context(List.of(sst(1, 0, 10, 0, 1)))).get(0).outputLevel())
        .isEqualTo(1);
    assertThat(LCS.majorCompaction(context(sstables.subList(1, 4), sstables.subList(0, 1))))
        .isEmpty();
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
        new LeveledStrategy(new StrategyOptions.Leveled(S, 4, StrategyOptions.Tombstones.DEFAULTS));
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
      for (int level = 0; level < bytes.length; level++) {
        assertThat((double) bytes[level])
            .as("bytes in L%d", level)
            .isLessThanOrEqualTo(lcs.capacity(level) * LeveledStrategy.SCORE_THRESHOLD);
      }
      assertThat(sim.live.stream().filter(s -> s.level() == 0)).hasSizeLessThanOrEqualTo(1);
      System.out.printf(
          "seed=%d: %d SSTables, %d size-tiered L0 rounds, bytes per level %s%n",
          seed, sim.live.size(), sim.sizeTieredRounds, java.util.Arrays.toString(bytes));
    } catch (AssertionError e) {
      throw new AssertionError("seed=" + seed + " " + step + "\nlive: " + sim.live, e);
    }
  }
}
