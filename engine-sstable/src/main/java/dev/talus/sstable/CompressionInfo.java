package dev.talus.sstable;

import dev.talus.io.CorruptFileException;
import dev.talus.sstable.SSTableOptions.Compression;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * The CompressionInfo component: compression, chunk size, uncompressed length and the file offset
 * of every Data chunk (plus the end offset), held in memory by the reader as Cassandra does (8
 * bytes per chunk). Immutable; the offsets array is never modified after construction.
 */
record CompressionInfo(
    Compression compression, int chunkSize, long uncompressedLength, long[] offsets) {
  int chunkCount() {
    return offsets.length - 1;
  }

  void write(DataOutputStream out) throws IOException {
    out.writeByte(compression.id);
    out.writeInt(chunkSize);
    out.writeLong(uncompressedLength);
    out.writeInt(chunkCount());
    for (long o : offsets) {
      out.writeLong(o);
    }
  }

  static CompressionInfo read(DataInputStream in, ChecksumInput src) throws IOException {
    long at = src.position();
    Compression c = Compression.byId(in.readUnsignedByte());
    int chunkSize = in.readInt();
    long len = in.readLong();
    int count = in.readInt();
    if (c == null
        || chunkSize <= 0
        || len < 0
        || count < 0
        || (long) count * 8 + 8 != src.remainingBeforeFooter()) {
      throw new CorruptFileException(src.path(), at, "inconsistent compression info");
    }
    long[] offsets = new long[count + 1];
    for (int i = 0; i <= count; i++) {
      offsets[i] = in.readLong();
    }
    return new CompressionInfo(c, chunkSize, len, offsets);
  }
}
