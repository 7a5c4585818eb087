package dev.talus.data;

/**
 * The deletion of a whole complex column (a non-frozen collection or user type) in one row: every
 * element cell of {@code column} written at or before the deletion's timestamp is shadowed.
 * Replacing a collection writes one at {@code timestamp − 1} followed by the new elements at {@code
 * timestamp}, so the new elements survive it (Cassandra's {@code ComplexColumnData} deletion).
 * Immutable and thread-safe.
 *
 * @param column the column id
 * @param deletion what it deletes and when
 */
public record ComplexDeletion(int column, DeletionTime deletion) {}
