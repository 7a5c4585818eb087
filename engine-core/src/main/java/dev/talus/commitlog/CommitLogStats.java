package dev.talus.commitlog;

/**
 * A snapshot of commit log counters since it was opened. Immutable.
 *
 * @param segments segment files currently kept (active and not yet discarded)
 * @param activeSegmentId the segment receiving appends
 * @param appends records appended (acknowledged or not)
 * @param bytesAppended framed bytes appended, padding included
 * @param syncs sync passes that reached the disk (one pass may fsync several segments)
 * @param segmentsCreated segments created since open
 * @param segmentsDeleted segments deleted because every table had flushed past them
 * @param recordsReplayed records delivered to the replay handler at open
 * @param recordsSkippedAsCorrupt damaged records skipped at open (only with skipCorruptRecords)
 * @param tornTailsTruncated segments whose torn, never-synced tail was cut at open
 * @param holesSkipped unwritten reservations skipped in never-synced tails at open
 * @param failed whether the log is in the failed state (see {@link CommitLogFailedException})
 * @param syncRunningSince while a sync pass or a segment creation (each fsyncs) runs, when (config
 *     clock) it began; null otherwise: the stall indicator
 * @param lateRecords records whose writer stopped waiting for their fsync ({@link
 *     CommitLog#whenDurable}) since open
 * @param lateRecordsPending of those, the ones whose fsync has not completed yet
 */
public record CommitLogStats(
    int segments,
    long activeSegmentId,
    long appends,
    long bytesAppended,
    long syncs,
    long segmentsCreated,
    long segmentsDeleted,
    long recordsReplayed,
    long recordsSkippedAsCorrupt,
    long tornTailsTruncated,
    long holesSkipped,
    boolean failed,
    java.time.Instant syncRunningSince,
    long lateRecords,
    long lateRecordsPending) {

  /** The part the public API shows ({@code TalusDb.commitLogSyncStats()}). */
  public dev.talus.CommitLogSyncStats toSyncStats(dev.talus.CommitLogSync mode) {
    return new dev.talus.CommitLogSyncStats(
        mode,
        java.util.Optional.ofNullable(syncRunningSince),
        syncs,
        lateRecords,
        lateRecordsPending);
  }
}
