package dev.talus.sstable;

import dev.talus.data.Cell;
import dev.talus.data.ClusteringBytes;
import dev.talus.data.ComplexDeletion;
import dev.talus.data.DeletionTime;
import dev.talus.data.LivenessInfo;
import dev.talus.data.PartitionKey;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.sstable.SSTableOptions.CommitLogInterval;
import dev.talus.sstable.SSTableOptions.Compression;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.TreeMap;

/**
 * The Stats component: what compaction and the read path need to know about an SSTable without
 * reading it (after Cassandra's StatsMetadata). Live, non-expiring data counts as {@code
 * Long.MAX_VALUE} for {@link #maxLocalDeletionTime()}, so an SSTable holding any live data is never
 * "fully expired". Immutable and thread-safe once built (the histograms are never modified after
 * construction).
 */
public final class SSTableStats {
  long minTimestamp = Long.MAX_VALUE;
  long maxTimestamp = Long.MIN_VALUE;
  long minLocalDeletionTime = Long.MAX_VALUE;
  long maxLocalDeletionTime = Long.MIN_VALUE;
  byte[] minClustering;
  byte[] maxClustering;
  byte[] firstKey;
  byte[] lastKey;
  long partitionCount;
  long rowCount;
  long cellCount;
  long cellTombstones;
  long expiringCells;
  long rowDeletions;
  long rangeTombstones;
  long partitionDeletions;
  long complexDeletions;
  long elementCells;
  long staticRows;
  int formatVersion = FormatVersion.CURRENT;
  LogHistogram partitionSizes = new LogHistogram();
  LogHistogram cellsPerPartition = new LogHistogram();
  TombstoneHistogram droppableTimes = new TombstoneHistogram();
  CommitLogInterval commitLogInterval;
  int level;
  long createdAtSeconds;
  Compression compression;
  int chunkSize;
  double bloomFpChance;
  int rowIndexBlockSize;
  long uncompressedLength;
  long compressedLength;

  SSTableStats() {}

  public long minTimestamp() {
    return minTimestamp;
  }

  public long maxTimestamp() {
    return maxTimestamp;
  }

  public long minLocalDeletionTime() {
    return minLocalDeletionTime;
  }

  public long maxLocalDeletionTime() {
    return maxLocalDeletionTime;
  }

  /** The smallest clustering or range-tombstone bound, or null if there is none. A copy. */
  public byte[] minClustering() {
    return minClustering == null ? null : minClustering.clone();
  }

  public byte[] maxClustering() {
    return maxClustering == null ? null : maxClustering.clone();
  }

  public PartitionKey firstKey() {
    return PartitionKey.of(firstKey.clone());
  }

  public PartitionKey lastKey() {
    return PartitionKey.of(lastKey.clone());
  }

  public long partitionCount() {
    return partitionCount;
  }

  public long rowCount() {
    return rowCount;
  }

  public long cellCount() {
    return cellCount;
  }

  /**
   * Cell tombstones + expiring cells + row deletions + complex-column (collection) deletions +
   * range tombstones + partition deletions.
   */
  public long tombstoneCount() {
    return cellTombstones
        + expiringCells
        + rowDeletions
        + complexDeletions
        + rangeTombstones
        + partitionDeletions;
  }

  /**
   * Deletions of whole collections or user types (an overwrite leaves one behind). Format 1 files
   * have none.
   */
  public long complexDeletions() {
    return complexDeletions;
  }

  /** Cells of collection elements and user-type fields (cells with a path); 0 in format 1. */
  public long elementCells() {
    return elementCells;
  }

  /** Partitions with a static row; 0 in format 1. */
  public long staticRows() {
    return staticRows;
  }

  /** The SSTable format version the file was written in. */
  public int formatVersion() {
    return formatVersion;
  }

  public long cellTombstones() {
    return cellTombstones;
  }

  public long expiringCells() {
    return expiringCells;
  }

  public long rowDeletions() {
    return rowDeletions;
  }

  public long rangeTombstones() {
    return rangeTombstones;
  }

  public long partitionDeletions() {
    return partitionDeletions;
  }

  /** Partition sizes in uncompressed bytes. */
  public LogHistogram partitionSizes() {
    return partitionSizes;
  }

  public LogHistogram cellsPerPartition() {
    return cellsPerPartition;
  }

  /** Rounded local deletion time → count of droppable things (see {@link #tombstoneCount()}). */
  public TreeMap<Long, Long> droppableTimeHistogram() {
    return droppableTimes.bins();
  }

  /** Null if the writer was given none. */
  public CommitLogInterval commitLogInterval() {
    return commitLogInterval;
  }

