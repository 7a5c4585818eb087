package dev.talus.data;

import java.util.Iterator;
import java.util.List;

/**
 * What one source (a memtable or an SSTable) holds for one partition. Sources are merged by {@link
 * PartitionMerger}; each only has to hand out its own content in clustering order.
 *
 * <p>Implementations are read-only views; whether they may be used from several threads is up to
 * the implementation, but one merge uses a source from one thread.
 */
public interface PartitionData {
  PartitionKey key();

  DeletionTime partitionDeletion();

  /** This source's range tombstones (possibly overlapping), at least those meeting the slice. */
  List<RangeTombstone> rangeTombstones(Slice slice);

  /** Rows whose clustering lies in {@code slice}, ascending, or descending if {@code reversed}. */
  Iterator<Row> rows(Slice slice, boolean reversed);

  /**
   * Hands the rows of {@code slice}, ascending, to {@code visitor} straight from the source's bytes
   * ({@link RowVisitor}), if this source can and has no partition deletion and no range tombstone
   * meeting the slice (so no row is shadowed within it); returns false, having called nothing, if
   * not. The caller then reads {@link #rows}.
   */
  default boolean visit(Slice slice, RowVisitor visitor) {
    return false;
  }

  /**
   * The largest timestamp anywhere in this partition in this source ({@code MAX_VALUE} if unknown).
   */
  default long maxTimestamp() {
    return Long.MAX_VALUE;
  }
}
