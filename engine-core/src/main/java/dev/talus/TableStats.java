package dev.talus;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A table's statistics at one instant — the in-process equivalent of {@code nodetool tablestats}.
 * Counters count since the database was opened. Immutable.
 *
 * @param table the table name
 * @param sstableCount live SSTables
 * @param sstablesPerLevel SSTable count by level (leveled compaction; everything else is level 0)
 * @param bytesPerLevel on-disk bytes by level
 * @param liveDiskBytes on-disk bytes of the live SSTables
 * @param memtableBytes heap bytes the memtables hold (taking writes and being flushed), added up
 *     from the JVM's object layout as writes change them; only the skip lists' index towers are
 *     counted as their expected size
 * @param sstableHeapBytes heap bytes the live SSTables keep while open, outside the chunk cache:
 *     Bloom filters, partition index samples and Data chunk offsets
 * @param writes writes applied (a batch counts once per table update)
 * @param reads reads executed
 * @param writeLatencyMicros latency of writes, from validation to memtable; a batch records its
 *     whole latency once for each table it writes to
 * @param readLatencyMicros latency of reads, whole query
 * @param sstablesPerRead sources (memtables and SSTables) merged per partition read
 * @param tombstonesPerRead tombstones scanned per read
 * @param flushes memtables flushed
 * @param bytesFlushed on-disk bytes of the SSTables flushes wrote
 * @param flushRunningSince while a flush of the table is writing its SSTable (or waiting for writes
 *     that wait for a stalled commit-log fsync, see {@link WriteTimeoutException}), the time of the
 *     database clock when it began; empty otherwise. A flush held up by a slow or stalled disk
 *     stays here (and its memtable in {@code memtableBytes}) for as long as the disk takes; once
 *     the memtable space is full, writers wait and then are refused ({@link
 *     TalusOptions.Builder#writeStallTimeout})
 * @param pendingCompactions 1 if the strategy would start a compaction now, else 0
 * @param runningCompactions compactions running now
 * @param completedCompactions compactions finished (including whole-file expiry drops)
 * @param bytesCompactedRead on-disk bytes read by compactions
 * @param bytesCompactedWritten on-disk bytes written by compactions
 * @param sstablesDroppedExpired SSTables deleted whole because everything in them had expired
 * @param tombstonesPurged tombstones and expired cells compactions purged
 * @param estimatedDroppableTombstones tombstones older than gc_grace in live SSTables (estimate)
 * @param tombstoneWarnings reads that crossed the tombstone warning threshold
 * @param guardrailWarnings partitions warned about by the partition size/rows guardrails and
 *     collections warned about by the collection size guardrails (once per partition, or
 *     collection, per open; see docs/guardrails.md)
 * @param guardrailFailures writes refused by a partition size/rows or collection size failure
 *     threshold
 * @param bloomFilterFalsePositives partition lookups a Bloom filter let through in vain
 * @param bloomFilterLookups partition lookups that consulted a Bloom filter
 * @param outOfOrderFlushes TWCS: flushes holding writes for past time windows
 * @param quarantinedSSTables SSTables set aside as corrupt since the database was opened (only
 *     under {@link DiskFailurePolicy#QUARANTINE}; at open, by a read or by verify)
 * @param compactionStrategy the strategy and its options
 * @param failedCompactions compactions that failed since the database was opened, for a reason
 *     other than a full disk (those are in {@link TalusDb#diskFullStats()}): an I/O error, a
 *     corrupt input SSTable
 * @param consecutiveCompactionFailures compactions that failed since the last one that went
 *     through; while above 0, background compactions of the table back off
 * @param compactionRetryAt while background compactions back off, the time of the database clock
 *     before which none starts (1 s after the first failure, the delay doubling with each further
 *     failure up to 5 min); empty otherwise
 * @param lastCompactionFailure the last such failure (which compaction, and the error), or empty
 * @param indexes the table's storage-attached indexes, in creation order: state and build progress,
 *     size on disk, SSTables covered and reads served ({@link IndexStatus})
 */
public record TableStats(
    String table,
    int sstableCount,
    Map<Integer, Integer> sstablesPerLevel,
    Map<Integer, Long> bytesPerLevel,
    long liveDiskBytes,
    long memtableBytes,
    long sstableHeapBytes,
    long writes,
    long reads,
    Percentiles writeLatencyMicros,
    Percentiles readLatencyMicros,
    Percentiles sstablesPerRead,
    Percentiles tombstonesPerRead,
    long flushes,
    long bytesFlushed,
    Optional<Instant> flushRunningSince,
    int pendingCompactions,
    int runningCompactions,
    long completedCompactions,
    long bytesCompactedRead,
    long bytesCompactedWritten,
    long sstablesDroppedExpired,
    long tombstonesPurged,
    long estimatedDroppableTombstones,
    long tombstoneWarnings,
    long guardrailWarnings,
    long guardrailFailures,
    long bloomFilterFalsePositives,
    long bloomFilterLookups,
    long outOfOrderFlushes,
    long quarantinedSSTables,
    String compactionStrategy,
    long failedCompactions,
    int consecutiveCompactionFailures,
    Optional<Instant> compactionRetryAt,
    String lastCompactionFailure,
    List<IndexStatus> indexes) {
  public TableStats {
    sstablesPerLevel = Map.copyOf(sstablesPerLevel);
    indexes = List.copyOf(indexes);
    bytesPerLevel = Map.copyOf(bytesPerLevel);
  }

  /** False positives per Bloom filter lookup (0 when there were none). */
  public double bloomFilterFalsePositiveRatio() {
    return bloomFilterLookups == 0 ? 0 : (double) bloomFilterFalsePositives / bloomFilterLookups;
  }
}
