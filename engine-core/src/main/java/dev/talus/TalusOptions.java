package dev.talus;

import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Objects;

/**
 * Options fixed when a {@link TalusDb} is opened. Built with {@link #builder(Path)}, validated at
 * {@code build()}; immutable, thread-safe and printable for logs.
 */
public final class TalusOptions {
  private final Path dataDirectory;
  private final InstantSource clock;
  private final long memtableSpaceBytes;
  private final int readThreads;
  private final long chunkCacheBytes;
  private final java.time.Duration writeStallTimeout;

  private TalusOptions(Builder b) {
    this.dataDirectory = b.dataDirectory;
    this.clock = b.clock;
    this.memtableSpaceBytes = b.memtableSpaceBytes;
    this.readThreads = b.readThreads;
    this.chunkCacheBytes = b.chunkCacheBytes;
    this.writeStallTimeout = b.writeStallTimeout;
  }

  /** Options for the database stored in {@code dataDirectory} (created if missing). */
  public static Builder builder(Path dataDirectory) {
    return new Builder(dataDirectory);
  }

  public Path dataDirectory() {
    return dataDirectory;
  }

  /** The one source of "now": write timestamps, TTL expiry, gc_grace, compaction windows. */
  public InstantSource clock() {
    return clock;
  }

  /** Memtable space for all tables together. */
  public long memtableSpaceBytes() {
    return memtableSpaceBytes;
  }

  /** Threads that read the partitions of a multi-partition (IN) query in parallel. */
  public int readThreads() {
    return readThreads;
  }

  /** Cache of decompressed SSTable chunks shared by all tables (0 disables it). */
  public long chunkCacheBytes() {
    return chunkCacheBytes;
  }

  /** How long a writer waits for memtable space before {@link WriteRejectedException}. */
  public java.time.Duration writeStallTimeout() {
    return writeStallTimeout;
  }

  @Override
  public String toString() {
    return "TalusOptions{dataDirectory="
        + dataDirectory
        + ", clock="
        + clock
        + ", memtableSpaceBytes="
        + memtableSpaceBytes
        + ", readThreads="
        + readThreads
        + ", chunkCacheBytes="
        + chunkCacheBytes
        + ", writeStallTimeout="
        + writeStallTimeout
        + "}";
  }

  /** Collects options. Not thread-safe. */
  public static final class Builder {
    private final Path dataDirectory;
    private InstantSource clock = InstantSource.system();
    private long memtableSpaceBytes = Math.min(256L << 20, Runtime.getRuntime().maxMemory() / 4);
    private int readThreads = 2;
    private long chunkCacheBytes = 64L << 20;
    private java.time.Duration writeStallTimeout = java.time.Duration.ofSeconds(60);

    private Builder(Path dataDirectory) {
      this.dataDirectory = Objects.requireNonNull(dataDirectory, "dataDirectory");
    }

    /** The clock; use a {@link ManualClock} in tests. Default: the system clock. */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Memtable space for all tables (default min(256 MiB, max heap / 4)). */
    public Builder memtableSpaceBytes(long bytes) {
      this.memtableSpaceBytes = bytes;
      return this;
    }

    /** Threads for parallel multi-partition reads (default 2). */
    public Builder readThreads(int threads) {
      this.readThreads = threads;
      return this;
    }

    /** Decompressed-chunk cache size shared by all tables (default 64 MiB; 0 disables it). */
    public Builder chunkCacheBytes(long bytes) {
      this.chunkCacheBytes = bytes;
      return this;
    }

    /** How long writers wait for memtable space before being refused (default 60 s). */
    public Builder writeStallTimeout(java.time.Duration timeout) {
      this.writeStallTimeout = Objects.requireNonNull(timeout, "timeout");
      return this;
    }

    public TalusOptions build() {
      if (chunkCacheBytes < 0) {
        throw new InvalidSchemaException("chunkCacheBytes must not be negative");
      }
      if (writeStallTimeout.isNegative()) {
        throw new InvalidSchemaException("writeStallTimeout must not be negative");
      }
      if (memtableSpaceBytes < 1 << 20) {
        throw new InvalidSchemaException(
            "memtableSpaceBytes must be at least 1 MiB, got " + memtableSpaceBytes);
      }
      if (readThreads < 1) {
        throw new InvalidSchemaException("readThreads must be at least 1, got " + readThreads);
      }
      return new TalusOptions(this);
    }
  }
}
