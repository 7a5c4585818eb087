package dev.talus.sstable;

import dev.talus.data.PartitionData;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Iterates every partition of an SSTable in (token, key) order, for compaction and tools. Walks the
 * partition index one sample block at a time (each checked against its CRC32C) and hands out lazy
 * {@link PartitionData} views whose rows are decoded only when iterated. The reader must stay
 * referenced while the scanner and its partitions are used. Not thread-safe; {@link #close()} holds
 * no resources today but callers should close it so future versions may.
 */
public final class SSTableScanner implements Iterator<PartitionData>, AutoCloseable {
  private final SSTableReader reader;
  private int block;
  private List<IndexEntry> entries = List.of();
  private int pos;

  SSTableScanner(SSTableReader reader) {
    this.reader = reader;
  }

  @Override
  public boolean hasNext() {
    while (pos == entries.size()) {
      if (block == reader.sampleCount()) {
        return false;
      }
      entries = reader.readIndexBlock(block++);
      pos = 0;
    }
    return true;
  }

  @Override
  public PartitionData next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return reader.partitionAt(entries.get(pos++), null);
  }

  @Override
  public void close() {}
}
