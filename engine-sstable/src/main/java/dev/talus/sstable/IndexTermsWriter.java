package dev.talus.sstable;

import dev.talus.io.FileFormat;
import dev.talus.io.StorageFs;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.roaringbitmap.RoaringBitmap;

/**
 * Builds the term dictionary of one storage-attached index over one SSTable: every distinct term (a
 * value in an order-preserving byte encoding, compared as unsigned bytes) with the ids of the rows
 * that hold it, as a RoaringBitmap. Terms and row ids may be added in any order; {@link #write}
 * sorts the terms and writes the component laid out in docs/file-format.md ("SAI term dictionary"):
 * blocks of {@value #BLOCK_TERMS} front-coded terms, each followed by its postings, then a block
 * index for binary search. The terms are held in memory until written. Not thread-safe.
 */
public final class IndexTermsWriter {
  /** The component name in the file header. */
  static final String NAME = "SaiTerms";

  /** The layout version in the file header. */
  static final int VERSION = 1;

  /** Terms per block: the unit of a lookup read and of front coding. */
  static final int BLOCK_TERMS = 16;

  private final TreeMap<byte[], RoaringBitmap> terms = new TreeMap<>(Arrays::compareUnsigned);

  /** Records that row {@code rowId} holds {@code term}. */
  public void add(byte[] term, int rowId) {
    if (rowId < 0) {
      throw new IllegalArgumentException("row id must not be negative: " + rowId);
    }
    RoaringBitmap rows = terms.get(term);
    if (rows == null) {
      rows = new RoaringBitmap();
      terms.put(term.clone(), rows);
    }
    rows.add(rowId);
  }

  /** The number of distinct terms added so far. */
  public int termCount() {
    return terms.size();
  }

  /**
   * Writes the dictionary to {@code file} (which must not exist), forced to storage, for an SSTable
   * of {@code generation} with {@code rowCount} rows; every row id added must be below it.
   */
  public void write(StorageFs fs, Path file, long generation, int rowCount) throws IOException {
    if (!terms.isEmpty()) {
      int maxRow = terms.values().stream().mapToInt(RoaringBitmap::last).max().orElse(-1);
      if (maxRow >= rowCount) {
        throw new IllegalArgumentException(
            "row id " + maxRow + " is not below the row count " + rowCount);
      }
    }
    try (ComponentOutput out = new ComponentOutput(fs.create(file))) {
      DataOutputStream data = new DataOutputStream(out);
      FileFormat.writeHeader(data, NAME, VERSION, generation);
      data.writeInt(rowCount);
      data.writeInt(terms.size());
      data.writeInt(BLOCK_TERMS);
      List<Long> blockOffsets = new ArrayList<>();
      List<byte[]> firstTerms = new ArrayList<>();
      int i = 0;
      byte[] previous = null;
      for (Map.Entry<byte[], RoaringBitmap> e : terms.entrySet()) {
        byte[] term = e.getKey();
        if (i % BLOCK_TERMS == 0) {
          blockOffsets.add(out.position());
          firstTerms.add(term);
          previous = null;
        }
        int shared = previous == null ? 0 : Arrays.mismatch(previous, term);
        if (shared < 0) {
          shared = term.length; // cannot happen: terms are distinct
        }
        Varints.write(data, shared);
        Varints.write(data, term.length - shared);
        data.write(term, shared, term.length - shared);
        RoaringBitmap rows = e.getValue();
        rows.runOptimize();
        ByteBuffer postings = ByteBuffer.allocate(rows.serializedSizeInBytes());
        rows.serialize(postings);
        Varints.write(data, postings.capacity());
        data.write(postings.array());
        previous = term;
        i++;
      }
      long blockIndexAt = out.position();
      for (int b = 0; b < blockOffsets.size(); b++) {
        data.writeLong(blockOffsets.get(b));
        Varints.write(data, firstTerms.get(b).length);
        data.write(firstTerms.get(b));
      }
      data.writeLong(blockIndexAt);
      data.writeInt(blockOffsets.size());
      FileFormat.writeFooter(out);
      out.sync();
    }
  }
}
