package dev.talus.sstable;

import dev.talus.io.CorruptFileException;
import dev.talus.io.FileFormat;
import dev.talus.io.ReadableFile;
import dev.talus.io.StorageFs;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads a row-key map written by {@link IndexRowKeysWriter}: the partition key and clustering of a
 * row id. Opening reads the whole file once and checks its checksum and structure; the partition
 * keys and the block offsets stay in memory, and a lookup reads one block of clusterings.
 * Thread-safe once open.
 */
public final class IndexRowKeysReader implements AutoCloseable {
  /** The keys of one row: its partition key and its clustering, as the SSTable stores them. */
  public record RowKey(byte[] partitionKey, byte[] clustering) {}

  private static final int TRAILER = 4 + 4 + 8 + 8;

  private final ReadableFile file;
  private final Path path;
  private final int rows;
  private final int[] firstRows;
  private final byte[][] partitionKeys;
  private final long[] blockOffsets; // one more than blocks: the last is the partition table's

  private IndexRowKeysReader(
      ReadableFile file,
      Path path,
      int rows,
      int[] firstRows,
      byte[][] partitionKeys,
      long[] blockOffsets) {
    this.file = file;
    this.path = path;
    this.rows = rows;
    this.firstRows = firstRows;
    this.partitionKeys = partitionKeys;
    this.blockOffsets = blockOffsets;
  }

  /**
   * Opens and checks {@code file} of the SSTable of {@code generation}.
   *
   * @throws CorruptFileException if the file is damaged, truncated or belongs to another SSTable
   */
  public static IndexRowKeysReader open(StorageFs fs, Path file, long generation)
      throws IOException {
    ReadableFile f = fs.openForRead(file);
    try {
      IndexRowKeysReader r = check(f, file, generation);
      f = null; // the reader owns it now
      return r;
    } finally {
      if (f != null) {
        f.close();
      }
    }
  }

  private static IndexRowKeysReader check(ReadableFile f, Path file, long generation)
      throws IOException {
    long size = f.size();
    int header = FileFormat.headerLength(IndexRowKeysWriter.NAME);
    if (size < header + TRAILER + FileFormat.FOOTER_LENGTH) {
      throw new CorruptFileException(file, size, "too short for an index row-key map");
    }
    // The trailer says how to walk the file; the walk below checks every byte it relies on.
    ByteBuffer trailer = ByteBuffer.allocate(TRAILER);
    long trailerAt = size - FileFormat.FOOTER_LENGTH - TRAILER;
    while (trailer.hasRemaining()) {
      if (f.read(trailer, trailerAt + trailer.position()) < 0) {
        throw new CorruptFileException(file, trailerAt, "truncated");
      }
    }
    trailer.flip();
    int rows = trailer.getInt();
    int partitions = trailer.getInt();
    long partitionsAt = trailer.getLong();
    long blocksAt = trailer.getLong();
    int blocks =
        rows < 0 ? -1 : (rows + IndexRowKeysWriter.BLOCK_ROWS - 1) / IndexRowKeysWriter.BLOCK_ROWS;
    // each row takes at least one byte and each partition five: counts that cannot fit are
    // damage, refused before anything is sized by them
    if (rows < 0
        || partitions < 0
        || rows > partitionsAt - header
        || partitions > (blocksAt - partitionsAt) / 5
        || partitionsAt < header
        || blocksAt < partitionsAt
        || blocksAt + 8L * blocks != trailerAt) {
      throw new CorruptFileException(file, trailerAt, "inconsistent row-key map trailer");
    }
    ChecksumInput src = new ChecksumInput(f, file);
    DataInputStream in = new DataInputStream(src);
    try {
      FileFormat.checkHeader(
          in,
          file,
          IndexRowKeysWriter.NAME,
          generation,
          IndexRowKeysWriter.VERSION,
          IndexRowKeysWriter.VERSION);
      long[] offsets = new long[blocks + 1];
      for (int row = 0; row < rows; row++) {
        if (row % IndexRowKeysWriter.BLOCK_ROWS == 0) {
          offsets[row / IndexRowKeysWriter.BLOCK_ROWS] = src.position();
        }
        in.skipNBytes(Varints.read(in));
        if (src.position() > partitionsAt) {
          throw new CorruptFileException(file, src.position(), "rows run into the partitions");
        }
      }
      offsets[blocks] = src.position();
      if (src.position() != partitionsAt) {
        throw new CorruptFileException(file, src.position(), "rows end before the partitions");
      }
      int[] firsts = new int[partitions];
      byte[][] keys = new byte[partitions][];
      for (int p = 0; p < partitions; p++) {
        long at = src.position();
        firsts[p] = in.readInt();
        if ((p == 0 && firsts[p] != 0)
            || (p > 0 && firsts[p] < firsts[p - 1])
            || firsts[p] > rows) {
          throw new CorruptFileException(file, at, "partition rows out of order");
        }
        int keyLength = Varints.read(in);
        if (keyLength > blocksAt - src.position()) {
          throw new CorruptFileException(file, at, "partition key runs past the partition table");
        }
        keys[p] = new byte[keyLength];
        in.readFully(keys[p]);
      }
      if (src.position() != blocksAt) {
        throw new CorruptFileException(file, src.position(), "partitions end before the blocks");
      }
      for (int b = 0; b < blocks; b++) {
        long at = src.position();
        if (in.readLong() != offsets[b]) {
          throw new CorruptFileException(file, at, "block offset does not match the rows");
        }
      }
      in.skipNBytes(TRAILER); // read above; the footer checksum covers it
      FileFormat.checkFooter(src, file);
      return new IndexRowKeysReader(f, file, rows, firsts, keys, offsets);
    } catch (EOFException e) {
      throw new CorruptFileException(file, src.position(), "truncated", e);
    } catch (CorruptFileException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new CorruptFileException(
          file, src.position(), "undecodable index row-key map: " + e.getMessage(), e);
    }
  }

