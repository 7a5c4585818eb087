package dev.talus.compaction;

class PlannerContractTest extends CompactionStrategyContract {
  @Override
  CompactionStrategy strategy() {
    return new CompactionPlanner(new LeveledStrategy(StrategyOptions.Leveled.defaults()));
  }

  @Override
  int maxLevel() {
    return 3;
  }
}
