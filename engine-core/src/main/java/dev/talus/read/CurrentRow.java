package dev.talus.read;

import dev.talus.data.ClusteringBytes;
import dev.talus.data.PartitionKey;
import dev.talus.data.PartitionMerger;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import dev.talus.table.TableStore;
import java.util.Iterator;

/**
 * The current state of one row, for the writes that read before writing (list positions, list
 * removal by value, counter increments): every memtable and SSTable holding it merged, deletions
 * applied, tombstones kept (a counter whose cell is a tombstone is deleted, not absent). Stateless.
 */
public final class CurrentRow {
  private CurrentRow() {}

  /** The merged row at {@code clustering} (a row or the static row), or null if there is none. */
  public static Row read(TableStore table, PartitionKey key, byte[] clustering) {
    Slice slice =
        ClusteringBytes.isStatic(clustering)
            ? Slice.STATIC
            : new Slice(ClusteringBytes.before(clustering), ClusteringBytes.after(clustering));
    try (ReadSnapshot snapshot =
        SSTableSelector.snapshot(table.tracker(), table.metrics(), key, slice)) {
      Iterator<Row> rows = PartitionMerger.merge(key, snapshot.sources(), slice, false).rows();
      return rows.hasNext() ? rows.next() : null;
    }
  }
}
