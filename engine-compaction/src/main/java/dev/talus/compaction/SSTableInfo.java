package dev.talus.compaction;

import dev.talus.data.PartitionKey;

/**
 * What a strategy may know about one live SSTable. Implementations are immutable snapshots or views
 * of immutable files, so they are thread-safe.
 */
public interface SSTableInfo {
  long generation();

  /** Bytes on disk, all components. */
  long onDiskSize();

  /** The leveled-compaction level (0 for flushes and for other strategies). */
  int level();

  PartitionKey firstKey();

  PartitionKey lastKey();

  long minTimestamp();

  long maxTimestamp();

  /**
   * The largest local deletion time of any cell, row or tombstone; {@code Long.MAX_VALUE} if the
   * SSTable holds any live data that does not expire. Below gcBefore means everything in it is a
   * purgeable tombstone or expired TTL data.
   */
  long maxLocalDeletionTime();

  /** When the SSTable was written (engine clock, seconds since the epoch). */
  long createdAtSeconds();

  /** Estimated share of its cells that are tombstones purgeable at {@code gcBefore}. */
  double droppableTombstoneRatio(long gcBefore);

  long partitionCount();

  /**
   * True once reads have paid for this SSTable beside others often enough that compacting it away
   * costs less than going on (LevelDB's seek compaction; see {@code SeekAllowance}).
   */
  default boolean seeksExhausted() {
    return false;
  }

  /** The reads charged to this SSTable so far for consulting it beside others. */
  default long seeksCharged() {
    return 0;
  }

  /** True if this SSTable's key range overlaps {@code other}'s. */
  default boolean overlaps(SSTableInfo other) {
    return firstKey().compareTo(other.lastKey()) <= 0 && other.firstKey().compareTo(lastKey()) <= 0;
  }
}
