package dev.talus.sstable;

import dev.talus.data.ClusteringBytes;
import dev.talus.data.DeletionTime;
import dev.talus.data.LookAheadIterator;
import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.data.RowVisitor;
import dev.talus.data.Slice;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * One partition of an SSTable as a merge source. Rows are decoded lazily from the Data stream: a
 * forward slice seeks to the first row-index block that can hold its start and reads on until it
 * passes the end; a reversed slice reads one block at a time from the last candidate backwards and
 * iterates each block reversed, so at most one block (~64 KiB by default) is held in memory and
 * only the chunks under the touched blocks are decompressed.
 *
 * <p>Valid only while the caller holds a reference to the reader. Thread-safe: immutable, and every
 * iterator has its own position.
 */
final class SSTablePartition implements PartitionData {
  private final SSTableReader reader;
  private final PartitionKey key;
  private final PartitionSerializer.Header header;
  private final long start;
  private final long rowsStart;
  private final List<RowIndexBlock> blocks;

  /**
   * A private copy of the input that read the header, never read from: its chunk seeds the row
   * iterators' inputs, saving a cache lookup.
   */
  private final ChunkInput headerInput;

  SSTablePartition(
      SSTableReader reader,
      PartitionKey key,
      PartitionSerializer.Header header,
      long start,
      ChunkInput headerInput,
      List<RowIndexBlock> blocks) {
    this.reader = reader;
    this.key = key;
    this.header = header;
    this.start = start;
    this.rowsStart = headerInput.position();
    this.headerInput = headerInput.copy();
    this.blocks = blocks;
  }

  @Override
  public PartitionKey key() {
    return key;
  }

  @Override
  public DeletionTime partitionDeletion() {
    return header.partitionDeletion();
  }

  @Override
  public List<RangeTombstone> rangeTombstones(Slice slice) {
    List<RangeTombstone> out = new ArrayList<>();
    for (RangeTombstone t : header.rangeTombstones()) {
      if (slice.intersects(t.start(), t.end())) {
        out.add(t);
      }
    }
    return out;
  }

  /** The SSTable-wide maximum: cheap, and enough for the merger to skip whole sources. */
  @Override
  public long maxTimestamp() {
    return reader.stats().maxTimestamp();
  }

  /** Number of row-index blocks (0 if the partition fits in one). */
  int rowIndexBlockCount() {
    return blocks.size();
  }

  @Override
  public Iterator<Row> rows(Slice slice, boolean reversed) {
    if (slice.isEmpty()) {
      return Collections.emptyIterator();
    }
    return reversed ? new Reversed(slice) : new Forward(slice);
  }

  private Row read(ChunkInput ci) {
    return read(ci, null);
  }

  /**
   * The next row, null at the end of the partition, or {@link PartitionSerializer#SKIPPED} for a
   * row whose clustering is at or before {@code skipThrough} (stepped over without decoding).
   */
  private Row read(ChunkInput ci, byte[] skipThrough) {
    try {
      return PartitionSerializer.readRow(ci, header, skipThrough);
    } catch (IOException e) {
      throw ci.corrupt("undecodable row in " + key + ": " + e.getMessage(), e);
    }
  }

