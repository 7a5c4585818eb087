package dev.talus.data;

/**
 * A deletion: everything written with a timestamp at or below {@code markedForDeleteAt} is deleted.
 * {@code localDeletionTime} (seconds since the epoch, engine clock) is when the deletion happened;
 * it decides when the tombstone itself may be purged (after gc_grace).
 *
 * <p>Immutable and thread-safe.
 */
public record DeletionTime(long markedForDeleteAt, long localDeletionTime) {
  /** "Not deleted": deletes nothing and is superseded by every real deletion. */
  public static final DeletionTime LIVE = new DeletionTime(Long.MIN_VALUE, Long.MAX_VALUE);

  public boolean isLive() {
    return markedForDeleteAt == Long.MIN_VALUE;
  }

  /** True if data written at {@code timestamp} is shadowed: ties go to the deletion. */
  public boolean deletes(long timestamp) {
    return timestamp <= markedForDeleteAt;
  }

  /** Higher timestamp wins; on a tie the later local deletion time wins. */
  public boolean supersedes(DeletionTime o) {
    return markedForDeleteAt > o.markedForDeleteAt
        || (markedForDeleteAt == o.markedForDeleteAt && localDeletionTime > o.localDeletionTime);
  }

  /** The deletion that wins between this and {@code o}. */
  public DeletionTime max(DeletionTime o) {
    return o.supersedes(this) ? o : this;
  }
}
