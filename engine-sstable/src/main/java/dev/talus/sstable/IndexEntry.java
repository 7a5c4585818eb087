package dev.talus.sstable;

import dev.talus.data.VarInts;
import java.io.DataInput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One partition-index entry: token, key, position of the partition in the uncompressed Data stream,
 * and its row index (empty for partitions of one block). Immutable.
 */
record IndexEntry(long token, byte[] key, long position, List<RowIndexBlock> blocks) {
  static IndexEntry read(DataInput in) throws IOException {
    long token = in.readLong();
    byte[] key = PartitionSerializer.readBytes(in, PartitionSerializer.MAX_KEY);
    long pos = VarInts.readUnsigned(in);
    int n = VarInts.readLength(in, PartitionSerializer.MAX_COUNT);
    List<RowIndexBlock> blocks = n == 0 ? List.of() : new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      byte[] first = PartitionSerializer.readBytes(in, PartitionSerializer.MAX_CLUSTERING);
      byte[] last = PartitionSerializer.readBytes(in, PartitionSerializer.MAX_CLUSTERING);
      blocks.add(
          new RowIndexBlock(first, last, VarInts.readUnsigned(in), VarInts.readUnsigned(in)));
    }
    return new IndexEntry(token, key, pos, blocks);
  }

  /** Orders like {@code PartitionKey}: token (signed), then key bytes (unsigned). */
  int compareTo(long otherToken, byte[] otherKey) {
    int c = Long.compare(token, otherToken);
    return c != 0 ? c : java.util.Arrays.compareUnsigned(key, otherKey);
  }
}