  /**
   * Streams the rows of {@code slice} to {@code visitor}: simple rows and bare row deletions parsed
   * in place ({@link InPlaceVisit}), others decoded; refused (false) for a partition deletion or a
   * range tombstone meeting the slice, which shadow rows.
   */
  @Override
  public boolean visit(Slice slice, RowVisitor visitor) {
    if (!header.partitionDeletion().isLive()) {
      return false;
    }
    for (RangeTombstone t : header.rangeTombstones()) {
      if (slice.intersects(t.start(), t.end())) {
        return false;
      }
    }
    if (slice.isEmpty()) {
      return true;
    }
    long from = rowsStart;
    if (!blocks.isEmpty()) {
      int b = firstBlockEndingAfter(slice.start());
      if (b == blocks.size()) {
        return true;
      }
      from = start + blocks.get(b).offset();
    }
    ChunkInput ci = new ChunkInput(headerInput, from);
    InPlaceVisit rows = new InPlaceVisit(header);
    byte[] end = slice.end();
    try {
      while (true) {
        ci.skipRowsInChunk(slice.start(), header.version());
        byte[] a = ci.chunk();
        int i = ci.offset();
        int next = rows.parse(a, i, a.length);
        if (next == InPlaceVisit.END) {
          return true;
        }
        if (next >= 0) {
          int f = rows.clusteringFrom;
          if (Arrays.compareUnsigned(a, f, f + rows.clusteringLength, end, 0, end.length) >= 0) {
            return true;
          }
          ci.advance(next - i);
          boolean more =
              rows.tombstone
                  ? visitor.rowTombstone(
                      rows.simple, rows.markedForDeleteAt, rows.localDeletionTime)
                  : visitor.simple(rows.simple);
          if (!more) {
            return true;
          }
          continue;
        }
        Row r = PartitionSerializer.readRow(ci, header, slice.start());
        if (r == PartitionSerializer.SKIPPED) {
          continue;
        }
        if (r == null || ClusteringBytes.compare(r.clustering(), end) >= 0) {
          return true;
        }
        if (!visitor.other(r)) {
          return true;
        }
      }
    } catch (java.io.IOException e) {
      throw ci.corrupt("undecodable row in " + key + ": " + e.getMessage(), e);
    }
  }

  /** Index of the first block whose last clustering is after {@code bound}, or size. */
  private int firstBlockEndingAfter(byte[] bound) {
    int lo = 0;
    int hi = blocks.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (ClusteringBytes.compare(blocks.get(mid).last(), bound) > 0) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /** Index of the last block whose first clustering is before {@code bound}, or -1. */
  private int lastBlockStartingBefore(byte[] bound) {
    int lo = 0;
    int hi = blocks.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (ClusteringBytes.compare(blocks.get(mid).first(), bound) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo - 1;
  }

  private final class Forward extends LookAheadIterator<Row> {
    private final Slice slice;
    private final ChunkInput ci;
    private boolean done;

    Forward(Slice slice) {
      this.slice = slice;
      long from = rowsStart;
      if (!blocks.isEmpty()) {
        int b = firstBlockEndingAfter(slice.start());
        if (b == blocks.size()) {
          done = true;
        } else {
          from = start + blocks.get(b).offset();
        }
      }
      this.ci = new ChunkInput(headerInput, from);
    }

    @Override
    protected Row computeNext() {
      while (!done) {
        // Rows before the slice are stepped over, not decoded; once inside, none are before it.
        Row r = read(ci, slice.start());
        if (r == PartitionSerializer.SKIPPED) {
          continue;
        }
        if (r == null || ClusteringBytes.compare(r.clustering(), slice.end()) >= 0) {
          done = true;
        } else if (slice.contains(r.clustering())) {
          return r;
        }
      }
      return null;
    }
  }

  private final class Reversed implements Iterator<Row> {
    private final Slice slice;
    private int block;
    private List<Row> current = List.of();
    private int pos;
    private boolean done;

    Reversed(Slice slice) {
      this.slice = slice;
      this.block = blocks.isEmpty() ? 0 : lastBlockStartingBefore(slice.end());
    }

    private void load() {
      if (blocks.isEmpty() ? block != 0 : block < 0) {
        done = true;
        return;
      }
      RowIndexBlock b = blocks.isEmpty() ? null : blocks.get(block);
      if (b != null && ClusteringBytes.compare(b.last(), slice.start()) <= 0) {
        done = true;
        return;
      }
      long from = b == null ? rowsStart : start + b.offset();
      long to = b == null ? Long.MAX_VALUE : start + b.offset() + b.width();
      ChunkInput ci = new ChunkInput(headerInput, from);
      List<Row> rows = new ArrayList<>();
      while (ci.position() < to) {
        Row r = read(ci, slice.start());
        if (r == PartitionSerializer.SKIPPED) {
          continue;
        }
        if (r == null) {
          break;
        }
        if (slice.contains(r.clustering())) {
          rows.add(r);
        }
      }
      if (b != null && ci.position() != to) {
        throw ci.corrupt("row-index block of " + key + " does not end on a row boundary", null);
      }
      current = rows;
      pos = rows.size();
      block = b == null ? 1 : block - 1;
    }

    @Override
    public boolean hasNext() {
      while (pos == 0 && !done) {
        load();
      }
      return pos > 0;
    }

    @Override
    public Row next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return current.get(--pos);
    }
  }
}
