package dev.talus.commitlog;

/**
 * A place in the commit log: the id of a segment and the byte offset of a record in it. Ordered by
 * segment id, then offset, which is the order in which records are replayed. Immutable.
 */
public record CommitLogPosition(long segmentId, long offset)
    implements Comparable<CommitLogPosition> {
  /** Before every record of every segment. */
  public static final CommitLogPosition NONE = new CommitLogPosition(0, 0);

  public CommitLogPosition {
    if (segmentId < 0 || offset < 0) {
      throw new IllegalArgumentException(
          "segmentId and offset must be >= 0, were " + segmentId + ", " + offset);
    }
  }

  @Override
  public int compareTo(CommitLogPosition o) {
    int c = Long.compare(segmentId, o.segmentId);
    return c != 0 ? c : Long.compare(offset, o.offset);
  }

  @Override
  public String toString() {
    return "(" + segmentId + ", " + offset + ")";
  }
}