  public int level() {
    return level;
  }

  /** When the SSTable was written: seconds since the epoch on the engine clock (0 if unknown). */
  public long createdAtSeconds() {
    return createdAtSeconds;
  }

  public Compression compression() {
    return compression;
  }

  /** Uncompressed size of the Data chunks, in bytes. */
  public int chunkSize() {
    return chunkSize;
  }

  /** On-disk chunk bytes (with checksums) over uncompressed bytes; below 1 means it shrank. */
  public double compressionRatio() {
    return uncompressedLength == 0 ? 1.0 : (double) compressedLength / uncompressedLength;
  }

  public long uncompressedLength() {
    return uncompressedLength;
  }

  /**
   * Format version, compression, chunk size, fp chance and block size the file was written with.
   */
  public String creationInfo() {
    return "format="
        + formatVersion
        + " compression="
        + compression
        + " chunkSize="
        + chunkSize
        + " bloomFpChance="
        + bloomFpChance
        + " rowIndexBlockSize="
        + rowIndexBlockSize;
  }

  /**
   * Tombstones and expiring data whose local deletion time (rounded up to 60 s) is before {@code
   * gcBefore}: an estimate, like Cassandra's, from the binned histogram.
   */
  public long estimatedDroppableTombstones(long gcBefore) {
    return droppableTimes.countBefore(gcBefore);
  }

  /** Droppable tombstones over all cells and deletions: the single-SSTable compaction trigger. */
  public double droppableTombstoneRatio(long gcBefore) {
    long all = cellCount + rowDeletions + complexDeletions + rangeTombstones + partitionDeletions;
    return all == 0 ? 0.0 : (double) estimatedDroppableTombstones(gcBefore) / all;
  }

  // ---- collection (writer side) ----

  void timestamp(long ts) {
    minTimestamp = Math.min(minTimestamp, ts);
    maxTimestamp = Math.max(maxTimestamp, ts);
  }

  void localDeletionTime(long ldt) {
    minLocalDeletionTime = Math.min(minLocalDeletionTime, ldt);
    maxLocalDeletionTime = Math.max(maxLocalDeletionTime, ldt);
  }

  void clustering(byte[] c) {
    if (minClustering == null || ClusteringBytes.compare(c, minClustering) < 0) {
      minClustering = c;
    }
    if (maxClustering == null || ClusteringBytes.compare(c, maxClustering) > 0) {
      maxClustering = c;
    }
  }

  void deletion(DeletionTime d) {
    timestamp(d.markedForDeleteAt());
    localDeletionTime(d.localDeletionTime());
    droppableTimes.update(d.localDeletionTime());
  }

  void partitionHeader(PartitionKey key, DeletionTime pd, Iterable<RangeTombstone> rts) {
    if (firstKey == null) {
      firstKey = key.bytes();
    }
    lastKey = key.bytes();
    partitionCount++;
    if (!pd.equals(DeletionTime.LIVE)) {
      partitionDeletions++;
      deletion(pd);
    }
    for (RangeTombstone t : rts) {
      rangeTombstones++;
      deletion(t.deletion());
      clustering(t.start());
      clustering(t.end());
    }
  }

  /** Returns the number of cells in the row. */
  int row(Row r) {
    rowCount++;
    clustering(r.clustering());
    LivenessInfo l = r.liveness();
    if (!l.equals(LivenessInfo.EMPTY)) {
      timestamp(l.timestamp());
      localDeletionTime(l.localExpirationTime());
    }
    if (!r.deletion().equals(DeletionTime.LIVE)) {
      rowDeletions++;
      deletion(r.deletion());
    }
    if (r.isStatic()) {
      staticRows++;
    }
    for (ComplexDeletion d : r.complexDeletions()) {
      complexDeletions++;
      deletion(d.deletion());
    }
    for (Cell c : r.cells()) {
      cellCount++;
      if (c.hasPath()) {
        elementCells++;
      }
      timestamp(c.timestamp());
      localDeletionTime(c.localDeletionTime());
      if (c.isTombstone()) {
        cellTombstones++;
        droppableTimes.update(c.localDeletionTime());
      } else if (c.isExpiring()) {
        expiringCells++;
        droppableTimes.update(c.localDeletionTime());
      }
    }
    return r.cells().length;
  }

  void partitionDone(long bytes, long cells) {
    partitionSizes.add(bytes);
    cellsPerPartition.add(cells);
  }

  // ---- serialisation ----

