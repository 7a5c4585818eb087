/**
 * The read path: {@link dev.talus.read.ReadPath} validates a read against the query-first rules,
 * selects the SSTables and memtables of each partition, merges them, keeps the live rows, projects
 * and pages them; and the partition dump, a read of every source without the merge.
 *
 * <p>Internal: not part of the Talus public API; it may change without notice.
 */
package dev.talus.read;
