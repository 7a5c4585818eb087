package dev.talus.testkit;

import dev.talus.SSTableSummary;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What one flush-or-compaction step driven by {@link TalusTestDb} changed: the live SSTables before
 * and after, and how many SSTables the engine dropped whole as fully expired ({@code
 * TableStats.sstablesDroppedExpired} before and after). Immutable.
 *
 * <p>The public API counts whole-file drops but does not say which generations they were, so {@link
 * #droppedWhole()} attributes them: when the count equals the number of SSTables that disappeared,
 * all of them were dropped whole; when it is zero, none; otherwise the SSTables that were fully
 * expired at the time ({@code maxDeletionTime < gcBefore}) are taken if they match the count, and
 * the attribution is {@link #ambiguous()} if not.
 *
 * @param operation what ran, e.g. {@code "compactAll"} or {@code "compact [3]"}
 * @param at the clock time it ran at
 * @param gcBefore now − gc_grace at that time
 * @param before live SSTables before
 * @param after live SSTables after
 * @param droppedWholeCount SSTables the engine deleted unread as fully expired during the step
 * @param ran false if the strategy proposed nothing ({@link TalusTestDb#runNextCompaction})
 */
public record CompactionReport(
    String operation,
    Instant at,
    Instant gcBefore,
    List<SSTableSummary> before,
    List<SSTableSummary> after,
    long droppedWholeCount,
    boolean ran) {
  public CompactionReport {
    before = List.copyOf(before);
    after = List.copyOf(after);
  }

  CompactionReport(
      String operation,
      Instant at,
      Instant gcBefore,
      List<SSTableSummary> before,
      List<SSTableSummary> after,
      long droppedWholeCount) {
    this(operation, at, gcBefore, before, after, droppedWholeCount, true);
  }

  CompactionReport withNothingRun() {
    return new CompactionReport(operation, at, gcBefore, before, after, droppedWholeCount, false);
  }

  /** SSTables live before and gone after (compacted away or dropped whole). */
  public List<SSTableSummary> removed() {
    return minus(before, after);
  }

  /** SSTables the step wrote. */
  public List<SSTableSummary> created() {
    return minus(after, before);
  }

  public List<Long> removedGenerations() {
    return removed().stream().map(SSTableSummary::generation).toList();
  }

  public List<Long> createdGenerations() {
    return created().stream().map(SSTableSummary::generation).toList();
  }

  /** Whether {@link #droppedWhole()} could not tell which of the removed SSTables were dropped. */
  public boolean ambiguous() {
    return droppedWholeCount > 0 && droppedWhole().size() != droppedWholeCount;
  }

  /** The generations dropped whole (see the class comment for how they are attributed). */
  public List<Long> droppedWhole() {
    List<SSTableSummary> removed = removed();
    if (droppedWholeCount == 0) {
      return List.of();
    }
    if (droppedWholeCount == removed.size()) {
      return removedGenerations();
    }
    long gcBeforeSeconds = gcBefore.getEpochSecond();
    List<Long> expired =
        removed.stream()
            .filter(s -> s.maxDeletionTimeSeconds() < gcBeforeSeconds)
            .map(SSTableSummary::generation)
            .toList();
    return expired.size() == droppedWholeCount ? expired : List.of();
  }

  static List<SSTableSummary> minus(List<SSTableSummary> a, List<SSTableSummary> b) {
    Set<Long> gens = b.stream().map(SSTableSummary::generation).collect(Collectors.toSet());
    return a.stream().filter(s -> !gens.contains(s.generation())).toList();
  }

  @Override
  public String toString() {
    return operation
        + " at "
        + at
        + (ran ? "" : " (nothing to run)")
        + ": removed "
        + removedGenerations()
        + ", created "
        + createdGenerations()
        + ", dropped whole "
        + (ambiguous() ? droppedWholeCount + " of " + removedGenerations() : droppedWhole());
  }
}