  void write(DataOutputStream out) throws IOException {
    out.writeLong(minTimestamp);
    out.writeLong(maxTimestamp);
    out.writeLong(minLocalDeletionTime);
    out.writeLong(maxLocalDeletionTime);
    writeBytes(out, minClustering);
    writeBytes(out, maxClustering);
    writeBytes(out, firstKey);
    writeBytes(out, lastKey);
    for (long v :
        new long[] {
          partitionCount,
          rowCount,
          cellCount,
          cellTombstones,
          expiringCells,
          rowDeletions,
          rangeTombstones,
          partitionDeletions
        }) {
      out.writeLong(v);
    }
    partitionSizes.write(out);
    cellsPerPartition.write(out);
    droppableTimes.write(out);
    out.writeBoolean(commitLogInterval != null);
    if (commitLogInterval != null) {
      out.writeLong(commitLogInterval.lower());
      out.writeLong(commitLogInterval.upper());
    }
    out.writeInt(level);
    out.writeByte(compression.id);
    out.writeInt(chunkSize);
    out.writeDouble(bloomFpChance);
    out.writeInt(rowIndexBlockSize);
    out.writeLong(uncompressedLength);
    out.writeLong(compressedLength);
    out.writeLong(createdAtSeconds);
    // Format 2's fields are optional and trail the rest: an SSTable without collections or
    // statics writes none, so its Stats are byte for byte what format 1 wrote.
    if (complexDeletions != 0 || elementCells != 0 || staticRows != 0) {
      out.writeLong(complexDeletions);
      out.writeLong(elementCells);
      out.writeLong(staticRows);
    }
  }

  /**
   * Reads a Stats body of format {@code version}; {@code src} tells whether format 2's optional
   * trailing fields are present.
   */
  static SSTableStats read(DataInputStream in, int version, ChecksumInput src) throws IOException {
    SSTableStats s = new SSTableStats();
    s.formatVersion = version;
    s.minTimestamp = in.readLong();
    s.maxTimestamp = in.readLong();
    s.minLocalDeletionTime = in.readLong();
    s.maxLocalDeletionTime = in.readLong();
    s.minClustering = readBytes(in);
    s.maxClustering = readBytes(in);
    s.firstKey = readBytes(in);
    s.lastKey = readBytes(in);
    if (s.firstKey == null || s.lastKey == null) {
      throw new IOException("stats without first/last key");
    }
    s.partitionCount = in.readLong();
    s.rowCount = in.readLong();
    s.cellCount = in.readLong();
    s.cellTombstones = in.readLong();
    s.expiringCells = in.readLong();
    s.rowDeletions = in.readLong();
    s.rangeTombstones = in.readLong();
    s.partitionDeletions = in.readLong();
    s.partitionSizes = LogHistogram.read(in);
    s.cellsPerPartition = LogHistogram.read(in);
    s.droppableTimes = TombstoneHistogram.read(in);
    if (in.readBoolean()) {
      s.commitLogInterval = new CommitLogInterval(in.readLong(), in.readLong());
    }
    s.level = in.readInt();
    s.compression = Compression.byId(in.readUnsignedByte());
    if (s.compression == null) {
      throw new IOException("unknown compression id");
    }
    s.chunkSize = in.readInt();
    s.bloomFpChance = in.readDouble();
    s.rowIndexBlockSize = in.readInt();
    s.uncompressedLength = in.readLong();
    s.compressedLength = in.readLong();
    s.createdAtSeconds = in.readLong();
    if (version >= 2 && src.remainingBeforeFooter() > 0) {
      s.complexDeletions = in.readLong();
      s.elementCells = in.readLong();
      s.staticRows = in.readLong();
    }
    return s;
  }

  private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
    out.writeInt(b == null ? -1 : b.length);
    if (b != null) {
      out.write(b);
    }
  }

  private static byte[] readBytes(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < -1 || n > (1 << 26)) {
      throw new IOException("bad length " + n);
    }
    if (n == -1) {
      return null;
    }
    byte[] b = new byte[n];
    in.readFully(b);
    return b;
  }

  @Override
  public String toString() {
    return "SSTableStats{partitions="
        + partitionCount
        + ", rows="
        + rowCount
        + ", cells="
        + cellCount
        + ", tombstones="
        + tombstoneCount()
        + ", ts=["
        + minTimestamp
        + ", "
        + maxTimestamp
        + "], ldt=["
        + minLocalDeletionTime
        + ", "
        + maxLocalDeletionTime
        + "], level="
        + level
        + ", createdAt="
        + createdAtSeconds
        + ", "
        + creationInfo()
        + ", minClustering="
        + Arrays.toString(minClustering)
        + "}";
  }
}
