package dev.talus.sstable;

/**
 * How an SSTable is written. Immutable and thread-safe; build with {@link #builder()}, which
 * validates every value at {@link Builder#build()}.
 */
public final class SSTableOptions {
  /** Chunk compression of the Data component. */
  public enum Compression {
    /** lz4-java, fast: Cassandra's default. */
    LZ4(1),
    /** zstd-jni at level 3: denser, slower to write. */
    ZSTD(2),
    /** Chunks stored as is (still checksummed). */
    NONE(0);

    final int id;

    Compression(int id) {
      this.id = id;
    }

    static Compression byId(int id) {
      for (Compression c : values()) {
        if (c.id == id) {
          return c;
        }
      }
      return null;
    }
  }

  /** Commit-log positions covered by an SSTable; opaque to this package. */
  public record CommitLogInterval(long lower, long upper) {
    public CommitLogInterval {
      if (lower > upper) {
        throw new IllegalArgumentException(
            "commit log interval lower > upper: " + lower + ", " + upper);
      }
    }
  }

  /** The uncompressed chunk size written unless another is given: 16 KiB, Cassandra's. */
  public static final int DEFAULT_CHUNK_SIZE = 16 * 1024;

  public static final SSTableOptions DEFAULTS = builder().build();

  private final Compression compression;
  private final int chunkSize;
  private final double bloomFpChance;
  private final boolean rowFilter;
  private final int rowIndexBlockSize;
  private final int level;
  private final CommitLogInterval commitLogInterval;
  private final long createdAt;
  private final PartitionObserver partitionObserver;
  private final AttachedWriter.Factory attachedWriters;

  private SSTableOptions(Builder b) {
    this.compression = b.compression;
    this.chunkSize = b.chunkSize;
    this.bloomFpChance = b.bloomFpChance;
    this.rowFilter = b.rowFilter;
    this.rowIndexBlockSize = b.rowIndexBlockSize;
    this.level = b.level;
    this.commitLogInterval = b.commitLogInterval;
    this.createdAt = b.createdAt;
    this.partitionObserver = b.partitionObserver;
    this.attachedWriters = b.attachedWriters;
  }

  /** Told about each partition written, or null. Not stored in the SSTable. */
  public PartitionObserver partitionObserver() {
    return partitionObserver;
  }

  /**
   * Makes the writer of the files attached to each SSTable written with these options, or null. Not
   * stored in the SSTable.
   */
  public AttachedWriter.Factory attachedWriters() {
    return attachedWriters;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Compression compression() {
    return compression;
  }

  public int chunkSize() {
    return chunkSize;
  }

  public double bloomFpChance() {
    return bloomFpChance;
  }

  /**
   * Whether the SSTable carries a Bloom filter over its rows as well as its partitions (worth it
   * for tables with clustering columns; off by default).
   */
  public boolean rowFilter() {
    return rowFilter;
  }

  public int rowIndexBlockSize() {
    return rowIndexBlockSize;
  }

  public int level() {
    return level;
  }

  /** The commit-log interval, or null if none. */
  public CommitLogInterval commitLogInterval() {
    return commitLogInterval;
  }

  /**
   * When the SSTable is written, in seconds since the epoch on the engine clock (0 if the caller
   * gave none). Recorded in the Stats component; single-SSTable tombstone compaction uses it for
   * the minimum age.
   */
  public long createdAt() {
    return createdAt;
  }

  /** A builder starting from these options, to derive variants (e.g. another level or time). */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.compression = compression;
    b.chunkSize = chunkSize;
    b.bloomFpChance = bloomFpChance;
    b.rowFilter = rowFilter;
    b.rowIndexBlockSize = rowIndexBlockSize;
    b.level = level;
    b.commitLogInterval = commitLogInterval;
    b.createdAt = createdAt;
    b.partitionObserver = partitionObserver;
    b.attachedWriters = attachedWriters;
    return b;
  }

