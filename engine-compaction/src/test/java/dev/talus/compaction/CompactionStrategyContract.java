package dev.talus.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@link CompactionStrategy} contract, checked for every implementation on seeded random
 * contexts: plans pick only candidates, the strategy is a pure function of its context, and dropped
 * SSTables satisfy {@link ExpiredSSTables}. Each implementation's test extends this.
 */
abstract class CompactionStrategyContract {
  private static final long NOW = 1_700_000_000L;

  abstract CompactionStrategy strategy();

  /** The largest level the random SSTables get (0 for strategies without levels). */
  int maxLevel() {
    return 0;
  }

  private StrategyContext<SSTableInfo> randomContext(Random rnd) {
    int n = rnd.nextInt(60);
    List<SSTableInfo> candidates = new ArrayList<>();
    List<SSTableInfo> compacting = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long first = rnd.nextInt(10_000);
      long writtenAt = NOW - rnd.nextInt(10 * 86_400);
      long minTs = (writtenAt - rnd.nextInt(7200)) * 1_000_000L;
      long maxTs = writtenAt * 1_000_000L;
      FakeSSTable s =
          FakeSSTable.builder(i + 1)
              .size(1 + rnd.nextInt(rnd.nextBoolean() ? 1000 : 200_000_000))
              .level(rnd.nextInt(maxLevel() + 1))
              .tokens(first, first + rnd.nextInt(5000))
              .timestamps(minTs, maxTs)
              .maxLocalDeletionTime(rnd.nextBoolean() ? Long.MAX_VALUE : writtenAt + 3600)
              .created(writtenAt)
              .build();
      (rnd.nextInt(5) == 0 ? compacting : candidates).add(s);
    }
    long memtableMin =
        rnd.nextBoolean() ? Long.MAX_VALUE : (NOW - rnd.nextInt(86_400)) * 1_000_000L;
    return new StrategyContext<>(candidates, compacting, NOW, NOW - 86_400, memtableMin);
  }

  private static void assertPlanRespectsContext(
      CompactionPlan<SSTableInfo> plan, StrategyContext<SSTableInfo> context) {
    Set<SSTableInfo> seen = new HashSet<>();
    for (SSTableInfo s : plan.inputs()) {
      assertThat(context.candidates()).contains(s);
      assertThat(seen.add(s)).as("listed once: %s", s).isTrue();
    }
    for (SSTableInfo s : plan.expired()) {
      assertThat(context.candidates()).contains(s);
      assertThat(seen.add(s)).as("listed once: %s", s).isTrue();
    }
    assertThat(seen).as("a plan does something").isNotEmpty();
    assertThat(plan.maxOutputBytes()).isPositive();
    assertThat(ExpiredSSTables.find(context)).containsAll(plan.expired());
  }

  @Test
  void nothingToDoWithoutSSTables() {
    StrategyContext<SSTableInfo> empty =
        new StrategyContext<>(List.of(), List.of(), NOW, NOW, Long.MAX_VALUE);
    assertThat(strategy().nextBackgroundTask(empty)).isEmpty();
    assertThat(strategy().majorCompaction(empty)).isEmpty();
    assertThat(strategy().describe()).isNotBlank();
  }

  @ParameterizedTest(name = "seed={0}")
  @ValueSource(longs = {1L, 2L, 3L, 4L, 5L, 42L, 0xC0FFEEL})
  void plansPickOnlyCandidatesAndArePure(long seed) {
    Random rnd = new Random(seed);
    for (int i = 0; i < 200; i++) {
      StrategyContext<SSTableInfo> context = randomContext(rnd);
      try {
        Optional<CompactionPlan<SSTableInfo>> plan = strategy().nextBackgroundTask(context);
        assertThat(strategy().nextBackgroundTask(context)).isEqualTo(plan);
        plan.ifPresent(p -> assertPlanRespectsContext(p, context));
        List<CompactionPlan<SSTableInfo>> major = strategy().majorCompaction(context);
        assertThat(strategy().majorCompaction(context)).isEqualTo(major);
        Set<SSTableInfo> covered = new HashSet<>();
        for (CompactionPlan<SSTableInfo> p : major) {
          assertPlanRespectsContext(p, context);
          for (SSTableInfo s : p.inputs()) {
            assertThat(covered.add(s)).as("in one major plan only: %s", s).isTrue();
          }
          covered.addAll(p.expired());
        }
      } catch (AssertionError e) {
        throw new AssertionError("seed=" + seed + " iteration=" + i + " context=" + context, e);
      }
    }
  }
}
