package dev.talus.sstable;

import dev.talus.data.PartitionKey;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.data.Slice;
import dev.talus.io.CorruptFileException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The read of one named row from one SSTable ({@link SSTableReader#firstRow}): it goes straight
 * from the index entry to the one row-index block that can hold the slice's start ({@link
 * IndexStretch#locate}), steps over the rows before it in place ({@link InPlaceRows#skip}) and
 * materialises only the row it returns — no row index, partition view or iterator. Stateless.
 */
final class FirstRows {
  private FirstRows() {}

  /**
   * Partition {@code key}'s deletion, its range tombstones meeting {@code slice} and the first row
   * inside the slice, or null if the partition is not in {@code reader}.
   */
  static FirstRow read(SSTableReader reader, PartitionKey key, Slice slice) {
    int found = reader.sampleAtOrBefore(key);
    if (found < 0) {
      return null;
    }
    IndexStretch.Located at;
    try {
      IndexStretch stretch = reader.stretch(found);
      int i = stretch.find(key);
      if (i < 0) {
        return null;
      }
      at = stretch.locate(i, slice.start());
    } catch (CorruptFileException e) {
      throw e;
    } catch (IOException e) {
      throw new CorruptFileException(
          reader.descriptor().path(Component.INDEX),
          reader.samplePosition(found),
          "undecodable index block",
          e);
    }
    ChunkReader chunks = reader.chunks();
    int version = reader.formatVersion();
    ChunkInput ci = new ChunkInput(chunks, at.position());
    PartitionSerializer.Header h;
    try {
      h = PartitionSerializer.readHeader(ci, version);
    } catch (IOException ex) {
      throw ci.corrupt("undecodable partition header: " + ex.getMessage(), ex);
    }
    if (!Arrays.equals(h.key(), key.bytes())) {
      throw new CorruptFileException(
          chunks.path(), chunks.fileOffsetOf(at.position()), "index and data disagree on the key");
    }
    List<RangeTombstone> rts = List.of();
    for (RangeTombstone t : h.rangeTombstones()) {
      if (slice.intersects(t.start(), t.end())) {
        if (rts.isEmpty()) {
          rts = new ArrayList<>(2);
        }
        rts.add(t);
      }
    }
    Row row = null;
    if (at.rowsOffset() != IndexStretch.Located.NONE) {
      if (at.rowsOffset() != IndexStretch.Located.FROM_HEADER) {
        ci.seek(at.position() + at.rowsOffset());
      }
      try {
        while (true) {
          ci.skipRowsInChunk(slice.start(), version);
          Row r = PartitionSerializer.readRow(ci, h, slice.start());
          if (r == PartitionSerializer.SKIPPED) {
            continue;
          }
          if (r != null && Arrays.compareUnsigned(r.clustering(), slice.end()) < 0) {
            row = r; // not skipped, so after the slice's start
          }
          break;
        }
      } catch (IOException e) {
        throw ci.corrupt("undecodable row in " + key + ": " + e.getMessage(), e);
      }
    }
    return new FirstRow(h.partitionDeletion(), rts, row);
  }
}
