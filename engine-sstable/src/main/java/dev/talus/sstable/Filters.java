package dev.talus.sstable;

import dev.talus.data.Murmur3;
import dev.talus.data.PartitionKey;
import dev.talus.io.CorruptFileException;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The Filter component's two Bloom filters: one over the SSTable's partition keys and, from format
 * version {@value #ROW_FILTER_VERSION}, one over its rows, keyed by (partition, clustering).
 *
 * <p>The row filter lets a read of one named row pass over an SSTable that holds the partition but
 * not the row, as RocksDB's whole-key filters do for its keys; Cassandra's filters are on
 * partitions only, so each such SSTable costs it an index lookup. An SSTable's partition that holds
 * a partition or range deletion also adds a <em>deletion marker</em> for the partition: such a
 * deletion may shadow the named row in an older SSTable even though this one lacks the row, so
 * {@link #mayContainRow} answers "maybe" for every row of that partition.
 *
 * <p>Not thread-safe while being built; after the writer hands it over (or it is read) it is only
 * read, and reads are thread-safe.
 */
final class Filters {
  /** The format version whose Filter component carries the row filter after the partition one. */
  static final int ROW_FILTER_VERSION = 4;

  /** Stands for the clustering hash of a partition's deletion marker. */
  private static final long DELETIONS = 0x6a09e667f3bcc909L;

  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final BloomFilter partitions;
  private final BlockedBloomFilter rows;

  /** Whether the SSTable holds deletions, so reads must probe the deletion markers too. */
  private final boolean markers;

  private Filters(BloomFilter partitions, BlockedBloomFilter rows, boolean markers) {
    this.partitions = partitions;
    this.rows = rows;
    this.markers = markers;
  }

  /**
   * These filters for an SSTable that holds a partition or range deletion ({@code deletions}) or
   * none: without any, no marker was written and a row probe alone decides, which keeps the row
   * filter's false-positive rate at the configured chance instead of about twice it.
   */
  Filters withDeletions(boolean deletions) {
    return deletions == markers ? this : new Filters(partitions, rows, deletions);
  }

  /**
   * Empty filters sized for {@code expectedKeys} partitions and, if {@code expectedRows > 0},
   * {@code expectedRows} rows (otherwise the row filter answers "maybe" for every row).
   */
  static Filters create(long expectedKeys, long expectedRows, double fpChance) {
    BlockedBloomFilter rows =
        expectedRows > 0
            ? BlockedBloomFilter.create(expectedRows, fpChance)
            : BlockedBloomFilter.alwaysMaybe();
    return new Filters(BloomFilter.create(expectedKeys, fpChance), rows, true);
  }

  /** Adds partition {@code key}, with its deletion marker if it holds a partition or range one. */
  void addPartition(PartitionKey key, boolean hasDeletions) {
    partitions.add(key);
    if (hasDeletions && !rows.isAlwaysPresent()) {
      rows.add(rowH1(key, DELETIONS), rowH2(key, DELETIONS));
    }
  }

  /** Adds the row of clustering {@code clustering} in partition {@code key}. */
  void addRow(PartitionKey key, byte[] clustering) {
    if (!rows.isAlwaysPresent()) {
      long c = clusteringHash(clustering);
      rows.add(rowH1(key, c), rowH2(key, c));
    }
  }

  /** False means partition {@code key} is certainly not in the SSTable. */
  boolean mayContain(PartitionKey key) {
    return partitions.mayContain(key);
  }

  /**
   * False means the SSTable certainly holds neither the row of clustering {@code clustering} in
   * partition {@code key} nor a partition or range deletion of that partition (it may still hold
   * other rows of the partition). Without a row filter, always true. {@code clusteringHash} is
   * {@link #clusteringHash} of the clustering, computed once for every SSTable a read asks.
   */
  boolean mayContainRow(PartitionKey key, long clusteringHash) {
    if (rows.isAlwaysPresent()) {
      return true;
    }
    return rows.mayContain(rowH1(key, clusteringHash), rowH2(key, clusteringHash))
        || (markers && rows.mayContain(rowH1(key, DELETIONS), rowH2(key, DELETIONS)));
  }

  boolean hasRowFilter() {
    return !rows.isAlwaysPresent();
  }

  /** The words of both filters, in bytes. */
  long sizeInBytes() {
    return partitions.sizeInBytes() + rows.sizeInBytes();
  }

  /** The heap of both filters' word arrays, each with its 16-byte header. */
  long heapBytes() {
    return 32 + partitions.sizeInBytes() + rows.sizeInBytes();
  }

  void write(DataOutputStream out) throws IOException {
    partitions.write(out);
    rows.write(out);
  }

  /**
   * Reads the filters of a Filter component of format {@code version}: the partition filter, then
   * (from version {@value #ROW_FILTER_VERSION}) the row filter, each of which must fill exactly the
   * bytes before the footer that the other leaves.
   */
  static Filters read(DataInputStream in, ChecksumInput src, int version) throws IOException {
    long at = src.position();
    boolean rowsFollow = version >= ROW_FILTER_VERSION;
    BloomFilter p = BloomFilter.read(in, src.remainingBeforeFooter(), rowsFollow);
    if (p == null) {
      throw new CorruptFileException(src.path(), at, "inconsistent partition filter shape");
    }
    if (version < ROW_FILTER_VERSION) {
      return new Filters(p, BlockedBloomFilter.alwaysMaybe(), true);
    }
    long rowsAt = src.position();
    BlockedBloomFilter r = BlockedBloomFilter.read(in, src.remainingBeforeFooter());
    if (r == null) {
      throw new CorruptFileException(src.path(), rowsAt, "inconsistent row filter shape");
    }
    return new Filters(p, r, true);
  }

  private static long rowH1(PartitionKey key, long clusteringHash) {
    return Murmur3.fmix(key.token() ^ clusteringHash);
  }

  private static long rowH2(PartitionKey key, long clusteringHash) {
    return Murmur3.fmix(key.hash2() + Long.rotateLeft(clusteringHash, 29));
  }

  /**
   * A 64-bit hash of clustering bytes in the manner of MurmurHash3's x64 body and finalizer (8-byte
   * little-endian blocks, then the tail), written for this filter; stable, as it is on disk.
   */
  static long clusteringHash(byte[] c) {
    long h = c.length * C2;
    int i = 0;
    for (; i + 8 <= c.length; i += 8) {
      h ^= mixBlock((long) LONG_LE.get(c, i));
      h = Long.rotateLeft(h, 27) * 5 + 0x52dce729;
    }
    if (i < c.length) {
      long tail = 0;
      for (int j = c.length - 1; j >= i; j--) {
        tail = (tail << 8) | (c[j] & 0xff);
      }
      h ^= mixBlock(tail);
    }
    return Murmur3.fmix(h);
  }

  private static long mixBlock(long k) {
    k *= C1;
    k = Long.rotateLeft(k, 31);
    return k * C2;
  }
}
