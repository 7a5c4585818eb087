package dev.talus.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CompactionPlannerTest {
  private static final long GC_BEFORE = 10_000;

  /** A strategy that always proposes merging all candidates, to see when the planner delegates. */
  private static final class All implements CompactionStrategy {
    @Override
    public <T extends SSTableInfo> Optional<CompactionPlan<T>> nextBackgroundTask(
        StrategyContext<T> context) {
      return context.candidates().isEmpty()
          ? Optional.empty()
          : Optional.of(CompactionPlan.of(context.candidates(), 0, Long.MAX_VALUE, "all"));
    }

    @Override
    public <T extends SSTableInfo> List<CompactionPlan<T>> majorCompaction(
        StrategyContext<T> context) {
      return List.of(CompactionPlan.of(context.candidates(), 0, Long.MAX_VALUE, "major"));
    }

    @Override
    public String describe() {
      return "All";
    }
  }

  private static final FakeSSTable EXPIRED =
      FakeSSTable.builder(1)
          .tokens(0, 100)
          .timestamps(100, 200)
          .maxLocalDeletionTime(GC_BEFORE - 1)
          .build();
  private static final FakeSSTable LIVE =
      FakeSSTable.builder(2).tokens(0, 100).timestamps(300, 400).build();

  private static StrategyContext<SSTableInfo> context(
      List<SSTableInfo> candidates, long memtableMin) {
    return new StrategyContext<>(candidates, List.of(), 20_000, GC_BEFORE, memtableMin);
  }

  @Test
  void expiredDropTakesPrecedence() {
    CompactionPlanner planner = new CompactionPlanner(new All());
    CompactionPlan<SSTableInfo> plan =
        planner.nextBackgroundTask(context(List.of(EXPIRED, LIVE), Long.MAX_VALUE)).orElseThrow();
    assertThat(plan.inputs()).isEmpty();
    assertThat(plan.expired()).containsExactly(EXPIRED);
  }

  @Test
  void delegatesWhenNothingIsDroppable() {
    CompactionPlanner planner = new CompactionPlanner(new All());
    // memtable data older than the expired SSTable's newest timestamp blocks the drop
    CompactionPlan<SSTableInfo> plan =
        planner.nextBackgroundTask(context(List.of(EXPIRED, LIVE), 150)).orElseThrow();
    assertThat(plan.reason()).isEqualTo("all");
    assertThat(plan.expired()).isEmpty();
    assertThat(planner.nextBackgroundTask(context(List.of(), Long.MAX_VALUE))).isEmpty();
  }

  @Test
  void majorCompactionDropsExpiredThenPlansTheRest() {
    CompactionPlanner planner = new CompactionPlanner(new All());
    List<CompactionPlan<SSTableInfo>> plans =
        planner.majorCompaction(context(List.of(EXPIRED, LIVE), Long.MAX_VALUE));
    assertThat(plans).hasSize(2);
    assertThat(plans.get(0).expired()).containsExactly(EXPIRED);
    assertThat(plans.get(1).inputs()).containsExactly(LIVE);
  }

  @Test
  void factoryBuildsTheRightStrategy() {
    assertThat(CompactionPlanner.leveledOrTimeWindow(StrategyOptions.Leveled.defaults()))
        .isInstanceOf(LeveledStrategy.class);
    assertThat(CompactionPlanner.leveledOrTimeWindow(StrategyOptions.TimeWindow.defaults()))
        .isInstanceOf(TimeWindowStrategy.class);
    assertThatThrownBy(
            () -> CompactionPlanner.leveledOrTimeWindow(StrategyOptions.SizeTiered.defaults()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("size-tiered");
    CompactionStrategy sizeTiered = new All();
    CompactionPlanner planner =
        CompactionPlanner.of(StrategyOptions.SizeTiered.defaults(), options -> sizeTiered);
    assertThat(planner.strategy()).isSameAs(sizeTiered);
    assertThat(
            CompactionPlanner.of(StrategyOptions.Leveled.defaults(), options -> sizeTiered)
                .strategy())
        .isInstanceOf(LeveledStrategy.class);
    assertThat(planner.describe()).contains("All");
  }
}
