package dev.talus.sstable;

import dev.talus.data.VarInts;
import java.io.DataInput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One partition-index entry: token, key, position of the partition in the uncompressed Data stream,
 * its row index (empty for partitions of one block) and, from format {@value
 * FormatVersion#HEADER_IN_INDEX} for an entry with a row index, the partition's header without its
 * range tombstones ({@code header}: null if the entry does not carry one, or the partition has
 * range tombstones). Immutable.
 */
record IndexEntry(
    long token,
    byte[] key,
    long position,
    PartitionSerializer.Header header,
    List<RowIndexBlock> blocks) {
  /** Reads an entry of an Index.db written in format {@code version}. */
  static IndexEntry read(DataInput in, int version) throws IOException {
    long token = in.readLong();
    byte[] key = PartitionSerializer.readBytes(in, PartitionSerializer.MAX_KEY);
    long pos = VarInts.readUnsigned(in);
    int n = VarInts.readLength(in, PartitionSerializer.MAX_COUNT);
    PartitionSerializer.Header header =
        n > 0 && version >= FormatVersion.HEADER_IN_INDEX
            ? PartitionSerializer.readHeaderSummary(in, key, version)
            : null;
    List<RowIndexBlock> blocks = n == 0 ? List.of() : new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      byte[] first = PartitionSerializer.readBytes(in, PartitionSerializer.MAX_CLUSTERING);
      byte[] last = PartitionSerializer.readBytes(in, PartitionSerializer.MAX_CLUSTERING);
      blocks.add(
          new RowIndexBlock(first, last, VarInts.readUnsigned(in), VarInts.readUnsigned(in)));
    }
    return new IndexEntry(token, key, pos, header, blocks);
  }

  /** Orders like {@code PartitionKey}: token (signed), then key bytes (unsigned). */
  int compareTo(long otherToken, byte[] otherKey) {
    int c = Long.compare(token, otherToken);
    return c != 0 ? c : java.util.Arrays.compareUnsigned(key, otherKey);
  }
}
