package dev.talus.commitlog;

import dev.talus.CommitLogSync;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Objects;

/**
 * Commit log settings, fixed at open. Immutable and thread-safe; build with {@link #builder()}. The
 * sync mode is the public {@link CommitLogSync}, whose constants say when an append returns and
 * what then survives a crash. Defaults follow Cassandra's {@code cassandra.yaml}: 32 MiB segments,
 * PERIODIC sync every 10 s.
 */
public final class CommitLogConfig {
  public static final int MIN_SEGMENT_SIZE = 4 * 1024;
  public static final int MAX_SEGMENT_SIZE = 1 << 30;

  private final int segmentSize;
  private final CommitLogSync syncMode;
  private final Duration periodicInterval;
  private final Duration groupWindow;
  private final boolean skipCorruptRecords;
  private final InstantSource clock;

  private CommitLogConfig(Builder b) {
    this.segmentSize = b.segmentSize;
    this.syncMode = b.syncMode;
    this.periodicInterval = b.periodicInterval;
    this.groupWindow = b.groupWindow;
    this.skipCorruptRecords = b.skipCorruptRecords;
    this.clock = b.clock;
  }

  public static Builder builder() {
    return new Builder();
  }

  public static CommitLogConfig defaults() {
    return builder().build();
  }

  public int segmentSize() {
    return segmentSize;
  }

  /** The largest payload accepted: half a segment, as in Cassandra. */
  public int maxMutationSize() {
    return segmentSize / 2;
  }

  /**
   * Refuses a record too large for a segment ({@link #maxMutationSize}, or too many tables).
   *
   * @throws IllegalArgumentException naming the limit
   */
  void checkRecord(int payloadLength, int tables) {
    if (payloadLength > maxMutationSize()) {
      throw new IllegalArgumentException(
          "Mutation of "
              + payloadLength
              + " bytes exceeds the maximum of "
              + maxMutationSize()
              + " bytes (half the commit log segment size); split it or raise segmentSize");
    }
    if (tables > SegmentFormat.MAX_TABLES_PER_RECORD
        || SegmentFormat.recordFrameSize(payloadLength, tables)
            > segmentSize - SegmentFormat.HEADER_SIZE - SegmentFormat.MARKER_SIZE) {
      throw new IllegalArgumentException(
          "Mutation touching " + tables + " tables does not fit in one segment");
    }
  }

  public CommitLogSync syncMode() {
    return syncMode;
  }

  public Duration periodicInterval() {
    return periodicInterval;
  }

  public Duration groupWindow() {
    return groupWindow;
  }

  public boolean skipCorruptRecords() {
    return skipCorruptRecords;
  }

  /** The clock the stall indicator ({@link CommitLogStats#syncRunningSince}) reads. */
  public InstantSource clock() {
    return clock;
  }

  public Builder toBuilder() {
    return builder()
        .segmentSize(segmentSize)
        .syncMode(syncMode)
        .periodicInterval(periodicInterval)
        .groupWindow(groupWindow)
        .skipCorruptRecords(skipCorruptRecords)
        .clock(clock);
  }

  @Override
  public String toString() {
    return "CommitLogConfig{segmentSize="
        + segmentSize
        + ", syncMode="
        + syncMode
        + ", periodicInterval="
        + periodicInterval
        + ", groupWindow="
        + groupWindow
        + ", skipCorruptRecords="
        + skipCorruptRecords
        + "}";
  }

  /** Not thread-safe. Values are checked by {@link #build()}. */
  public static final class Builder {
    private int segmentSize = 32 * 1024 * 1024;
    private CommitLogSync syncMode = CommitLogSync.PERIODIC;
    private Duration periodicInterval = Duration.ofSeconds(10);
    private Duration groupWindow = Duration.ofMillis(2);
    private boolean skipCorruptRecords;
    private InstantSource clock = InstantSource.system();

    private Builder() {}

    /** The database's clock, for the time a sync began; default the system clock. */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Bytes per segment file, 4 KiB to 1 GiB; default 32 MiB. */
    public Builder segmentSize(int bytes) {
      this.segmentSize = bytes;
      return this;
    }

    public Builder syncMode(CommitLogSync mode) {
      this.syncMode = Objects.requireNonNull(mode, "syncMode");
      return this;
    }

    /** PERIODIC: time between fsyncs; default 10 s. */
    public Builder periodicInterval(Duration interval) {
      this.periodicInterval = Objects.requireNonNull(interval, "periodicInterval");
      return this;
    }

    /** GROUP: minimum time between fsyncs; default 2 ms. */
    public Builder groupWindow(Duration window) {
      this.groupWindow = Objects.requireNonNull(window, "groupWindow");
      return this;
    }

    /**
     * Replay skips (and counts, and logs) damaged records in the synced part of the log instead of
     * refusing to open; default false. Like Cassandra's {@code
     * -Dcassandra.commitlog.ignorereplayerrors=true}: data in skipped records is lost.
     */
    public Builder skipCorruptRecords(boolean skip) {
      this.skipCorruptRecords = skip;
      return this;
    }

    public CommitLogConfig build() {
      if (segmentSize < MIN_SEGMENT_SIZE || segmentSize > MAX_SEGMENT_SIZE) {
        throw new IllegalArgumentException(
            "segmentSize must be between "
                + MIN_SEGMENT_SIZE
                + " and "
                + MAX_SEGMENT_SIZE
                + " bytes, was "
                + segmentSize);
      }
      if (periodicInterval.isNegative() || periodicInterval.isZero()) {
        throw new IllegalArgumentException(
            "periodicInterval must be positive, was " + periodicInterval);
      }
      if (groupWindow.isNegative()) {
        throw new IllegalArgumentException("groupWindow must be >= 0, was " + groupWindow);
      }
      return new CommitLogConfig(this);
    }
  }
}
