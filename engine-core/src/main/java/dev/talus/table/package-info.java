/**
 * One table's state and the parts that keep it: the live set of memtables and SSTables, changed
 * only through the {@link dev.talus.table.ViewTracker}; the flusher; compactions; the partition
 * guardrails; the quarantine of corrupt SSTables; metrics and inspection (statistics, SSTable
 * summaries, histograms).
 *
 * <p>Internal: not part of the Talus public API; it may change without notice.
 */
package dev.talus.table;
