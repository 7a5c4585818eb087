package dev.talus;

import java.time.Instant;
import java.util.List;

/**
 * One live SSTable of a table and its statistics, for inspection (what {@code sstablemetadata}
 * shows). Immutable.
 *
 * @param generation the SSTable's number within its table (higher is newer)
 * @param level the leveled-compaction level (0 otherwise)
 * @param sizeBytes bytes on disk, all components
 * @param createdAt when it was written (engine clock)
 * @param minTimestampMicros the oldest write or deletion timestamp in it
 * @param maxTimestampMicros the newest
 * @param minDeletionTimeSeconds the earliest local deletion or expiry time in it
 * @param maxDeletionTimeSeconds the latest; {@code Long.MAX_VALUE} if it holds live data that never
 *     expires (then it can never be dropped whole as expired)
 * @param partitions partitions in it
 * @param rows rows in it
 * @param cells cells in it
 * @param tombstones tombstones of every kind plus expiring cells
 * @param droppableTombstones tombstones whose gc_grace has passed now (estimate)
 * @param firstPartitionKey the values of its first partition key
 * @param lastPartitionKey the values of its last partition key
 * @param firstToken the token of its first partition (partitions are ordered by token, then key)
 * @param lastToken the token of its last partition
 */
public record SSTableSummary(
    long generation,
    int level,
    long sizeBytes,
    Instant createdAt,
    long minTimestampMicros,
    long maxTimestampMicros,
    long minDeletionTimeSeconds,
    long maxDeletionTimeSeconds,
    long partitions,
    long rows,
    long cells,
    long tombstones,
    long droppableTombstones,
    List<Object> firstPartitionKey,
    List<Object> lastPartitionKey,
    long firstToken,
    long lastToken) {
  public SSTableSummary {
    firstPartitionKey = List.copyOf(firstPartitionKey);
    lastPartitionKey = List.copyOf(lastPartitionKey);
  }

  /** True if the two SSTables' partition ranges (token order) overlap. */
  public boolean overlaps(SSTableSummary other) {
    return firstToken <= other.lastToken && other.firstToken <= lastToken;
  }
}
