package dev.talus.testkit;

import dev.talus.Table;
import dev.talus.TalusException;
import java.time.InstantSource;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds the clock of a table's database. The public API gives a {@link Table} no way back to its
 * database or clock, so the testkit keeps the open {@link TalusTestDb} instances here and asks each
 * whether it handed out this very table handle. Tables of databases opened some other way need an
 * explicit clock. The only mutable static state of the testkit: a set of open test databases,
 * removed on close.
 */
final class ClockOf {
  private static final Set<TalusTestDb> OPEN = ConcurrentHashMap.newKeySet();

  private ClockOf() {}

  static void register(TalusTestDb db) {
    OPEN.add(db);
  }

  static void unregister(TalusTestDb db) {
    OPEN.remove(db);
  }

  static Optional<InstantSource> find(Table table) {
    for (TalusTestDb db : OPEN) {
      try {
        if (db.db().findTable(table.name()).orElse(null) == table) {
          return Optional.of(db.clock());
        }
      } catch (TalusException | IllegalStateException e) {
        // closed or crashed meanwhile: not this one
      }
    }
    return Optional.empty();
  }

  static long now(Table table) {
    return find(table)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "cannot tell the clock of "
                        + table
                        + ": it does not belong to an open TalusTestDb. Pass the database's clock"
                        + " (TombstoneExplainer.explain(db.clock(), table, ...),"
                        + " assertThat(table).usingClock(db.clock()))"))
        .instant()
        .getEpochSecond();
  }
}
