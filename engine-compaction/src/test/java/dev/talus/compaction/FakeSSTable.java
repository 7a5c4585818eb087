package dev.talus.compaction;

import dev.talus.data.PartitionKey;
import java.nio.ByteBuffer;

/** A synthetic SSTable for strategy tests: keys are made from tokens. */
record FakeSSTable(
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
    long partitionCount,
    boolean seeksExhausted,
    long seeksCharged)
    implements SSTableInfo {

  @Override
  public double droppableTombstoneRatio(long gcBefore) {
    return droppableRatio;
  }

  /** A key whose token is {@code token} (key bytes: the token, big-endian). */
  static PartitionKey key(long token) {
    return PartitionKey.of(ByteBuffer.allocate(8).putLong(token).array(), token, 0);
  }

  static Builder builder(long generation) {
    return new Builder(generation);
  }

  @Override
  public String toString() {
    return "gen"
        + generation
        + "{L"
        + level
        + " size="
        + onDiskSize
        + " tokens="
        + firstKey.token()
        + ".."
        + lastKey.token()
        + " ts="
        + minTimestamp
        + ".."
        + maxTimestamp
        + " maxLdt="
        + maxLocalDeletionTime
        + "}";
  }

  static final class Builder {
    private final long generation;
    private long size = 100;
    private int level;
    private long firstToken = 0;
    private long lastToken = 1000;
    private long minTimestamp = 0;
    private long maxTimestamp = 0;
    private long maxLdt = Long.MAX_VALUE;
    private long created;
    private double droppable;
    private boolean seeksExhausted;
    private long seeksCharged;

    private Builder(long generation) {
      this.generation = generation;
    }

    Builder size(long bytes) {
      this.size = bytes;
      return this;
    }

    Builder level(int level) {
      this.level = level;
      return this;
    }

    Builder tokens(long first, long last) {
      this.firstToken = first;
      this.lastToken = last;
      return this;
    }

    Builder timestamps(long min, long max) {
      this.minTimestamp = min;
      this.maxTimestamp = max;
      return this;
    }

    Builder maxLocalDeletionTime(long seconds) {
      this.maxLdt = seconds;
      return this;
    }

    Builder created(long seconds) {
      this.created = seconds;
      return this;
    }

    /** Reads charged to it ({@code charged}) and whether they used up its allowance. */
    Builder seeks(boolean exhausted, long charged) {
      this.seeksExhausted = exhausted;
      this.seeksCharged = charged;
      return this;
    }

    Builder droppable(double ratio) {
      this.droppable = ratio;
      return this;
    }

    FakeSSTable build() {
      return new FakeSSTable(
          generation,
          size,
          level,
          key(firstToken),
          key(lastToken),
          minTimestamp,
          maxTimestamp,
          maxLdt,
          created,
          droppable,
          1 + Math.max(0, lastToken - firstToken),
          seeksExhausted,
          seeksCharged);
    }
  }
}
