package dev.talus.read;

import dev.talus.data.DeletionTime;
import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

/**
 * What one source holds for the slices of a read, read once and kept: the partition deletion, and
 * per slice its range tombstones and rows in ascending order. A merge of it reads exactly what a
 * merge of the source would read for those slices. Immutable once built; used from one thread.
 */
final class Gathered implements PartitionData {
  /** A slice, and the source's range tombstones and rows (ascending) for it. */
  record Part(Slice slice, List<RangeTombstone> tombstones, List<Row> rows) {}

  private final PartitionKey key;
  private final DeletionTime partitionDeletion;
  private final long maxTimestamp;
  private final List<Part> parts;

  Gathered(PartitionData source, List<Part> parts) {
    this.key = source.key();
    this.partitionDeletion = source.partitionDeletion();
    this.maxTimestamp = source.maxTimestamp();
    this.parts = parts;
  }

  @Override
  public PartitionKey key() {
    return key;
  }

  @Override
  public DeletionTime partitionDeletion() {
    return partitionDeletion;
  }

  @Override
  public long maxTimestamp() {
    return maxTimestamp;
  }

  @Override
  public List<RangeTombstone> rangeTombstones(Slice slice) {
    for (Part p : parts) {
      if (p.slice.equals(slice)) {
        return p.tombstones;
      }
    }
    throw new IllegalArgumentException("slice " + slice + " was not gathered");
  }

  @Override
  public Iterator<Row> rows(Slice slice, boolean reversed) {
    for (Part p : parts) {
      if (p.slice.equals(slice)) {
        if (!reversed || p.rows.size() < 2) {
          return p.rows.iterator();
        }
        List<Row> r = new ArrayList<>(p.rows);
        Collections.reverse(r);
        return r.iterator();
      }
    }
    throw new IllegalArgumentException("slice " + slice + " was not gathered");
  }
}
