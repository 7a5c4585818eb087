package dev.talus.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimeWindowStrategyTest {
  private static final long HOUR = 3600;
  private static final long MICROS = 1_000_000;

  /** A window start: 2023-11-14T22:00:00Z. */
  private static final long W = 1_700_000_000L / HOUR * HOUR;

  private static final TimeWindowStrategy TWCS =
      new TimeWindowStrategy(
          new StrategyOptions.TimeWindow(HOUR, 4, 32, StrategyOptions.Tombstones.DEFAULTS));

  /** An SSTable whose data was written during [fromSeconds, toSeconds]. */
  private static FakeSSTable written(long gen, long fromSeconds, long toSeconds, long size) {
    return FakeSSTable.builder(gen)
        .size(size)
        .timestamps(fromSeconds * MICROS, toSeconds * MICROS + 999_999)
        .build();
  }

  private static StrategyContext<SSTableInfo> at(
      long nowSeconds, List<? extends SSTableInfo> candidates) {
    return new StrategyContext<>(
        List.copyOf(candidates), List.of(), nowSeconds, nowSeconds - 864_000, Long.MAX_VALUE);
  }

  @Test
  void windowAssignmentForMinutesHoursAndDays() {
    long micros = 1_700_000_123_456_789L; // 2023-11-14T22:15:23.456789Z
    assertThat(TimeWindowStrategy.windowOf(micros, 60)).isEqualTo(1_700_000_100L);
    assertThat(TimeWindowStrategy.windowOf(micros, 10 * 60)).isEqualTo(1_699_999_800L);
    assertThat(TimeWindowStrategy.windowOf(micros, HOUR)).isEqualTo(1_699_999_200L);
    assertThat(TimeWindowStrategy.windowOf(micros, 86_400)).isEqualTo(1_699_920_000L);
    assertThat(TimeWindowStrategy.windowOf(0, HOUR)).isZero();
    assertThat(TimeWindowStrategy.windowOf(-1, HOUR)).isEqualTo(-HOUR);
    // the last microsecond of a window is still in it
    assertThat(TimeWindowStrategy.windowOf((W + HOUR) * MICROS - 1, HOUR)).isEqualTo(W);
    assertThat(TimeWindowStrategy.windowOf((W + HOUR) * MICROS, HOUR)).isEqualTo(W + HOUR);
  }

  @Test
  void anSSTableBelongsToTheWindowOfItsNewestData() {
    // written across two windows: filed under the later one
    FakeSSTable straddling = written(1, W - 60, W + 60, 100);
    FakeSSTable older = written(2, W - 600, W - 300, 100);
    // now is in the window after W: both W - HOUR and W are closed; only W holds two SSTables
    FakeSSTable inW = written(3, W + 100, W + 200, 100);
    CompactionPlan<SSTableInfo> plan =
        TWCS.nextBackgroundTask(at(W + HOUR + 10, List.of(straddling, older, inW))).orElseThrow();
    assertThat(plan.inputs()).containsExactlyInAnyOrder(straddling, inW);
  }

  @Test
  void currentWindowIsSizeTieredOnceItReachesMinThreshold() {
    List<FakeSSTable> sstables = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      sstables.add(written(i + 1, W + i * 60, W + i * 60 + 59, 1000));
    }
    assertThat(TWCS.nextBackgroundTask(at(W + 1000, sstables))).isEmpty();
    sstables.add(written(4, W + 300, W + 359, 1100));
    CompactionPlan<SSTableInfo> plan =
        TWCS.nextBackgroundTask(at(W + 1000, sstables)).orElseThrow();
    assertThat(plan.inputs()).containsExactlyInAnyOrderElementsOf(sstables);
    assertThat(plan.reason()).contains("current window");
    assertThat(plan.outputLevel()).isZero();
    assertThat(plan.maxOutputBytes()).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void currentWindowSizeTieringNeedsSimilarSizes() {
    // four SSTables in the current window, but all of different tiers (above 50 MiB)
    long mib = 1L << 20;
    List<FakeSSTable> sstables =
        List.of(
            written(1, W, W + 1, 100 * mib),
            written(2, W, W + 1, 400 * mib),
            written(3, W, W + 1, 1600 * mib),
            written(4, W, W + 1, 6400 * mib));
    assertThat(TWCS.nextBackgroundTask(at(W + 10, sstables))).isEmpty();
  }

  @Test
  void closedWindowsAreCompactedToOneSSTableOldestFirst() {
    FakeSSTable old1 = written(1, W - 3 * HOUR, W - 3 * HOUR + 10, 10);
    FakeSSTable old2 = written(2, W - 3 * HOUR + 20, W - 3 * HOUR + 30, 10);
    FakeSSTable recent1 = written(3, W - HOUR, W - HOUR + 10, 10);
    FakeSSTable recent2 = written(4, W - HOUR + 20, W - HOUR + 30, 10);
    FakeSSTable recent3 = written(5, W - HOUR + 40, W - HOUR + 50, 10);
    FakeSSTable lone = written(6, W - 2 * HOUR, W - 2 * HOUR + 10, 10);
    List<FakeSSTable> current = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      current.add(written(10 + i, W + i, W + i, 10));
    }
    List<SSTableInfo> all = new ArrayList<>(List.of(recent1, old1, lone, recent2, old2, recent3));
    all.addAll(current);

    CompactionPlan<SSTableInfo> first = TWCS.nextBackgroundTask(at(W + 100, all)).orElseThrow();
    assertThat(first.inputs()).containsExactlyInAnyOrder(old1, old2);
    assertThat(first.maxOutputBytes()).isEqualTo(Long.MAX_VALUE);

    all.removeAll(first.inputs());
    all.add(written(20, W - 3 * HOUR, W - 3 * HOUR + 30, 20));
    CompactionPlan<SSTableInfo> second = TWCS.nextBackgroundTask(at(W + 100, all)).orElseThrow();
    assertThat(second.inputs()).containsExactlyInAnyOrder(recent1, recent2, recent3);

    all.removeAll(second.inputs());
    all.add(written(21, W - HOUR, W - HOUR + 50, 30));
    CompactionPlan<SSTableInfo> third = TWCS.nextBackgroundTask(at(W + 100, all)).orElseThrow();
    assertThat(third.inputs()).containsExactlyInAnyOrderElementsOf(current);
  }

  @Test
  void aClosedWindowIsCompactedAtMostMaxThresholdAtATimeSmallestFirst() {
    List<FakeSSTable> sstables = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      sstables.add(written(i + 1, W - HOUR + i, W - HOUR + i, 1000 - i));
    }
    CompactionPlan<SSTableInfo> plan = TWCS.nextBackgroundTask(at(W + 1, sstables)).orElseThrow();
    assertThat(plan.inputs()).hasSize(32).allMatch(s -> s.onDiskSize() <= 992);
  }

  @Test
  void theNewestSSTableWindowIsCurrentEvenIfAheadOfTheClock() {
    // data from the future (a client clock ahead): its window is the current one, so the window of
    // now is treated as closed
    FakeSSTable a = written(1, W + 10, W + 20, 10);
    FakeSSTable b = written(2, W + 30, W + 40, 10);
    FakeSSTable future = written(3, W + 2 * HOUR, W + 2 * HOUR, 10);
    assertThat(TWCS.nextBackgroundTask(at(W + 50, List.of(a, b))))
        .as("the window of now is current")
        .isEmpty();
    CompactionPlan<SSTableInfo> plan =
        TWCS.nextBackgroundTask(at(W + 50, List.of(a, b, future))).orElseThrow();
    assertThat(plan.inputs()).containsExactlyInAnyOrder(a, b);
  }

  @Test
  void fullyExpiredWindowsAreDroppedWholeThroughThePlanner() {
    // hourly windows of data with a 2 h TTL and gc_grace 0; each window already compacted to one
    long ttl = 2 * HOUR;
    List<SSTableInfo> windows = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      long start = W + i * HOUR;
      windows.add(
          FakeSSTable.builder(i + 1)
              .timestamps(start * MICROS, (start + HOUR) * MICROS - 1)
              .maxLocalDeletionTime(start + HOUR - 1 + ttl)
              .build());
    }
    long now = W + 5 * HOUR + 10;
    CompactionPlanner planner = new CompactionPlanner(TWCS);
    StrategyContext<SSTableInfo> context =
        new StrategyContext<>(windows, List.of(), now, now, Long.MAX_VALUE);
    CompactionPlan<SSTableInfo> plan = planner.nextBackgroundTask(context).orElseThrow();
    // windows 0, 1 and 2 expired (last expiry at W + 3h − 1, W + 4h − 1, W + 5h − 1 < now)
    assertThat(plan.expired()).containsExactly(windows.get(0), windows.get(1), windows.get(2));
    assertThat(plan.inputs()).isEmpty();

    // a late write into window 1 landed in the newest SSTable: its old data blocks every expired
    // window whose newest timestamp is not older than it
    FakeSSTable late =
        FakeSSTable.builder(7)
            .timestamps((W + HOUR + 5) * MICROS, (W + 5 * HOUR + 5) * MICROS)
            .build();
    assertThat(TimeWindowStrategy.isOutOfOrder(late, W + 5 * HOUR + 6, HOUR)).isTrue();
    List<SSTableInfo> withLate = new ArrayList<>(windows);
    withLate.add(late);
    CompactionPlan<SSTableInfo> blocked =
        planner
            .nextBackgroundTask(
                new StrategyContext<>(withLate, List.of(), now, now, Long.MAX_VALUE))
            .orElseThrow();
    assertThat(blocked.expired()).containsExactly(windows.get(0));
  }

  @Test
  void outOfOrderDetection() {
    long now = W + 1800;
    assertThat(TimeWindowStrategy.isOutOfOrder(written(1, W + 10, W + 1700, 1), now, HOUR))
        .isFalse();
    assertThat(TimeWindowStrategy.isOutOfOrder(written(2, W - 7200, W + 1700, 1), now, HOUR))
        .isTrue();
    // a flush straddling the window boundary counts too
    assertThat(TimeWindowStrategy.isOutOfOrder(written(3, W - 1, W + 5, 1), now, HOUR)).isTrue();
    // timestamps ahead of the clock are not "out of order" into old windows
    assertThat(TimeWindowStrategy.isOutOfOrder(written(4, W + HOUR, W + HOUR, 1), now, HOUR))
        .isFalse();
  }

  @Test
  void majorCompactionIsOnePlanPerWindow() {
    FakeSSTable a = written(1, W - 2 * HOUR, W - 2 * HOUR, 10);
    FakeSSTable b = written(2, W, W + 1, 10);
    FakeSSTable c = written(3, W + 5, W + 6, 10);
    List<CompactionPlan<SSTableInfo>> plans = TWCS.majorCompaction(at(W + 10, List.of(c, b, a)));
    assertThat(plans).hasSize(2);
    assertThat(plans.get(0).inputs()).containsExactly(a);
    assertThat(plans.get(1).inputs()).containsExactly(b, c);
  }

  @Test
  void tombstoneCompactionsOnlyWhenConfigured() {
    assertThat(TWCS.tombstoneCompactionsEnabled()).isFalse();
    assertThat(
            new TimeWindowStrategy(
                    new StrategyOptions.TimeWindow(
                        HOUR, 4, 32, new StrategyOptions.Tombstones(0.3, 86_400, false)))
                .tombstoneCompactionsEnabled())
        .isTrue();
  }

  @Test
  void invalidOptionsAreRejected() {
    assertThatThrownBy(
            () ->
                new TimeWindowStrategy(
                    new StrategyOptions.TimeWindow(0, 4, 32, StrategyOptions.Tombstones.DEFAULTS)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("windowSeconds");
    assertThatThrownBy(
            () ->
                new TimeWindowStrategy(
                    new StrategyOptions.TimeWindow(
                        HOUR, 8, 4, StrategyOptions.Tombstones.DEFAULTS)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
