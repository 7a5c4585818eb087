package dev.talus.compaction;

import dev.talus.data.PartitionKey;
import dev.talus.sstable.SSTableReader;
import dev.talus.sstable.SSTableStats;

/**
 * {@link SSTableInfo} over an open {@link SSTableReader}: everything comes from the reader's
 * statistics, which are read once at open, so no call touches the disk. Holds no reference of its
 * own: whoever builds it keeps the reader referenced while a compaction may use it.
 *
 * <p>Immutable and thread-safe. Two infos are equal iff they wrap the same reader.
 */
public final class ReaderInfo implements SSTableInfo {
  private final SSTableReader reader;
  private final SSTableStats stats;
  private final PartitionKey firstKey;
  private final PartitionKey lastKey;

  public ReaderInfo(SSTableReader reader) {
    this.reader = reader;
    this.stats = reader.stats();
    this.firstKey = reader.firstKey();
    this.lastKey = reader.lastKey();
  }

  public SSTableReader reader() {
    return reader;
  }

  @Override
  public long generation() {
    return reader.generation();
  }

  @Override
  public long onDiskSize() {
    return reader.onDiskSize();
  }

  @Override
  public int level() {
    return stats.level();
  }

  @Override
  public PartitionKey firstKey() {
    return firstKey;
  }

  @Override
  public PartitionKey lastKey() {
    return lastKey;
  }

  @Override
  public long minTimestamp() {
    return stats.minTimestamp();
  }

  @Override
  public long maxTimestamp() {
    return stats.maxTimestamp();
  }

  @Override
  public long maxLocalDeletionTime() {
    return stats.maxLocalDeletionTime();
  }

  @Override
  public long createdAtSeconds() {
    return stats.createdAtSeconds();
  }

  @Override
  public double droppableTombstoneRatio(long gcBefore) {
    return stats.droppableTombstoneRatio(gcBefore);
  }

  @Override
  public long partitionCount() {
    return stats.partitionCount();
  }

  @Override
  public boolean seeksExhausted() {
    return reader.seeks().exhausted();
  }

  @Override
  public long seeksCharged() {
    return reader.seeks().charged();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ReaderInfo r && r.reader == reader;
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(reader);
  }

  @Override
  public String toString() {
    return "ReaderInfo{gen="
        + generation()
        + ", level="
        + level()
        + ", bytes="
        + onDiskSize()
        + "}";
  }
}
