package dev.talus.testkit;

import dev.talus.Table;
import java.time.InstantSource;
import java.util.Optional;

/** The clock of a table's database: every "now" of the testkit is read from it. Stateless. */
final class ClockOf {
  private ClockOf() {}

  static Optional<InstantSource> find(Table table) {
    return Optional.of(table.clock());
  }

  static long now(Table table) {
    return table.clock().instant().getEpochSecond();
  }
}
