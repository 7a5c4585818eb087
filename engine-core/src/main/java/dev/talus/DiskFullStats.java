package dev.talus;

/**
 * Flushes and compactions that failed for lack of disk space since the database was opened, from
 * {@link TalusDb#diskFullStats()}. A flush or background compaction that fails with "No space left
 * on device" keeps its memtable (or inputs), deletes its partial files and is retried by the
 * database with a backoff; writes wait for memtable space meanwhile, then are refused with {@link
 * WriteRejectedException}. An episode starts at the first such failure and ends when a round of
 * retries all succeed. Immutable.
 *
 * @param waitingForSpace true while an episode lasts (a flush or compaction is waiting to be
 *     retried)
 * @param episodes episodes started
 * @param failures flushes and compactions that failed for lack of space, failed retries included
 * @param retries rounds of automatic retries run
 * @param lastFailure the last such failure (the operation, its directory and the error), or empty
 */
public record DiskFullStats(
    boolean waitingForSpace, long episodes, long failures, long retries, String lastFailure) {}
