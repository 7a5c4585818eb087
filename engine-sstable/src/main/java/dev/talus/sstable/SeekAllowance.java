package dev.talus.sstable;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How many reads may pay for an SSTable overlapping others before it is worth compacting away:
 * LevelDB's {@code allowed_seeks}. A read that had to consult more than one SSTable charges one of
 * them; LevelDB reckons one such seek costs about as much as compacting 40 KiB and allows one per
 * {@value #BYTES_PER_SEEK} bytes of the file (at least {@value #MINIMUM}), which this copies. The
 * charge that uses the allowance up, and every allowance's worth of charges after it, is reported,
 * so the caller can ask for a compaction, which the strategy may still find too dear for what reads
 * have paid so far ({@link #charged()}). Thread-safe.
 */
public final class SeekAllowance {
  /** Bytes of SSTable per allowed seek (LevelDB's figure). */
  public static final long BYTES_PER_SEEK = 16 * 1024;

  /** The allowance of the smallest SSTables. */
  public static final int MINIMUM = 100;

  private final long allowed;
  private final AtomicLong charged = new AtomicLong();

  SeekAllowance(long onDiskBytes) {
    this.allowed = Math.max(MINIMUM, onDiskBytes / BYTES_PER_SEEK);
  }

  /**
   * Charges one seek; true for the charge that uses the allowance up and for every allowance's
   * worth of charges after it.
   */
  public boolean charge() {
    return charged.incrementAndGet() % allowed == 0;
  }

  /** True once the allowance is used up. */
  public boolean exhausted() {
    return charged.get() >= allowed;
  }

  /** The seeks charged so far. */
  public long charged() {
    return charged.get();
  }
}
