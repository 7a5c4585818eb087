package dev.talus;

import java.time.Instant;
import java.util.Optional;

/**
 * The commit log's syncs since the database was opened, from {@link TalusDb#commitLogSyncStats()}:
 * the stall indicator of the commit log, as {@link TableStats#flushRunningSince()} is the one of a
 * table's flushes. Immutable.
 *
 * @param syncMode when writes are acknowledged (see {@link CommitLogSync})
 * @param syncRunningSince while the commit log is syncing — a pass that waits for the writes before
 *     its sync marker and fsyncs, or the creation of a segment (its header is fsynced) — the time
 *     (database clock) it began; empty while none runs. Present for seconds and not moving: the
 *     disk is slow or stalled, and GROUP and BATCH writes wait for it (up to {@link
 *     TalusOptions#writeTimeout()})
 * @param syncs sync passes that reached the disk
 * @param writesTimedOut writes that gave up waiting for their record's fsync ({@link
 *     WriteTimeoutException} with {@code logged() == true})
 * @param writesAwaitingSync of those, the ones whose fsync has not completed yet: they are applied
 *     when it does
 */
public record CommitLogSyncStats(
    CommitLogSync syncMode,
    Optional<Instant> syncRunningSince,
    long syncs,
    long writesTimedOut,
    long writesAwaitingSync) {}
