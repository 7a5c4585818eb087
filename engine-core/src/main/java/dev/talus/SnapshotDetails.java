package dev.talus;

import java.nio.file.Path;
import java.time.Instant;

/**
 * One snapshot of one table, as {@code nodetool listsnapshots} shows it.
 *
 * @param name the snapshot's name (its tag)
 * @param keyspace the keyspace of the table it was taken of
 * @param table the table it was taken of (which may have been dropped or truncated since)
 * @param directory where its files are: {@code <table directory>/snapshots/<name>}
 * @param sizeOnDiskBytes the bytes of all its files
 * @param trueSizeBytes the bytes of its files that are not also live files of the table — what
 *     clearing it would free (its SSTables are hard links shared with the live ones until a
 *     compaction, truncate or drop removes those)
 * @param createdAt when it was taken, by the database's clock
 */
public record SnapshotDetails(
    String name,
    String keyspace,
    String table,
    Path directory,
    long sizeOnDiskBytes,
    long trueSizeBytes,
    Instant createdAt) {}
