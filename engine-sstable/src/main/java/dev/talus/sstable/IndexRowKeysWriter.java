package dev.talus.sstable;

import dev.talus.io.FileFormat;
import dev.talus.io.StorageFs;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the row-key map that the storage-attached indexes of one SSTable share: for each row id,
 * in the order the SSTable holds its rows, the row's partition key and clustering, so that the row
 * ids an index term names can be turned back into keys to read. Rows are given in order, partition
 * by partition, with {@link #startPartition} then {@link #row} (the static row, if any, first, with
 * its static clustering); row ids are assigned from 0 in that order. Laid out as
 * docs/file-format.md ("SAI row-key map") says. Streams the clusterings to the file and holds only
 * the partition keys in memory. Not thread-safe.
 */
public final class IndexRowKeysWriter implements AutoCloseable {
  static final String NAME = "SaiKeys";

  /**
   * The layout version in the file header. Version 2 gives the static row a row id too (version 1
   * skipped it, so the row ids of an SSTable with static rows differ): a version 1 file is refused
   * as outdated and rebuilt.
   */
  static final int VERSION = 2;

  /** Rows per clustering block: the unit of a lookup read. */
  static final int BLOCK_ROWS = 64;

  private final ComponentOutput out;
  private final DataOutputStream data;
  private final List<byte[]> partitionKeys = new ArrayList<>();
  private final List<Integer> firstRows = new ArrayList<>();
  private final List<Long> blockOffsets = new ArrayList<>();
  private int rows;

  /** Creates {@code file} (which must not exist) for the SSTable of {@code generation}. */
  public IndexRowKeysWriter(StorageFs fs, Path file, long generation) throws IOException {
    this.out = new ComponentOutput(fs.create(file));
    this.data = new DataOutputStream(out);
    FileFormat.writeHeader(data, NAME, VERSION, generation);
  }

  /** Starts the next partition; its rows follow. Keys must come in the SSTable's order. */
  public void startPartition(byte[] partitionKey) {
    partitionKeys.add(partitionKey.clone());
    firstRows.add(rows);
  }

  /** Records the next row of the current partition; returns its row id. */
  public int row(byte[] clustering) throws IOException {
    if (partitionKeys.isEmpty()) {
      throw new IllegalStateException("a row before any partition");
    }
    if (rows % BLOCK_ROWS == 0) {
      blockOffsets.add(out.position());
    }
    Varints.write(data, clustering.length);
    data.write(clustering);
    return rows++;
  }

  /** The number of rows recorded so far (the next row's id). */
  public int rowCount() {
    return rows;
  }

  /** Writes the partition table and the trailer and forces the file to storage. */
  public void finish() throws IOException {
    long partitionsAt = out.position();
    for (int p = 0; p < partitionKeys.size(); p++) {
      data.writeInt(firstRows.get(p));
      Varints.write(data, partitionKeys.get(p).length);
      data.write(partitionKeys.get(p));
    }
    long blocksAt = out.position();
    for (long offset : blockOffsets) {
      data.writeLong(offset);
    }
    data.writeInt(rows);
    data.writeInt(partitionKeys.size());
    data.writeLong(partitionsAt);
    data.writeLong(blocksAt);
    FileFormat.writeFooter(out);
    out.sync();
  }

  /** Closes the file; a writer closed before {@link #finish} leaves an incomplete file. */
  @Override
  public void close() throws IOException {
    out.close();
  }
}
