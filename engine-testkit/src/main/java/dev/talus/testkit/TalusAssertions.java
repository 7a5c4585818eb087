package dev.talus.testkit;

import dev.talus.Table;

/**
 * AssertJ entry points for Talus tables, partitions, compaction reports and captured warnings.
 * Failure messages carry the {@link TombstoneExplainer} explanation, so a failing test says why a
 * tombstone is still on disk.
 *
 * <pre>{@code
 * import static dev.talus.testkit.TalusAssertions.assertThat;
 * import static dev.talus.testkit.TalusAssertions.assertThatPartition;
 *
 * assertThatPartition(table, "jobs").hasNoTombstones();
 * assertThat(table).sstableCount(1).lastReadScannedAtMostTombstones(0);
 * assertThat(db.warnings()).hasNoDataModelWarnings();
 * }</pre>
 *
 * <p>Explanations read "now" from the table's own database clock ({@link Table#clock()}).
 */
public final class TalusAssertions {
  private TalusAssertions() {}

  public static TableAssert assertThat(Table table) {
    return new TableAssert(table);
  }

  /** Assertions on one partition, named by its partition key values in schema order. */
  public static PartitionAssert assertThatPartition(Table table, Object... partitionKey) {
    return new PartitionAssert(table, partitionKey);
  }

  public static CompactionReportAssert assertThat(CompactionReport report) {
    return new CompactionReportAssert(report);
  }

  /**
   * Assertions on the data-model, tombstone and guardrail warnings a test database produced, e.g.
   * {@code assertThat(db.warnings()).hasNoDataModelWarnings()}.
   */
  public static WarningsAssert assertThat(Warnings warnings) {
    return new WarningsAssert(warnings);
  }
}
