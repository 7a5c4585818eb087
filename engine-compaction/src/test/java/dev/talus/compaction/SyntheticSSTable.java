package dev.talus.compaction;

import dev.talus.data.PartitionKey;
import java.nio.charset.StandardCharsets;

/** An SSTableInfo made up for strategy tests: keys by token, sizes and times as given. */
record SyntheticSSTable(
    long generation,
    long onDiskSize,
    int level,
    PartitionKey firstKey,
    PartitionKey lastKey,
    long minTimestamp,
    long maxTimestamp,
    long maxLocalDeletionTime,
    long createdAtSeconds,
    double droppableRatio,
    long partitionCount)
    implements SSTableInfo {

  static PartitionKey token(long t) {
    return PartitionKey.of(("t" + t).getBytes(StandardCharsets.UTF_8), t, 0);
  }

  SyntheticSSTable withTokens(long first, long last) {
    return new SyntheticSSTable(
        generation,
        onDiskSize,
        level,
        token(first),
        token(last),
        minTimestamp,
        maxTimestamp,
        maxLocalDeletionTime,
        createdAtSeconds,
        droppableRatio,
        partitionCount);
  }

  @Override
  public double droppableTombstoneRatio(long gcBefore) {
    return droppableRatio;
  }

  static Builder builder(long generation) {
    return new Builder(generation);
  }

  static final class Builder {
    private final long generation;
    private long size = 1 << 20;
    private long firstToken = -1000;
    private long lastToken = 1000;
    private long minTs = 1;
    private long maxTs = 100;
    private long maxLdt = Long.MAX_VALUE;
    private long createdAt;
    private double ratio;
    private long partitions = 1000;

    Builder(long generation) {
      this.generation = generation;
    }

    Builder size(long bytes) {
      this.size = bytes;
      return this;
    }

    Builder tokens(long first, long last) {
      this.firstToken = first;
      this.lastToken = last;
      return this;
    }

    Builder timestamps(long min, long max) {
      this.minTs = min;
      this.maxTs = max;
      return this;
    }

    Builder maxLocalDeletionTime(long t) {
      this.maxLdt = t;
      return this;
    }

    Builder createdAt(long t) {
      this.createdAt = t;
      return this;
    }

    Builder droppableRatio(double r) {
      this.ratio = r;
      return this;
    }

    Builder partitions(long n) {
      this.partitions = n;
      return this;
    }

    SyntheticSSTable build() {
      return new SyntheticSSTable(
          generation,
          size,
          0,
          token(firstToken),
          token(lastToken),
          minTs,
          maxTs,
          maxLdt,
          createdAt,
          ratio,
          partitions);
    }
  }
}
