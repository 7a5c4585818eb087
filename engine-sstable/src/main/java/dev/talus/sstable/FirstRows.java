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
 * materialises only the row it returns — no row index, partition view or iterator. The partition's
 * header (deletion, delta bases) comes from the index entry when it carries it (format {@value
 * FormatVersion#HEADER_IN_INDEX}, no range tombstones), so the chunk where the partition starts is
 * read only when the row is in it; otherwise from Data, checked against the key. Stateless.
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
      at = stretch.locate(i, key.bytes(), slice.start());
    } catch (CorruptFileException e) {
      throw e;
    } catch (IOException e) {
      throw new CorruptFileException(
          reader.descriptor().path(Component.INDEX),
          reader.samplePosition(found),
          "undecodable index block",
          e);
    }
    if (at.header() != null && at.rowsOffset() == IndexStretch.Located.NONE) {
      return new FirstRow(at.header().partitionDeletion(), List.of(), null);
    }
    ChunkReader chunks = reader.chunks();
    int version = reader.formatVersion();
    PartitionSerializer.Header h = at.header();
    ChunkInput ci;
    if (h != null) { // only entries with a row index carry it: rowsOffset is a block's offset
      ci = new ChunkInput(chunks, at.position() + at.rowsOffset());
    } else {
      ci = new ChunkInput(chunks, at.position());
      h = readHeader(ci, version, key.bytes(), chunks, at.position());
      if (at.rowsOffset() >= 0) {
        ci.seek(at.position() + at.rowsOffset());
      }
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

  /**
   * Checks that every header an index entry of {@code reader} carries is the one its partition has
   * in Data (a read trusts the entry's and no longer reads Data's); for {@link
   * SSTableReader#verify}.
   *
   * @throws CorruptFileException naming the Index file and the entry's key if one differs
   */
  static void checkIndexHeaders(SSTableReader reader) {
    if (reader.formatVersion() < FormatVersion.HEADER_IN_INDEX) {
      return;
    }
    ChunkReader chunks = reader.chunks();
    for (int i = 0; i < reader.sampleCount(); i++) {
      for (IndexEntry e : reader.readIndexBlock(i)) {
        PartitionSerializer.Header inIndex = e.header();
        if (inIndex == null) {
          continue;
        }
        PartitionSerializer.Header h =
            readHeader(
                new ChunkInput(chunks, e.position()),
                reader.formatVersion(),
                e.key(),
                chunks,
                e.position());
        if (!h.rangeTombstones().isEmpty()
            || !h.partitionDeletion().equals(inIndex.partitionDeletion())
            || h.baseTimestamp() != inIndex.baseTimestamp()
            || h.baseLocalDeletionTime() != inIndex.baseLocalDeletionTime()) {
          throw new CorruptFileException(
              reader.descriptor().path(Component.INDEX),
              reader.samplePosition(i),
              "the index entry of " + PartitionKey.of(e.key()) + " disagrees with its Data header");
        }
      }
    }
  }

  /** The partition header at {@code ci}, checked to be {@code key}'s. */
  private static PartitionSerializer.Header readHeader(
      ChunkInput ci, int version, byte[] key, ChunkReader chunks, long position) {
    PartitionSerializer.Header h;
    try {
      h = PartitionSerializer.readHeader(ci, version);
    } catch (IOException ex) {
      throw ci.corrupt("undecodable partition header: " + ex.getMessage(), ex);
    }
    if (!Arrays.equals(h.key(), key)) {
      throw new CorruptFileException(
          chunks.path(), chunks.fileOffsetOf(position), "index and data disagree on the key");
    }
    return h;
  }
}
