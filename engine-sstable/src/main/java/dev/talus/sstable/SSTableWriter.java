package dev.talus.sstable;

import dev.talus.data.ClusteringBytes;
import dev.talus.data.DeletionTime;
import dev.talus.data.PartitionKey;
import dev.talus.data.RangeTombstone;
import dev.talus.data.Row;
import dev.talus.data.VarInts;
import dev.talus.io.FileFormat;
import dev.talus.io.StorageFs;
import dev.talus.io.WritableFile;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Writes one SSTable generation, transactionally (after Cassandra's {@code Transactional}): {@link
 * #append} partitions in (token, key) order, then {@link #prepareToCommit()} (finish and sync every
 * component under its temporary name) and {@link #commit()} (rename each into place, the TOC last,
 * then sync the directory), or {@link #abort()}. {@link #close()} without a commit aborts, deleting
 * every file this writer created, so no half-written SSTable is ever visible. Whether the committed
 * SSTable is live is decided by the {@link Manifest}, not by its presence.
 *
 * <p>An SSTable must hold at least one partition; a caller with nothing to write aborts instead. If
 * an {@code append} fails with an I/O error or bad input after it started writing, the writer is
 * unusable and must be aborted.
 *
 * <p>Not thread-safe: one thread writes.
 */
public final class SSTableWriter implements AutoCloseable {
  private enum State {
    OPEN,
    FAILED,
    PREPARED,
    COMMITTED,
    ABORTED
  }

  private final StorageFs fs;
  private final SSTableDescriptor desc;
  private final SSTableOptions options;

  /** The format version written: {@link FormatVersion#CURRENT} but in compatibility tests. */
  private final int version;

  private final ComponentOutput dataFile;
  private final DataChunkWriter data;
  private final DataOutputStream dataOut;
  private final ComponentOutput indexFile;
  private final DataOutputStream indexOut;
  private final Filters filter;
  private final SSTableStats stats = new SSTableStats();
  private final Map<Component, ComponentOutput> open = new EnumMap<>(Component.class);
  private final List<Path> created = new ArrayList<>();
  private final AttachedWriter attached;
  private PartitionKey lastKey;
  private State state = State.OPEN;

  private SSTableWriter(
      StorageFs fs,
      SSTableDescriptor desc,
      long expectedKeys,
      long expectedRows,
      SSTableOptions options,
      int version)
      throws IOException {
    this.fs = fs;
    this.desc = desc;
    this.options = options;
    this.version = version;
    stats.formatVersion = version;
    try {
      this.dataFile = createComponent(Component.DATA);
      this.data =
          new DataChunkWriter(
              dataFile,
              new ChunkCodec(options.compression()),
              options.chunkSize(),
              desc.generation());
      this.dataOut = new DataOutputStream(data);
      this.indexFile = createComponent(Component.INDEX);
      this.indexOut = new DataOutputStream(indexFile);
      this.attached =
          options.attachedWriters() == null ? null : options.attachedWriters().open(desc);
    } catch (IOException | RuntimeException e) {
      abort();
      throw e;
    }
    this.filter =
        Filters.create(
            expectedKeys, options.rowFilter() ? expectedRows : 0, options.bloomFpChance());
  }

  /**
   * Starts writing generation {@code generation} into {@code dir}. {@code expectedKeys} sizes the
   * Bloom filter; an underestimate raises its false-positive rate, never its correctness. The row
   * filter, if {@link SSTableOptions#rowFilter()}, is sized for as many rows as partitions.
   */
  public static SSTableWriter create(
      StorageFs fs, Path dir, long generation, long expectedKeys, SSTableOptions options)
      throws IOException {
    return create(fs, dir, generation, expectedKeys, expectedKeys, options);
  }

  /**
   * As {@link #create(StorageFs, Path, long, long, SSTableOptions)}, with the row filter (if {@link
   * SSTableOptions#rowFilter()}) sized for {@code expectedRows} rows.
   */
  public static SSTableWriter create(
      StorageFs fs,
      Path dir,
      long generation,
      long expectedKeys,
      long expectedRows,
      SSTableOptions options)
      throws IOException {
    return new SSTableWriter(
        fs,
        new SSTableDescriptor(dir, generation),
        expectedKeys,
        expectedRows,
        options,
        FormatVersion.CURRENT);
  }

  /**
   * A writer of format {@code version} instead of the current one, for compatibility tests: only
   * {@value #OLDEST_WRITABLE} and later, the versions whose files differ from the current one only
   * in what this writer still knows how to leave out.
   */
  static SSTableWriter create(
      StorageFs fs,
      Path dir,
      long generation,
      long expectedKeys,
      SSTableOptions options,
      int version)
      throws IOException {
    if (version < OLDEST_WRITABLE || version > FormatVersion.CURRENT) {
      throw new IllegalArgumentException("cannot write format " + version);
    }
    return new SSTableWriter(
        fs, new SSTableDescriptor(dir, generation), expectedKeys, expectedKeys, options, version);
  }

  /** The oldest format {@link #create(StorageFs, Path, long, long, SSTableOptions, int)} writes. */
  static final int OLDEST_WRITABLE = 4;

  public SSTableDescriptor descriptor() {
    return desc;
  }

  /** Partitions appended so far. */
  public long partitionCount() {
    return stats.partitionCount;
  }

  /** Uncompressed bytes of partition data appended so far (for size-based output splitting). */
  public long uncompressedBytes() {
    return data.position();
  }

  private ComponentOutput createComponent(Component c) throws IOException {
    Path tmp = desc.tmpPath(c);
    WritableFile f = fs.create(tmp);
    created.add(tmp);
    ComponentOutput out = new ComponentOutput(f);
    open.put(c, out);
    DataOutputStream h = new DataOutputStream(out);
    FileFormat.writeHeader(h, c.headerName(), version, desc.generation());
    h.flush();
    return out;
  }

  /**
   * Appends one partition. {@code rangeTombstones} must be sorted and disjoint (as {@code
   * DeletionIntervals} produces them) and {@code rows} strictly ascending by clustering.
   *
   * @throws IllegalStateException if {@code key} is not after the previous key (nothing is written
   *     and the writer stays usable), or the writer is not open
   */
  public void append(
      PartitionKey key,
      DeletionTime partitionDeletion,
      List<RangeTombstone> rangeTombstones,
      Iterator<Row> rows)
      throws IOException {
    if (state != State.OPEN) {
      throw new IllegalStateException("writer for " + desc + " is " + state + ", cannot append");
    }
    if (lastKey != null && key.compareTo(lastKey) <= 0) {
      throw new IllegalStateException(
          "partition keys must be appended in strictly ascending (token, key) order: "
              + key
              + " after "
              + lastKey);
    }
    if (key.bytes().length > PartitionSerializer.MAX_KEY) {
      throw new IllegalArgumentException(
          "partition key of " + key.bytes().length + " bytes exceeds 65535");
    }
    state = State.FAILED; // until this partition is fully written
    Row first = rows.hasNext() ? rows.next() : null;
    long[] base = PartitionSerializer.chooseBase(partitionDeletion, rangeTombstones, first);
    PartitionSerializer.Header h =
        new PartitionSerializer.Header(
            key.bytes(), partitionDeletion, rangeTombstones, base[0], base[1], version);
    long start = data.position();
    PartitionSerializer.writeHeader(dataOut, h);
    if (attached != null) {
      attached.partitionStarted(key);
    }
    stats.partitionHeader(key, partitionDeletion, rangeTombstones);

    List<RowIndexBlock> blocks = new ArrayList<>();
    long blockStart = data.position();
    byte[] blockFirst = null;
    byte[] prev = null;
    long cells = 0;
    long rowCount = 0;
    Row r = first;
    while (r != null) {
      if (prev != null && ClusteringBytes.compare(prev, r.clustering()) >= 0) {
        throw new IllegalArgumentException("rows of " + key + " are not in clustering order");
      }
      if (blockFirst == null) {
        blockFirst = r.clustering();
        blockStart = data.position();
      }
      PartitionSerializer.writeRow(dataOut, r, h);
      filter.addRow(key, r.clustering());
      if (options.partitionObserver() != null) {
        options.partitionObserver().rowWritten(key, r);
      }
      if (attached != null) {
        attached.rowWritten(r);
      }
      cells += stats.row(r);
      rowCount++;
      prev = r.clustering();
      long end = data.position();
      if (end - blockStart >= blockTarget(options.rowIndexBlockSize(), blockStart - start)) {
        blocks.add(new RowIndexBlock(blockFirst, prev, blockStart - start, end - blockStart));
        blockFirst = null;
      }
      r = rows.hasNext() ? rows.next() : null;
    }
    if (blockFirst != null) {
      blocks.add(
          new RowIndexBlock(blockFirst, prev, blockStart - start, data.position() - blockStart));
    }
    PartitionSerializer.writeEnd(dataOut);
    // One block is the whole partition: an index for it would only cost space.
    if (blocks.size() < 2) {
      blocks = List.of();
    }
    writeIndexEntry(key, start, blocks, h);
    filter.addPartition(key, !partitionDeletion.isLive() || !rangeTombstones.isEmpty());
    long size = data.position() - start;
    stats.partitionDone(size, cells);
    lastKey = key;
    state = State.OPEN;
    if (options.partitionObserver() != null) {
      options.partitionObserver().partitionWritten(key, size, rowCount);
    }
  }

  /** Divides the configured block size into the smallest block a partition starts with. */
  static final int BLOCK_GROWTH = 16;

  /**
   * The size at which the block starting {@code written} bytes into a partition closes: one
   * sixteenth of what the partition has written so far, at least {@code configured / 16} and at
   * most {@code configured}. Small partitions get small blocks (a point read binary-searches to ~4
   * KiB of rows with the 64 KiB default instead of scanning the whole partition) while a wide
   * partition's blocks grow to the configured size after its first {@code 16 × configured} bytes,
   * so its row index, decoded on every lookup, keeps about the same number of entries.
   */
  static long blockTarget(int configured, long written) {
    return Math.max(configured / BLOCK_GROWTH, Math.min(configured, written / BLOCK_GROWTH));
  }

  private void writeIndexEntry(
      PartitionKey key, long position, List<RowIndexBlock> blocks, PartitionSerializer.Header h)
      throws IOException {
    indexOut.writeLong(key.token());
    PartitionSerializer.writeBytes(indexOut, key.bytes());
    VarInts.writeUnsigned(indexOut, position);
    VarInts.writeUnsigned(indexOut, blocks.size());
    if (!blocks.isEmpty() && h.version() >= FormatVersion.HEADER_IN_INDEX) {
      PartitionSerializer.writeHeaderSummary(indexOut, h);
    }
    for (RowIndexBlock b : blocks) {
      PartitionSerializer.writeBytes(indexOut, b.first());
      PartitionSerializer.writeBytes(indexOut, b.last());
      VarInts.writeUnsigned(indexOut, b.offset());
      VarInts.writeUnsigned(indexOut, b.width());
    }
  }

  /** Finishes every component under its temporary name and syncs it. Idempotent. */
  public void prepareToCommit() throws IOException {
    if (state == State.PREPARED) {
      return;
    }
    if (state != State.OPEN) {
      throw new IllegalStateException("writer for " + desc + " is " + state + ", cannot commit");
    }
    if (stats.partitionCount == 0) {
      throw new IllegalStateException(
          "SSTable " + desc + " has no partitions; abort the writer instead of committing");
    }
    state = State.FAILED;
    dataOut.flush();
    long[] offsets = data.finish();
    FileFormat.writeFooter(dataFile);
    finishComponent(Component.DATA, dataFile);
    CompressionInfo ci =
        new CompressionInfo(
            options.compression(), options.chunkSize(), data.uncompressedLength(), offsets);

    indexOut.flush();
    FileFormat.writeFooter(indexFile);
    finishComponent(Component.INDEX, indexFile);

    writeSmall(Component.COMPRESSION_INFO, ci::write);
    writeSmall(Component.FILTER, filter::write);

    stats.commitLogInterval = options.commitLogInterval();
    stats.level = options.level();
    stats.createdAtSeconds = options.createdAt();
    stats.compression = options.compression();
    stats.chunkSize = options.chunkSize();
    stats.bloomFpChance = options.bloomFpChance();
    stats.rowIndexBlockSize = options.rowIndexBlockSize();
    stats.uncompressedLength = data.uncompressedLength();
    stats.compressedLength = offsets[offsets.length - 1] - offsets[0];
    writeSmall(Component.STATS, stats::write);
    if (attached != null) {
      attached.prepareToCommit(); // synced before the TOC: a complete SSTable has them all
    }
    writeToc();
    state = State.PREPARED;
  }

  private interface Body {
    void write(DataOutputStream out) throws IOException;
  }

  private void writeSmall(Component c, Body body) throws IOException {
    ComponentOutput out = createComponent(c);
    DataOutputStream d = new DataOutputStream(out);
    body.write(d);
    d.flush();
    FileFormat.writeFooter(out);
    finishComponent(c, out);
  }

  private void writeToc() throws IOException {
    Path tmp = desc.tmpPath(Component.TOC);
    WritableFile f = fs.create(tmp);
    created.add(tmp);
    try (f) {
      f.write(ByteBuffer.wrap(Toc.render(version, desc.generation())));
      f.sync();
    }
  }

  private void finishComponent(Component c, ComponentOutput out) throws IOException {
    out.sync();
    out.close();
    open.remove(c);
  }

  /** Renames every component into place and syncs the directory; returns the descriptor. */
  public SSTableDescriptor commit() throws IOException {
    if (state == State.COMMITTED) {
      return desc;
    }
    prepareToCommit();
    state = State.FAILED;
    if (attached != null) {
      attached.commit(); // in place before the TOC; the directory sync below covers them
    }
    for (Component c : Component.values()) {
      fs.rename(desc.tmpPath(c), desc.path(c));
      created.add(desc.path(c));
    }
    fs.syncDirectory(desc.directory());
    state = State.COMMITTED;
    return desc;
  }

  /**
   * Closes and deletes everything this writer created. Safe to call in any state except after a
   * successful commit, where it does nothing. Never throws: cleanup failures are suppressed because
   * abort usually runs while another exception is propagating.
   */
  public void abort() {
    if (state == State.COMMITTED || state == State.ABORTED) {
      return;
    }
    state = State.ABORTED;
    for (ComponentOutput out : open.values()) {
      try {
        out.close();
      } catch (IOException | RuntimeException ignored) {
        // The file is deleted next; a close failure changes nothing.
      }
    }
    open.clear();
    if (attached != null) {
      attached.abort();
    }
    for (Path p : created) {
      try {
        fs.delete(p);
      } catch (IOException | RuntimeException ignored) {
        // A leftover temporary file is removed by Manifest.deleteUnlistedFiles at next open.
      }
    }
    try {
      fs.syncDirectory(desc.directory());
    } catch (IOException | RuntimeException ignored) {
      // As above: leftovers are cleaned at next open.
    }
  }

  /** Aborts unless committed. */
  @Override
  public void close() {
    abort();
  }
}
