package dev.talus.commitlog;

/**
 * The commit log hit an I/O error (a failed write, fsync, or segment creation) and refuses every
 * further append until it is closed and reopened. Writes affected by the failure were never
 * acknowledged; the cause is the original error. Unchecked: the API layer maps it to its own
 * storage-failed exception.
 *
 * <p>Why not retry: after a failed fsync Linux may already have dropped the dirty pages and cleared
 * their error state, so a later fsync that "succeeds" says nothing about the lost data
 * (PostgreSQL's "fsyncgate", 2018). Only reopening, which replays what really is on disk, is
 * trustworthy.
 */
public final class CommitLogFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CommitLogFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
