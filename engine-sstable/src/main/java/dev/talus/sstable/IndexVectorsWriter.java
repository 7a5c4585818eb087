package dev.talus.sstable;

import dev.talus.io.FileFormat;
import dev.talus.io.StorageFs;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Collects the vectors of one vector index of one SSTable, with the row id (in the SSTable's
 * row-key map) each belongs to, and writes them as a flat file: every vector in row id order,
 * searched by an exact scan (docs/file-format.md, "SAI vector file"). Vectors are added in
 * increasing row id order; each has exactly the dimension given at construction. Holds everything
 * in memory until {@link #write}. Not thread-safe.
 */
public final class IndexVectorsWriter {
  static final String NAME = "SaiVector";
  static final int VERSION = 1;

  private final int dimension;
  private int[] rowIds = new int[64];
  private float[] vectors;
  private int count;

  /** A writer of vectors of {@code dimension} (at least 1) elements. */
  public IndexVectorsWriter(int dimension) {
    if (dimension < 1) {
      throw new IllegalArgumentException("dimension " + dimension);
    }
    this.dimension = dimension;
    this.vectors = new float[64 * dimension];
  }

  /** Adds the vector of row {@code rowId}, which must be above every row id added before. */
  public void add(int rowId, float[] vector) {
    if (vector.length != dimension) {
      throw new IllegalArgumentException(
          "vector of " + vector.length + " elements, expected " + dimension);
    }
    if (rowId < 0 || (count > 0 && rowId <= rowIds[count - 1])) {
      throw new IllegalArgumentException("row id " + rowId + " out of order");
    }
    if (count == rowIds.length) {
      rowIds = Arrays.copyOf(rowIds, count * 2);
      vectors = Arrays.copyOf(vectors, count * 2 * dimension);
    }
    rowIds[count] = rowId;
    System.arraycopy(vector, 0, vectors, count * dimension, dimension);
    count++;
  }

  /** The number of elements of each vector. */
  public int dimension() {
    return dimension;
  }

  /**
   * The vectors added, vector {@code i} at {@code [i * dimension, (i + 1) * dimension)} for {@code
   * i < count()} (the array may be longer): the writer's own array, callers must not modify it.
   */
  public float[] vectors() {
    return vectors;
  }

  /** The number of vectors added. */
  public int count() {
    return count;
  }

  /**
   * Writes the vectors to {@code file} (which must not exist) of the SSTable of {@code generation}
   * holding {@code rowCount} rows, and forces it to storage.
   */
  public void write(StorageFs fs, Path file, long generation, int rowCount) throws IOException {
    if (count > 0 && rowIds[count - 1] >= rowCount) {
      throw new IllegalArgumentException(
          "row id " + rowIds[count - 1] + " is not below the row count " + rowCount);
    }
    try (ComponentOutput out = new ComponentOutput(fs.create(file))) {
      DataOutputStream data = new DataOutputStream(out);
      FileFormat.writeHeader(data, NAME, VERSION, generation);
      data.writeInt(rowCount);
      data.writeInt(dimension);
      data.writeInt(count);
      ByteBuffer entry = ByteBuffer.allocate(4 + 4 * dimension);
      for (int i = 0; i < count; i++) {
        entry.clear();
        entry.putInt(rowIds[i]);
        for (int j = 0; j < dimension; j++) {
          entry.putFloat(vectors[i * dimension + j]);
        }
        data.write(entry.array());
      }
      FileFormat.writeFooter(out);
      out.sync();
    }
  }
}
