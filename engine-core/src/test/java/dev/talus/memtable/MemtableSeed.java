package dev.talus.memtable;

/**
 * The seed of a memtable test's random run: {@code -Dtalus.memtable.seed=N} replays one, otherwise
 * a fresh one; printed with the line that replays it. Stateless.
 */
final class MemtableSeed {
  private MemtableSeed() {}

  static long next(Class<?> test) {
    long seed = Long.getLong("talus.memtable.seed", System.nanoTime());
    System.out.println(
        test.getSimpleName() + " seed " + seed + " (replay: -Dtalus.memtable.seed=" + seed + ")");
    return seed;
  }
}
