package dev.talus.sstable;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many reads may pay for an SSTable overlapping others before it is worth compacting away:
 * LevelDB's {@code allowed_seeks}. A read that had to consult more than one SSTable charges one of
 * them; LevelDB reckons one such seek costs about as much as compacting 40 KiB and allows one per
 * {@value #BYTES_PER_SEEK} bytes of the file (at least {@value #MINIMUM}), which this copies. The
 * charge that uses the allowance up is reported once, so the caller can ask for a compaction.
 * Thread-safe.
 */
public final class SeekAllowance {
  /** Bytes of SSTable per allowed seek (LevelDB's figure). */
  public static final long BYTES_PER_SEEK = 16 * 1024;

  /** The allowance of the smallest SSTables. */
  public static final int MINIMUM = 100;

  private final AtomicInteger left;

  SeekAllowance(long onDiskBytes) {
    this.left =
        new AtomicInteger(
            (int) Math.min(Integer.MAX_VALUE, Math.max(MINIMUM, onDiskBytes / BYTES_PER_SEEK)));
  }

  /** Charges one seek; true exactly once, for the charge that uses the allowance up. */
  public boolean charge() {
    return left.get() > 0 && left.decrementAndGet() == 0;
  }

  /** True once the allowance is used up. */
  public boolean exhausted() {
    return left.get() <= 0;
  }
}
