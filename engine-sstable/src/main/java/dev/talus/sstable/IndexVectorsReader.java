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
 * Reads a vector file written by {@link IndexVectorsWriter} into memory: opening reads the whole
 * file once, checks its checksum and structure (row ids strictly increasing and below the row
 * count, the length the counts imply) and closes it; the vectors then stay on the heap (4 bytes per
 * element) for exact scans. Immutable and thread-safe once open.
 */
public final class IndexVectorsReader {
  private final int rowCount;
  private final int dimension;
  private final int[] rowIds;
  private final float[] vectors;
  private volatile float[] squareNorms;

  private IndexVectorsReader(int rowCount, int dimension, int[] rowIds, float[] vectors) {
    this.rowCount = rowCount;
    this.dimension = dimension;
    this.rowIds = rowIds;
    this.vectors = vectors;
  }

  /**
   * Opens, checks and loads {@code file} of the SSTable of {@code generation}.
   *
   * @throws CorruptFileException if the file is damaged, truncated or belongs to another SSTable
   */
  public static IndexVectorsReader open(StorageFs fs, Path file, long generation)
      throws IOException {
    try (ReadableFile f = fs.openForRead(file)) {
      return check(f, file, generation);
    }
  }

  private static IndexVectorsReader check(ReadableFile f, Path file, long generation)
      throws IOException {
    ChecksumInput src = new ChecksumInput(f, file);
    DataInputStream in = new DataInputStream(src);
    int header = FileFormat.headerLength(IndexVectorsWriter.NAME);
    if (src.size() < header + 12 + FileFormat.FOOTER_LENGTH) {
      throw new CorruptFileException(file, src.size(), "too short for an index vector file");
    }
    try {
      FileFormat.checkHeader(
          in, file, IndexVectorsWriter.NAME, generation, IndexVectorsWriter.VERSION, 1);
      int rows = in.readInt();
      int dimension = in.readInt();
      int count = in.readInt();
      long expected =
          header + 12L + (long) count * (4L + 4L * dimension) + FileFormat.FOOTER_LENGTH;
      if (rows < 0 || dimension < 1 || count < 0 || count > rows || expected != src.size()) {
        throw new CorruptFileException(file, header, "inconsistent vector file counts");
      }
      int[] ids = new int[count];
      float[] vectors = new float[Math.multiplyExact(count, dimension)];
      byte[] entry = new byte[4 + 4 * dimension];
      ByteBuffer b = ByteBuffer.wrap(entry);
      for (int i = 0; i < count; i++) {
        long at = src.position();
        in.readFully(entry);
        b.clear();
        ids[i] = b.getInt();
        if (ids[i] < 0 || ids[i] >= rows || (i > 0 && ids[i] <= ids[i - 1])) {
          throw new CorruptFileException(file, at, "vector row ids out of order or range");
        }
        for (int j = 0; j < dimension; j++) {
          vectors[i * dimension + j] = b.getFloat();
        }
      }
      FileFormat.checkFooter(src, file);
      return new IndexVectorsReader(rows, dimension, ids, vectors);
    } catch (EOFException e) {
      throw new CorruptFileException(file, src.position(), "truncated", e);
    } catch (CorruptFileException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new CorruptFileException(
          file, src.position(), "undecodable index vector file: " + e.getMessage(), e);
    }
  }

  /** The rows of the SSTable (as its row-key map counts them). */
  public int rowCount() {
    return rowCount;
  }

  /** The number of elements of each vector. */
  public int dimension() {
    return dimension;
  }

  /** The number of vectors (rows holding a vector). */
  public int size() {
    return rowIds.length;
  }

  /** The row id of vector {@code i}. */
  public int rowId(int i) {
    return rowIds[i];
  }

  /** The first vector whose row id is at least {@code rowId} ({@link #size} if none). */
  public int firstAtOrAfter(int rowId) {
    int i = Arrays.binarySearch(rowIds, rowId);
    return i >= 0 ? i : -i - 1;
  }

  /**
   * All vectors, vector {@code i} at {@code [i * dimension, (i + 1) * dimension)}: the reader's own
   * array, for scans; callers must not modify it.
   */
  public float[] vectors() {
    return vectors;
  }

  /**
   * The squared norm of each vector, computed on first use and kept (a cosine scan divides by the
   * norms); the reader's own array, callers must not modify it.
   */
  public float[] squareNorms() {
    float[] n = squareNorms;
    if (n == null) {
      n = new float[rowIds.length];
      for (int i = 0; i < n.length; i++) {
        float s = 0;
        for (int j = 0; j < dimension; j++) {
          float x = vectors[i * dimension + j];
          s += x * x;
        }
        n[i] = s;
      }
      squareNorms = n;
    }
    return n;
  }

  /** A copy of vector {@code i}. */
  public float[] vector(int i) {
    return Arrays.copyOfRange(vectors, i * dimension, (i + 1) * dimension);
  }
}
