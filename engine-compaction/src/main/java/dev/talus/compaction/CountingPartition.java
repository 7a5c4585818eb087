package dev.talus.compaction;

import dev.talus.data.DeletionTime;
import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import java.util.Iterator;
import java.util.List;

/** A merge source that counts the cells handed out, for compaction statistics. Not thread-safe. */
final class CountingPartition implements PartitionData {
  static final class Counts {
    long cellsRead;
    long cellsWritten;
  }

  private final PartitionData delegate;
  private final Counts counts;

  CountingPartition(PartitionData delegate, Counts counts) {
    this.delegate = delegate;
    this.counts = counts;
  }

  @Override
  public PartitionKey key() {
    return delegate.key();
  }

  @Override
  public DeletionTime partitionDeletion() {
    return delegate.partitionDeletion();
  }

  @Override
  public List<RangeTombstone> rangeTombstones(Slice slice) {
    return delegate.rangeTombstones(slice);
  }

  @Override
  public Iterator<Row> rows(Slice slice, boolean reversed) {
    return new CountingRows(delegate.rows(slice, reversed), counts, true);
  }

  @Override
  public long maxTimestamp() {
    return delegate.maxTimestamp();
  }

  static final class CountingRows implements Iterator<Row> {
    private final Iterator<Row> in;
    private final Counts counts;
    private final boolean read;

    CountingRows(Iterator<Row> in, Counts counts, boolean read) {
      this.in = in;
      this.counts = counts;
      this.read = read;
    }

    @Override
    public boolean hasNext() {
      return in.hasNext();
    }

    @Override
    public Row next() {
      Row r = in.next();
      if (read) {
        counts.cellsRead += r.cells().length;
      } else {
        counts.cellsWritten += r.cells().length;
      }
      return r;
    }
  }
}
