package dev.talus;

import java.util.List;
import java.util.Optional;

/**
 * What a conditional write did (Cassandra's {@code [applied]} result): whether its conditions held
 * and it was applied, and, when it was not, the current state of what the conditions examined.
 *
 * <p>The current rows are the rows the conditions were checked on that exist, each with the primary
 * key columns and the columns the conditions name (for {@code IF NOT EXISTS}: every column of the
 * existing row; for static columns: the partition's static values). A write refused because its row
 * does not exist ({@code IF EXISTS}, or conditions on a missing row) has no current rows. An
 * applied write has none either. Immutable and thread-safe.
 */
public final class ConditionalResult {
  private final boolean applied;
  private final List<ResultRow> current;

  ConditionalResult(boolean applied, List<ResultRow> current) {
    this.applied = applied;
    this.current = List.copyOf(current);
  }

  /** True if every condition held and the write was applied. */
  public boolean applied() {
    return applied;
  }

  /** The current rows the conditions examined, when not applied (see the class comment). */
  public List<ResultRow> currentRows() {
    return current;
  }

  /** The first of {@link #currentRows()}, for a single conditional write. */
  public Optional<ResultRow> current() {
    return current.isEmpty() ? Optional.empty() : Optional.of(current.get(0));
  }

  @Override
  public String toString() {
    return "ConditionalResult{applied=" + applied + ", current=" + current + "}";
  }
}
