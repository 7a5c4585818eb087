package dev.talus;

import java.nio.file.Path;

/**
 * A table set aside when its database opened, under {@link DiskFailurePolicy#QUARANTINE}, because a
 * file the whole table depends on (its manifest, the list of its live SSTables) is damaged. The
 * table is not served — {@link TalusDb#table} throws {@link CorruptDataException} naming the file —
 * and nothing in its directory is changed or deleted; the commit-log segments holding its unflushed
 * writes are kept. Restore the table directory from a backup and reopen to get it back. Immutable.
 *
 * @param name the table's name
 * @param directory the table's directory, left untouched
 * @param damagedFile the file that failed its check
 * @param reason what failed, with the offset
 */
public record QuarantinedTable(String name, Path directory, Path damagedFile, String reason) {}
