package dev.talus.compaction;

/**
 * A compaction was stopped before it finished: cancelled through its {@link
 * CompactionTask.Checkpoint}, or its thread interrupted. Its partial outputs have been deleted and
 * the live SSTables are unchanged.
 */
public class CompactionInterruptedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CompactionInterruptedException(String message) {
    super(message);
  }
}
