package dev.talus.sstable;

import dev.talus.data.DeletionTime;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import java.util.List;

/**
 * What one SSTable holds for a read of one named row ({@link SSTableReader#firstRow}): the
 * partition's deletion, its range tombstones that meet the read's slice, and the first row inside
 * the slice, or null if it holds none. Immutable.
 */
public record FirstRow(
    DeletionTime partitionDeletion, List<RangeTombstone> rangeTombstones, Row row) {}