  /** The partition key of row {@code rowId}, from memory (no read). */
  public byte[] partitionKey(int rowId) {
    return partitionKeys[partitionOf(rowId)].clone();
  }

  private int partitionOf(int rowId) {
    if (rowId < 0 || rowId >= rows) {
      throw new IllegalArgumentException("row id " + rowId + " not in [0, " + rows + ")");
    }
    int p = Arrays.binarySearch(firstRows, rowId);
    if (p < 0) {
      p = -p - 2; // the last partition starting before the row
    } else {
      while (p + 1 < firstRows.length && firstRows[p + 1] == rowId) {
        p++; // partitions without rows start at the same id: the row is the last one's
      }
    }
    return p;
  }

  /**
   * The row ids of partition {@code partitionKey}: {@code {first, end}} (end exclusive), or null if
   * the SSTable does not hold it. A scan of the partition keys in memory (no read).
   */
  public int[] rowsOf(byte[] partitionKey) {
    for (int p = 0; p < partitionKeys.length; p++) {
      if (Arrays.equals(partitionKeys[p], partitionKey)) {
        int end = p + 1 < firstRows.length ? firstRows[p + 1] : rows;
        return new int[] {firstRows[p], end};
      }
    }
    return null;
  }

  /** The number of rows (row ids are below it). */
  public int rowCount() {
    return rows;
  }

  /** The keys of row {@code rowId}. */
  public RowKey rowKey(int rowId) throws IOException {
    int p = partitionOf(rowId);
    int b = rowId / IndexRowKeysWriter.BLOCK_ROWS;
    long start = blockOffsets[b];
    ByteBuffer block = ByteBuffer.allocate(Math.toIntExact(blockOffsets[b + 1] - start));
    while (block.hasRemaining()) {
      if (file.read(block, start + block.position()) < 0) {
        throw new CorruptFileException(path, start + block.position(), "truncated after open");
      }
    }
    block.flip();
    for (int i = b * IndexRowKeysWriter.BLOCK_ROWS; i < rowId; i++) {
      int len = Varints.read(block);
      block.position(block.position() + len);
    }
    byte[] clustering = new byte[Varints.read(block)];
    block.get(clustering);
    return new RowKey(partitionKeys[p].clone(), clustering);
  }

  @Override
  public void close() throws IOException {
    file.close();
  }
}
