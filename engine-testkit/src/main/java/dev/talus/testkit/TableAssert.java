package dev.talus.testkit;

import dev.talus.SSTableSummary;
import dev.talus.Table;
import dev.talus.TableStats;
import java.time.InstantSource;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.assertj.core.api.AbstractAssert;

/** Assertions on a whole {@link Table}: its SSTables, tombstone counts, last read. */
public final class TableAssert extends AbstractAssert<TableAssert, Table> {
  private InstantSource clock;

  TableAssert(Table actual) {
    super(actual, TableAssert.class);
  }

  /** Another clock for explanations (by default the table's own database clock). */
  public TableAssert usingClock(InstantSource clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /** The table has exactly {@code n} live SSTables. */
  public TableAssert sstableCount(int n) {
    isNotNull();
    List<SSTableSummary> s = actual.sstables();
    if (s.size() != n) {
      failWithMessage(
          "Expected %s to have %d SSTables but it has %d:%n%s", actual, n, s.size(), listing(s));
    }
    return this;
  }

  /**
   * No live SSTable holds tombstones or expiring cells (SSTableSummary.tombstones, which counts TTL
   * cells too, live or not). Memtables are not looked at: flush first, or assert on a partition.
   */
  public TableAssert hasNoTombstones() {
    return hasTombstones(0);
  }

  /** The live SSTables hold {@code n} tombstones and expiring cells in total. */
  public TableAssert hasTombstones(long n) {
    isNotNull();
    List<SSTableSummary> s = actual.sstables();
    long total = s.stream().mapToLong(SSTableSummary::tombstones).sum();
    if (total != n) {
      StringBuilder why = new StringBuilder();
      for (SSTableSummary x : s) {
        if (x.tombstones() > 0) {
          why.append(
                  TombstoneExplainer.explain(clock, actual, x.firstPartitionKey().toArray())
                      .toString())
              .append(System.lineSeparator());
        }
      }
      failWithMessage(
          "Expected %s's SSTables to hold %d tombstones but they hold %d:%n%s%n%s",
          actual, n, total, listing(s), why);
    }
    return this;
  }

  /** The most recent read of the table scanned at most {@code n} tombstones. */
  public TableAssert lastReadScannedAtMostTombstones(int n) {
    isNotNull();
    int scanned = actual.lastReadTombstoneCount();
    if (scanned > n) {
      failWithMessage(
          "Expected the last read of %s to scan at most %d tombstones but it scanned %d"
              + " (tombstones per read: %s)",
          actual, n, scanned, actual.stats().tombstonesPerRead());
    }
    return this;
  }

  /** An SSTable with this generation is live. */
  public TableAssert hasSSTable(long generation) {
    isNotNull();
    if (actual.sstables().stream().noneMatch(s -> s.generation() == generation)) {
      failWithMessage(
          "Expected %s to have SSTable %d live, but the live ones are %s",
          actual, generation, generations(actual.sstables()));
    }
    return this;
  }

  /**
   * The SSTable with this generation is gone and the table has dropped SSTables whole as fully
   * expired ({@code stats().sstablesDroppedExpired() > 0}). The public API does not record which
   * generations were dropped; for that, use the {@link CompactionReport} of the step ({@code
   * assertThat(report).droppedWhole(gen)}) or {@link TalusTestDb#droppedWhole(Table)}.
   */
  public TableAssert sstableWasDroppedWhole(long generation) {
    isNotNull();
    List<SSTableSummary> live = actual.sstables();
    TableStats stats = actual.stats();
    boolean gone = live.stream().noneMatch(s -> s.generation() == generation);
    if (!gone) {
      failWithMessage(
          "Expected SSTable %d of %s to have been dropped whole, but it is still live:%n%s",
          generation, actual, TombstoneExplainer.explainSSTable(clock, actual, generation));
    } else if (stats.sstablesDroppedExpired() == 0) {
      failWithMessage(
          "Expected SSTable %d of %s to have been dropped whole, but it was compacted away:"
              + " the table has dropped no SSTable whole (stats().sstablesDroppedExpired() == 0)",
          generation, actual);
    }
    return this;
  }

  /** {@code stats().sstablesDroppedExpired()} is {@code n}. */
  public TableAssert droppedWholeSSTables(long n) {
    isNotNull();
    long d = actual.stats().sstablesDroppedExpired();
    if (d != n) {
      failWithMessage(
          "Expected %s to have dropped %d SSTables whole as fully expired but it dropped %d",
          actual, n, d);
    }
    return this;
  }

  /** The SSTable with this generation would be dropped whole by the next compaction. */
  public TableAssert sstableIsFullyExpired(long generation) {
    isNotNull();
    Explanation e = TombstoneExplainer.explainSSTable(clock, actual, generation);
    if (!e.has(Explanation.Kind.DROPPABLE_NOW)) {
      failWithMessage(
          "Expected SSTable %d of %s to be droppable whole now, but:%n%s", generation, actual, e);
    }
    return this;
  }

  static String listing(List<SSTableSummary> s) {
    if (s.isEmpty()) {
      return "  (no SSTables)";
    }
    return s.stream()
        .map(
            x ->
                "  sstable "
                    + x.generation()
                    + ": level "
                    + x.level()
                    + ", "
                    + x.partitions()
                    + " partitions, "
                    + x.rows()
                    + " rows, "
                    + x.tombstones()
                    + " tombstones ("
                    + x.droppableTombstones()
                    + " droppable), ts "
                    + x.minTimestampMicros()
                    + ".."
                    + x.maxTimestampMicros()
                    + ", maxDeletionTime "
                    + (x.maxDeletionTimeSeconds() == Long.MAX_VALUE
                        ? "MAX"
                        : String.valueOf(x.maxDeletionTimeSeconds())))
        .collect(Collectors.joining(System.lineSeparator()));
  }

  static List<Long> generations(List<SSTableSummary> s) {
    return s.stream().map(SSTableSummary::generation).toList();
  }
}
