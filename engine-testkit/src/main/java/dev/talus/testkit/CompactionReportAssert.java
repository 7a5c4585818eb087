package dev.talus.testkit;

import org.assertj.core.api.AbstractAssert;

/** Assertions on what one compaction step did. */
public final class CompactionReportAssert
    extends AbstractAssert<CompactionReportAssert, CompactionReport> {
  CompactionReportAssert(CompactionReport actual) {
    super(actual, CompactionReportAssert.class);
  }

  /** The step dropped the SSTable with this generation whole, unread, as fully expired. */
  public CompactionReportAssert droppedWhole(long generation) {
    isNotNull();
    if (!actual.droppedWhole().contains(generation)) {
      failWithMessage(
          "Expected %s to drop SSTable %d whole, but it did not: %s%s",
          actual.operation(),
          generation,
          actual,
          actual.removedGenerations().contains(generation)
              ? " (it was compacted: its data was read and rewritten)"
              : "");
    }
    return this;
  }

  /** The step dropped no SSTable whole. */
  public CompactionReportAssert droppedNothingWhole() {
    isNotNull();
    if (actual.droppedWholeCount() != 0) {
      failWithMessage("Expected %s to drop no SSTable whole: %s", actual.operation(), actual);
    }
    return this;
  }
}
