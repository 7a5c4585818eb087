package dev.talus.compaction;

class TimeWindowContractTest extends CompactionStrategyContract {
  @Override
  CompactionStrategy strategy() {
    return new TimeWindowStrategy(
        new StrategyOptions.TimeWindow(3600, 4, 32, StrategyOptions.Tombstones.DEFAULTS));
  }

  @Override
  int maxLevel() {
    return 0;
  }
}
