package dev.talus.data;

/**
 * Receives the rows of one source's slice straight from the bytes they are stored in ({@link
 * PartitionData#visit}), in clustering order: the common rows without building {@link Row}s, the
 * rest decoded. Every row of the slice goes to exactly one of the methods; each returns false to
 * stop the visit.
 */
public interface RowVisitor {
  /**
   * A row with at most a row marker without TTL, no deletion and only live, non-expiring cells of
   * single-cell columns. {@code row} is reused for the next row: read it before returning.
   */
  boolean simple(SimpleRow row);

  /**
   * A row holding a row deletion and nothing else (no marker, no cells); {@code row} gives its
   * clustering and is reused like {@link #simple}'s.
   */
  boolean rowTombstone(SimpleRow row, long markedForDeleteAt, long localDeletionTime);

  /** Any other row, decoded. */
  boolean other(Row row);
}
