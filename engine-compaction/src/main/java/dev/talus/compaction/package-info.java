/**
 * Compaction: the strategy SPI and its implementations (size-tiered, leveled, time-window), the
 * task that merges SSTables and purges what may be purged, and the purge-safety rules (gc_grace and
 * overlap). Internal: not part of the Talus public API; the public API configures strategies
 * through {@code dev.talus.CompactionOptions}.
 */
package dev.talus.compaction;
