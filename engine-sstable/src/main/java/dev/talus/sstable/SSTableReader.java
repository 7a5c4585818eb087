package dev.talus.sstable;

import dev.talus.data.PartitionData;
import dev.talus.data.PartitionKey;
import dev.talus.data.Slice;
import dev.talus.io.CorruptFileException;
import dev.talus.io.FileFormat;
import dev.talus.io.ReadableFile;
import dev.talus.io.StorageFs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Reads one committed SSTable generation.
 *
 * <p><b>Partition lookup.</b> The Bloom filter answers most absent keys. Otherwise the reader
 * binary-searches an in-memory sample of every 128th partition-index entry (Cassandra's
 * min_index_interval), then reads the one stretch of Index.db between that sample and the next in a
 * single positional read, checks it against the stretch's CRC32C kept from open, and parses it into
 * an {@link IndexStretch} (entry offsets and tokens) that goes into the shared {@link ChunkCache};
 * a lookup then binary-searches the stretch's tokens and decodes only the matching entry. Memory
 * stays bounded (one key per 128 partitions, plus what the byte-bounded cache holds) while a lookup
 * costs at most one index read plus the data chunks. The sample is rebuilt at open by one
 * sequential pass over Index.db, which also checks its footer checksum; index bytes are verified
 * every time they are read from disk (on every lookup when the cache is disabled).
 *
 * <p><b>Reference counting</b> (after Cassandra's Ref): {@link #open} returns a reader holding one
 * reference, owned by whoever opened it. Readers of the data take {@link #tryRef()} and {@link
 * #release()} when done; {@link PartitionData} handed out is valid only while a reference is held.
 * When the count reaches zero the files are closed, and if {@link #markObsolete()} was called the
 * component files are deleted. A leaked reference shows as {@link #refCount()} {@code > 0} and in
 * {@link ChunkCache#unreleasedReaders()}, which tests check at teardown.
 *
 * <p>Thread-safe. Read methods throw {@link CorruptFileException} (file and offset) for damaged
 * bytes and {@link UncheckedIOException} for I/O failures.
 */
public final class SSTableReader {
  static final int SAMPLE_INTERVAL = 128;

  private final StorageFs fs;
  private final SSTableDescriptor desc;
  private final int version;
  private final SSTableStats stats;
  private final CompressionInfo compression;
  private final Filters filter;
  private final ReadableFile dataFile;
  private final ReadableFile indexFile;
  private final ChunkReader chunks;
  private final long[] sampleTokens;
  private final byte[][] sampleKeys;

  /** Index file offsets of sampled entries, plus the end of the entries. */
  private final long[] samplePositions;

  private final int[] sampleCrcs;
  private final long onDiskSize;
  private final SeekAllowance seeks;

  /** The first and last partition keys, built once (a read checks them per SSTable). */
  private final PartitionKey first;

  private final PartitionKey last;
  private final AtomicInteger refs = new AtomicInteger(1);
  private final ChunkCache.IndexLoader stretchLoader = this::loadStretch;
  private boolean obsolete;
  private boolean closed;

  private SSTableReader(
      StorageFs fs,
      SSTableDescriptor desc,
      int version,
      SSTableStats stats,
      CompressionInfo compression,
      Filters filter,
      ReadableFile dataFile,
      ReadableFile indexFile,
      ChunkCache cache,
      IndexSamples samples,
      long onDiskSize) {
    this.fs = fs;
    this.desc = desc;
    this.version = version;
    this.stats = stats;
    this.compression = compression;
    this.filter = filter;
    this.dataFile = dataFile;
    this.indexFile = indexFile;
    this.chunks =
        new ChunkReader(
            dataFile,
            desc.path(Component.DATA),
            desc.generation(),
            compression,
            cache,
            samples.tokens.length);
    this.sampleTokens = samples.tokens;
    this.sampleKeys = samples.keys;
    this.samplePositions = samples.positions;
    this.sampleCrcs = samples.crcs;
    this.onDiskSize = onDiskSize;
    this.seeks = new SeekAllowance(onDiskSize);
    this.first = stats.firstKey();
    this.last = stats.lastKey();
  }

  /**
   * Opens generation {@code generation} in {@code dir}, checking the TOC, the headers and footer
   * checksums of the small components and of the index, and the Data header and length.
   */
  public static SSTableReader open(StorageFs fs, Path dir, long generation, ChunkCache cache)
      throws IOException {
    SSTableDescriptor desc = new SSTableDescriptor(dir, generation);
    int version = ComponentFiles.checkToc(fs, desc);
    SSTableStats stats =
        ComponentFiles.readSmall(
            fs, desc, Component.STATS, version, (in, src) -> SSTableStats.read(in, version, src));
    CompressionInfo ci =
        ComponentFiles.readSmall(
            fs, desc, Component.COMPRESSION_INFO, version, CompressionInfo::read);
    Filters filter =
        ComponentFiles.readSmall(
                fs, desc, Component.FILTER, version, (in, src) -> Filters.read(in, src, version))
            .withDeletions(stats.partitionDeletions() > 0 || stats.rangeTombstones() > 0);
    ReadableFile data = null;
    ReadableFile index = null;
    try {
      index = fs.openForRead(desc.path(Component.INDEX));
      IndexSamples samples = IndexSamples.build(index, desc, stats.partitionCount(), version);
      data = fs.openForRead(desc.path(Component.DATA));
      ComponentFiles.checkDataShape(data, desc, ci, version);
      long onDisk = 0;
      for (Component c : Component.values()) {
        onDisk += fs.size(desc.path(c));
      }
      return new SSTableReader(
          fs, desc, version, stats, ci, filter, data, index, cache, samples, onDisk);
    } catch (IOException | RuntimeException e) {
      ComponentFiles.closeQuietly(index);
      ComponentFiles.closeQuietly(data);
      throw e;
    }
  }

  public SSTableDescriptor descriptor() {
    return desc;
  }

  public long generation() {
    return desc.generation();
  }

  /** The format version the SSTable was written in (see {@link FormatVersion}). */
  public int formatVersion() {
    return version;
  }

  public SSTableStats stats() {
    return stats;
  }

  public PartitionKey firstKey() {
    return first;
  }

  public PartitionKey lastKey() {
    return last;
  }

  /**
   * True if every row this SSTable holds lies outside {@code slice} and it holds no partition or
   * range deletion: it cannot change a read of that slice (Cassandra skips SSTables by clustering
   * range the same way). False when the range is unknown.
   */
  public boolean clusteringsOutside(Slice slice) {
    if (stats.partitionDeletions() > 0 || stats.rangeTombstones() > 0) {
      return false;
    }
    byte[] min = stats.minClustering;
    byte[] max = stats.maxClustering;
    return min != null && max != null && !slice.intersects(min, max);
  }

  /** The reads this SSTable may cost beside others before it is worth compacting away. */
  public SeekAllowance seeks() {
    return seeks;
  }

  /** Uncompressed size of the partition data. */
  public long dataSize() {
    return compression.uncompressedLength();
  }

  /** Total bytes of all component files. */
  public long onDiskSize() {
    return onDiskSize;
  }

  /**
   * The heap this open reader keeps for as long as it is open, beyond the chunk cache: its Bloom
   * filter's words, the partition index samples (tokens, keys, positions, checksums) and the Data
   * chunk offsets, and its chunk-cache slots (one reference per chunk and index stretch). Arrays
   * are counted with their 16-byte header, padded to 8 bytes; the few fixed objects around them
   * (reader, statistics, file handles) are not.
   */
  public long heapBytes() {
    long keys = arrayBytes(sampleKeys.length, 4);
    for (byte[] k : sampleKeys) {
      keys += arrayBytes(k.length, 1);
    }
    return filter.heapBytes()
        + keys
        + arrayBytes(sampleTokens.length, 8)
        + arrayBytes(samplePositions.length, 8)
        + arrayBytes(sampleCrcs.length, 4)
        + arrayBytes(compression.offsets().length, 8)
        + chunks.slotHeapBytes();
  }

  private static long arrayBytes(long length, int elementBytes) {
    return (16 + length * elementBytes + 7) & ~7L;
  }

  ChunkReader chunks() {
    return chunks;
  }

  /** Bloom filter only: false means certainly absent. */
  public boolean mayContain(PartitionKey key) {
    return filter.mayContain(key);
  }

  /**
   * Row filter only: false means no row of {@link #rowHash} {@code rowHash} in partition {@code
   * key} and no partition or range deletion of it is here. True if this SSTable has no row filter.
   */
  public boolean mayContainRow(PartitionKey key, long rowHash) {
    return filter.mayContainRow(key, rowHash);
  }

  /** The hash of a clustering that row filters use: a read asking several SSTables hashes once. */
  public static long rowHash(byte[] clustering) {
    return Filters.clusteringHash(clustering);
  }

  /**
   * The partition for {@code key}, or null if this SSTable does not hold it. The caller must hold a
   * reference for as long as it uses the result.
   */
  public PartitionData partition(PartitionKey key) {
    checkLive();
    if (!filter.mayContain(key)) {
      return null;
    }
    IndexEntry e = findEntry(key);
    return e == null ? null : partitionAt(e, key);
  }

  SSTablePartition partitionAt(IndexEntry e, PartitionKey key) {
    ChunkInput ci = new ChunkInput(chunks, e.position());
    PartitionSerializer.Header h;
    try {
      h = PartitionSerializer.readHeader(ci, version);
    } catch (IOException ex) {
      throw ci.corrupt("undecodable partition header: " + ex.getMessage(), ex);
    }
    if (!Arrays.equals(h.key(), e.key())) {
      throw new CorruptFileException(
          chunks.path(), chunks.fileOffsetOf(e.position()), "index and data disagree on the key");
    }
    PartitionKey k = key != null ? key : PartitionKey.of(h.key());
    return new SSTablePartition(this, k, h, e.position(), ci, e.blocks());
  }

  /**
   * What partition {@code key} holds for the first row of {@code slice}, or null if it is not here
   * ({@link FirstRows}). Callers check {@link #mayContain} first; they hold a reference.
   */
  public FirstRow firstRow(PartitionKey key, Slice slice) {
    checkLive();
    return FirstRows.read(this, key, slice);
  }

  /** Index stretch {@code i} (after sample {@code i}), through the cache. */
  IndexStretch stretch(int i) throws IOException {
    return chunks.indexStretch(i, stretchLoader);
  }

  /** Where stretch {@code i} starts in Index.db (error messages). */
  long samplePosition(int i) {
    return samplePositions[i];
  }

  private IndexEntry findEntry(PartitionKey key) {
    int found = sampleAtOrBefore(key);
    if (found < 0) {
      return null;
    }
    try {
      IndexStretch stretch = stretch(found);
      int i = stretch.find(key);
      return i < 0 ? null : stretch.entry(i);
    } catch (CorruptFileException e) {
      throw e;
    } catch (IOException e) {
      throw new CorruptFileException(
          desc.path(Component.INDEX), samplePositions[found], "undecodable index block", e);
    }
  }

  /** The last sample block whose first key is at or before {@code key}, or -1. */
  int sampleAtOrBefore(PartitionKey key) {
    int lo = 0;
    int hi = sampleTokens.length - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = Long.compare(sampleTokens[mid], key.token());
      if (c == 0) {
        c = Arrays.compareUnsigned(sampleKeys[mid], key.bytes());
      }
      if (c <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  /** Sample stretch {@code i}, read and checked against the CRC taken at open, then parsed. */
  private IndexStretch loadStretch(int i) throws IOException {
    byte[] bytes = readStretchBytes(i);
    try {
      return IndexStretch.parse(bytes, version);
    } catch (IOException e) {
      throw new CorruptFileException(
          desc.path(Component.INDEX), samplePositions[i], "undecodable index block", e);
    }
  }

  /** The bytes of sample stretch {@code i}, checked against the CRC32C taken at open. */
  private byte[] readStretchBytes(int i) {
    long from = samplePositions[i];
    int len = (int) (samplePositions[i + 1] - from);
    Path path = desc.path(Component.INDEX);
    ByteBuffer buf = ByteBuffer.allocate(len);
    try {
      while (buf.hasRemaining()) {
        if (indexFile.read(buf, from + buf.position()) <= 0) {
          throw new CorruptFileException(path, from + buf.position(), "index truncated");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (FileFormat.crc32c(buf.array(), 0, len) != sampleCrcs[i]) {
      throw new CorruptFileException(path, from, "index block checksum mismatch");
    }
    return buf.array();
  }

  /** The entries of sample block {@code i}, checked against the CRC taken at open. */
  List<IndexEntry> readIndexBlock(int i) {
    byte[] bytes = readStretchBytes(i);
    ArrayInput in = new ArrayInput(bytes, 0, bytes.length);
    List<IndexEntry> out = new ArrayList<>(SAMPLE_INTERVAL);
    try {
      while (in.remaining() > 0) {
        out.add(IndexEntry.read(in, version));
      }
    } catch (IOException e) {
      throw new CorruptFileException(
          desc.path(Component.INDEX), samplePositions[i], "undecodable index block", e);
    }
    return out;
  }

  int sampleCount() {
    return sampleTokens.length;
  }

  /** A scanner over every partition in order; the caller holds a reference while using it. */
  public SSTableScanner scanner() {
    checkLive();
    return new SSTableScanner(this);
  }

  /**
   * The partition keys of this SSTable in (token, key) order, from {@code from} (null: the first
   * key; included if {@code inclusive}). Reads the partition index only, one checked sample block
   * at a time, and a key's partition when {@link SSTableKeys#partition()} asks for it. The caller
   * holds a reference while using it.
   */
  public SSTableKeys keys(PartitionKey from, boolean inclusive) {
    checkLive();
    return new SSTableKeys(this, from, inclusive);
  }

  /**
   * Reads every component and checks every checksum: footers, every Data chunk, every partition
   * decoded, every partition header an index entry carries against Data's. Throws {@link
   * CorruptFileException} naming the first damaged file and offset.
   */
  public void verify() throws IOException {
    checkLive();
    ComponentFiles.verifyAll(fs, desc, compression, stats.partitionCount());
    FirstRows.checkIndexHeaders(this);
    try (SSTableScanner s = scanner()) {
      while (s.hasNext()) {
        PartitionData p = s.next();
        p.rows(dev.talus.data.Slice.ALL, false).forEachRemaining(r -> {});
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  // ---- reference counting ----

  /** Takes a reference unless the reader is already released; returns whether it did. */
  public boolean tryRef() {
    while (true) {
      int n = refs.get();
      if (n <= 0) {
        return false;
      }
      if (refs.compareAndSet(n, n + 1)) {
        return true;
      }
    }
  }

  /** Drops a reference; the last one closes the files (and deletes them if obsolete). */
  public void release() {
    int n = refs.decrementAndGet();
    if (n < 0) {
      refs.incrementAndGet();
      throw new IllegalStateException(desc + " released more often than referenced");
    }
    if (n == 0) {
      tidy();
    }
  }

  public int refCount() {
    return Math.max(0, refs.get());
  }

  /** The files are deleted once the last reference is released (at once if none is held). */
  public void markObsolete() {
    boolean deleteNow;
    synchronized (this) {
      obsolete = true;
      deleteNow = closed;
    }
    if (deleteNow) {
      deleteFiles();
    }
  }

  public synchronized boolean isObsolete() {
    return obsolete;
  }

  private void tidy() {
    boolean delete;
    synchronized (this) {
      closed = true;
      delete = obsolete;
    }
    chunks.invalidateCache();
    ComponentFiles.closeQuietly(dataFile);
    ComponentFiles.closeQuietly(indexFile);
    if (delete) {
      deleteFiles();
    }
  }

  private void deleteFiles() {
    ComponentFiles.deleteObsolete(fs, desc);
  }

  private void checkLive() {
    if (refs.get() <= 0) {
      throw new IllegalStateException(desc + " is released; take a reference before reading");
    }
  }

  @Override
  public String toString() {
    return "SSTableReader{" + desc + ", refs=" + refs.get() + "}";
  }
}