  @Override
  public String toString() {
    return "SSTableOptions{compression="
        + compression
        + ", chunkSize="
        + chunkSize
        + ", bloomFpChance="
        + bloomFpChance
        + ", rowFilter="
        + rowFilter
        + ", rowIndexBlockSize="
        + rowIndexBlockSize
        + ", level="
        + level
        + ", commitLogInterval="
        + commitLogInterval
        + ", createdAt="
        + createdAt
        + "}";
  }

  /**
   * Not thread-safe. Defaults follow Cassandra: LZ4, {@value #DEFAULT_CHUNK_SIZE}-byte chunks, fp
   * 0.01, 64 KiB row-index blocks.
   */
  public static final class Builder {
    private Compression compression = Compression.LZ4;
    private int chunkSize = DEFAULT_CHUNK_SIZE;
    private double bloomFpChance = 0.01;
    private boolean rowFilter;
    private int rowIndexBlockSize = 64 * 1024;
    private int level;
    private CommitLogInterval commitLogInterval;
    private long createdAt;
    private PartitionObserver partitionObserver;
    private AttachedWriter.Factory attachedWriters;

    private Builder() {}

    /**
     * Writes files attached to each SSTable from its rows as they are appended, committed and
     * aborted with it (null: none).
     */
    public Builder attachedWriters(AttachedWriter.Factory factory) {
      this.attachedWriters = factory;
      return this;
    }

    /** Calls {@code observer} after each partition is appended (null: none). */
    public Builder partitionObserver(PartitionObserver observer) {
      this.partitionObserver = observer;
      return this;
    }

    public Builder compression(Compression c) {
      this.compression = c;
      return this;
    }

    /** Uncompressed chunk size in bytes: a power of two from 1 KiB to 1 MiB. */
    public Builder chunkSize(int bytes) {
      this.chunkSize = bytes;
      return this;
    }

    /** See {@link SSTableOptions#rowFilter()}. */
    public Builder rowFilter(boolean on) {
      this.rowFilter = on;
      return this;
    }

    /** Bloom filter false-positive chance in (0, 1]; 1.0 disables the filter. */
    public Builder bloomFpChance(double p) {
      this.bloomFpChance = p;
      return this;
    }

    /** Bytes of partition data between row-index entries, at least 256. */
    public Builder rowIndexBlockSize(int bytes) {
      this.rowIndexBlockSize = bytes;
      return this;
    }

    public Builder level(int level) {
      this.level = level;
      return this;
    }

    public Builder commitLogInterval(long lower, long upper) {
      this.commitLogInterval = new CommitLogInterval(lower, upper);
      return this;
    }

    /** Creation time in seconds since the epoch (engine clock), at least 0. */
    public Builder createdAt(long epochSeconds) {
      this.createdAt = epochSeconds;
      return this;
    }

    public SSTableOptions build() {
      if (compression == null) {
        throw new IllegalArgumentException("compression must not be null");
      }
      if (chunkSize < 1024 || chunkSize > (1 << 20) || Integer.bitCount(chunkSize) != 1) {
        throw new IllegalArgumentException(
            "chunkSize must be a power of two between 1 KiB and 1 MiB, got " + chunkSize);
      }
      if (!(bloomFpChance > 0 && bloomFpChance <= 1.0)) {
        throw new IllegalArgumentException(
            "bloomFpChance must be in (0, 1] (1.0 disables the filter), got " + bloomFpChance);
      }
      if (rowIndexBlockSize < 256) {
        throw new IllegalArgumentException(
            "rowIndexBlockSize must be at least 256 bytes, got " + rowIndexBlockSize);
      }
      if (level < 0) {
        throw new IllegalArgumentException("level must be >= 0, got " + level);
      }
      if (createdAt < 0) {
        throw new IllegalArgumentException(
            "createdAt must be >= 0 seconds since the epoch, got " + createdAt);
      }
      return new SSTableOptions(this);
    }
  }
}
