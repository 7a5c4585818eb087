package dev.talus.compaction;

class LeveledContractTest extends CompactionStrategyContract {
  @Override
  CompactionStrategy strategy() {
    return new LeveledStrategy(
        new StrategyOptions.Leveled(1_000_000, 10, StrategyOptions.Tombstones.DEFAULTS));
  }

  @Override
  int maxLevel() {
    return 8;
  }
}
