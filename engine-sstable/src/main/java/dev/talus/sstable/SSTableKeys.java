package dev.talus.sstable;

import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The partition keys of one SSTable in (token, key) order from a starting key, read from the
 * partition index one sample block at a time (each checked against its CRC32C); the Data file is
 * read only when {@link #partition()} asks for the partition of the key last returned, from the
 * position its index entry gives (no Bloom filter or index search: a scan that merges these keys
 * knows which SSTables hold each one). The reader must stay referenced while this is used. Not
 * thread-safe.
 */
public final class SSTableKeys implements Iterator<PartitionKey> {
  private final SSTableReader reader;
  private final PartitionKey from;
  private final boolean inclusive;
  private int block;
  private List<IndexEntry> entries = List.of();
  private int pos;
  private IndexEntry nextEntry;
  private PartitionKey next;
  private IndexEntry current;
  private PartitionKey currentKey;

  SSTableKeys(SSTableReader reader, PartitionKey from, boolean inclusive) {
    this.reader = reader;
    this.from = from;
    this.inclusive = inclusive;
    this.block = from == null ? 0 : Math.max(0, reader.sampleAtOrBefore(from));
  }

  @Override
  public boolean hasNext() {
    while (next == null) {
      while (pos == entries.size()) {
        if (block == reader.sampleCount()) {
          return false;
        }
        entries = reader.readIndexBlock(block++);
        pos = 0;
      }
      IndexEntry e = entries.get(pos++);
      if (from != null) {
        int c = e.compareTo(from.token(), from.bytes());
        if (c < 0 || (c == 0 && !inclusive)) {
          continue;
        }
      }
      next = PartitionKey.of(e.key());
      nextEntry = e;
    }
    return true;
  }

  @Override
  public PartitionKey next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    PartitionKey k = next;
    current = nextEntry;
    currentKey = k;
    next = null;
    nextEntry = null;
    return k;
  }

  /**
   * The partition of the key {@link #next()} returned last, read from the position its index entry
   * gives; valid while the reader stays referenced.
   *
   * @throws IllegalStateException before the first {@link #next()}
   * @throws dev.talus.io.CorruptFileException if the Data file disagrees with the index
   */
  public PartitionData partition() {
    if (current == null) {
      throw new IllegalStateException("no key returned yet");
    }
    return reader.partitionAt(current, currentKey);
  }
}
