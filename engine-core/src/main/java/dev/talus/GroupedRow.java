package dev.talus;

/**
 * Receives the rows of a grouped read ({@link Select#forEachGroupedRow}), group after group, on the
 * thread that executes the read.
 */
@FunctionalInterface
public interface GroupedRow {
  /**
   * One row of a group.
   *
   * @param row the row (it also carries the group's columns)
   * @param firstOfGroup true for the first row of a group (in the read's order)
   */
  void accept(ResultRow row, boolean firstOfGroup);
}
