package dev.talus.sstable;

import dev.talus.io.CorruptFileException;
import dev.talus.io.FileFormat;
import dev.talus.io.ReadableFile;
import dev.talus.io.StorageFs;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.roaringbitmap.RoaringBitmap;

/**
 * Writes one term dictionary (docs/file-format.md, "SAI term dictionary") from its terms given in
 * increasing order: blocks of front-coded terms with their postings, then the block index. The
 * block index (every {@value IndexTermsWriter#BLOCK_TERMS}th term) is kept in memory, or, for a
 * dictionary merged from spilled runs, written to a checksummed scratch file beside it ({@code
 * SaiTermBlocks}, the same entries behind a header and before a footer) and copied after the
 * blocks, so that the writer's heap does not grow with the terms. Not thread-safe.
 */
final class TermDictionaryOutput implements Closeable {
  static final String BLOCKS_NAME = "SaiTermBlocks";
  static final int BLOCKS_VERSION = 1;

  private final StorageFs fs;
  private final long generation;
  private final int rowCount;
  private final int termCount;
  private final ComponentOutput out;
  private final DataOutputStream data;
  private final Path scratch;
  private ComponentOutput scratchOut;
  private DataOutputStream scratchData;
  private final List<Long> offsets = new ArrayList<>();
  private final List<byte[]> firsts = new ArrayList<>();
  private int written;
  private byte[] previous;

  /**
   * Starts {@code file} (which must not exist) for the SSTable of {@code generation} with {@code
   * rowCount} rows and {@code termCount} terms; {@code scratch}: where to spill the block index, or
   * null to keep it in memory.
   */
  TermDictionaryOutput(
      StorageFs fs, Path file, long generation, int rowCount, int termCount, Path scratch)
      throws IOException {
    this.fs = fs;
    this.generation = generation;
    this.rowCount = rowCount;
    this.termCount = termCount;
    this.scratch = scratch;
    this.out = new ComponentOutput(fs.create(file));
    this.data = new DataOutputStream(out);
    FileFormat.writeHeader(data, IndexTermsWriter.NAME, IndexTermsWriter.VERSION, generation);
    data.writeInt(rowCount);
    data.writeInt(termCount);
    data.writeInt(IndexTermsWriter.BLOCK_TERMS);
    if (scratch != null) {
      fs.delete(scratch);
      scratchOut = new ComponentOutput(fs.create(scratch));
      scratchData = new DataOutputStream(scratchOut);
      FileFormat.writeHeader(scratchData, BLOCKS_NAME, BLOCKS_VERSION, generation);
    }
  }

  /** Appends {@code term}, greater than the one before, held by {@code rows} (run-optimized). */
  void add(byte[] term, RoaringBitmap rows) throws IOException {
    if (written == termCount) {
      throw new IllegalStateException("more terms than the " + termCount + " announced");
    }
    if (!rows.isEmpty() && Integer.toUnsignedLong(rows.last()) >= rowCount) {
      throw new IllegalArgumentException(
          "row id " + rows.last() + " is not below the row count " + rowCount);
    }
    if (written % IndexTermsWriter.BLOCK_TERMS == 0) {
      if (scratch == null) {
        offsets.add(out.position());
        firsts.add(term);
      } else {
        scratchData.writeLong(out.position());
        Varints.write(scratchData, term.length);
        scratchData.write(term);
      }
      previous = null;
    }
    int shared = previous == null ? 0 : Arrays.mismatch(previous, term);
    if (shared < 0) {
      throw new IllegalArgumentException("term repeated");
    }
    Varints.write(data, shared);
    Varints.write(data, term.length - shared);
    data.write(term, shared, term.length - shared);
    rows.runOptimize();
    ByteBuffer postings = ByteBuffer.allocate(rows.serializedSizeInBytes());
    rows.serialize(postings);
    Varints.write(data, postings.capacity());
    data.write(postings.array());
    previous = term;
    written++;
  }

  /** Writes the block index and the trailer and forces the file to storage. */
  void finish() throws IOException {
    if (written != termCount) {
      throw new IllegalStateException(written + " terms written, " + termCount + " announced");
    }
    long blockIndexAt = out.position();
    int blocks = (termCount + IndexTermsWriter.BLOCK_TERMS - 1) / IndexTermsWriter.BLOCK_TERMS;
    if (scratch == null) {
      for (int b = 0; b < blocks; b++) {
        data.writeLong(offsets.get(b));
        Varints.write(data, firsts.get(b).length);
        data.write(firsts.get(b));
      }
    } else {
      FileFormat.writeFooter(scratchOut);
      scratchOut.flush();
      scratchOut.close();
      scratchOut = null;
      copyBlockIndex(blocks);
    }
    data.writeLong(blockIndexAt);
    data.writeInt(blocks);
    FileFormat.writeFooter(out);
    out.sync();
  }

  /** Copies the {@code blocks} entries of the scratch file, checking it end to end. */
  private void copyBlockIndex(int blocks) throws IOException {
    try (ReadableFile f = fs.openForRead(scratch)) {
      ChecksumInput src = new ChecksumInput(f, scratch);
      DataInputStream in = new DataInputStream(src);
      try {
        FileFormat.checkHeader(in, scratch, BLOCKS_NAME, generation, BLOCKS_VERSION, 1);
        for (int b = 0; b < blocks; b++) {
          data.writeLong(in.readLong());
          int length = Varints.read(in);
          if (length > src.remainingBeforeFooter()) {
            throw new CorruptFileException(scratch, src.position(), "term runs past the end");
          }
          byte[] first = new byte[length];
          in.readFully(first);
          Varints.write(data, length);
          data.write(first);
        }
        FileFormat.checkFooter(src, scratch);
      } catch (EOFException e) {
        throw new CorruptFileException(scratch, src.position(), "truncated", e);
      }
    }
    fs.delete(scratch);
  }

  /** Closes the files; a dictionary not finished is left incomplete, its scratch file deleted. */
  @Override
  public void close() throws IOException {
    try {
      out.close();
      if (scratchOut != null) {
        scratchOut.close();
      }
    } finally {
      if (scratch != null) {
        fs.delete(scratch);
      }
    }
  }
}
