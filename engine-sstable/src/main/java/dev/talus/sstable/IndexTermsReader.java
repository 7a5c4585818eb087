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
import org.roaringbitmap.RoaringBitmap;

/**
 * Reads a term dictionary written by {@link IndexTermsWriter}: the rows holding one term, or any
 * term of a range. Opening reads the whole file once, checks its checksum and its structure (terms
 * strictly increasing, blocks where the block index says), and keeps only the block index in
 * memory; a lookup then reads one block per block it visits. Thread-safe once open.
 */
public final class IndexTermsReader implements AutoCloseable {
  private final ReadableFile file;
  private final Path path;
  private final int rowCount;
  private final int termCount;
  private final long[] blockOffsets; // one more than blocks: the last is the block index offset
  private final byte[][] firstTerms;

  private IndexTermsReader(
      ReadableFile file,
      Path path,
      int rowCount,
      int termCount,
      long[] blockOffsets,
      byte[][] firstTerms) {
    this.file = file;
    this.path = path;
    this.rowCount = rowCount;
    this.termCount = termCount;
    this.blockOffsets = blockOffsets;
    this.firstTerms = firstTerms;
  }

  /**
   * Opens and checks {@code file} of the SSTable of {@code generation}.
   *
   * @throws CorruptFileException if the file is damaged, truncated or belongs to another SSTable
   */
  public static IndexTermsReader open(StorageFs fs, Path file, long generation) throws IOException {
    ReadableFile f = fs.openForRead(file);
    try {
      IndexTermsReader r = check(f, file, generation);
      f = null; // the reader owns it now
      return r;
    } finally {
      if (f != null) {
        f.close();
      }
    }
  }

  private static IndexTermsReader check(ReadableFile f, Path file, long generation)
      throws IOException {
    ChecksumInput src = new ChecksumInput(f, file);
    DataInputStream in = new DataInputStream(src);
    if (src.size() < FileFormat.headerLength(IndexTermsWriter.NAME) + FileFormat.FOOTER_LENGTH) {
      throw new CorruptFileException(file, src.size(), "too short for an index term dictionary");
    }
    try {
      FileFormat.checkHeader(
          in, file, IndexTermsWriter.NAME, generation, IndexTermsWriter.VERSION, 1);
      int rows = in.readInt();
      int terms = in.readInt();
      int blockTerms = in.readInt();
      if (rows < 0 || terms < 0 || blockTerms != IndexTermsWriter.BLOCK_TERMS) {
        throw new CorruptFileException(file, src.position(), "inconsistent dictionary shape");
      }
      int blocks = (terms + blockTerms - 1) / blockTerms;
      long[] offsets = new long[blocks + 1];
      byte[] previous = null;
      for (int i = 0; i < terms; i++) {
        if (i % blockTerms == 0) {
          offsets[i / blockTerms] = src.position();
        }
        long at = src.position();
        byte[] term = readTerm(in, i % blockTerms == 0 ? null : previous, file, at);
        if (previous != null && Arrays.compareUnsigned(previous, term) >= 0) {
          throw new CorruptFileException(file, at, "index terms out of order");
        }
        in.skipNBytes(Varints.read(in));
        previous = term;
      }
      offsets[blocks] = src.position();
      byte[][] firsts = new byte[blocks][];
      for (int b = 0; b < blocks; b++) {
        long at = src.position();
        long offset = in.readLong();
        byte[] first = new byte[Varints.read(in)];
        in.readFully(first);
        if (offset != offsets[b]) {
          throw new CorruptFileException(file, at, "block index names a different block offset");
        }
        firsts[b] = first;
      }
      long at = src.position();
      if (in.readLong() != offsets[blocks] || in.readInt() != blocks) {
        throw new CorruptFileException(file, at, "block index trailer does not match the blocks");
      }
      if (src.remainingBeforeFooter() != 0) {
        throw new CorruptFileException(file, src.position(), "body length does not match the file");
      }
      FileFormat.checkFooter(src, file);
      return new IndexTermsReader(f, file, rows, terms, offsets, firsts);
    } catch (EOFException e) {
      throw new CorruptFileException(file, src.position(), "truncated", e);
    } catch (CorruptFileException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new CorruptFileException(
          file, src.position(), "undecodable index term dictionary: " + e.getMessage(), e);
    }
  }

  private static byte[] readTerm(java.io.DataInput in, byte[] previous, Path file, long at)
      throws IOException {
    int shared = Varints.read(in);
    int suffix = Varints.read(in);
    if (shared > (previous == null ? 0 : previous.length)) {
      throw new CorruptFileException(file, at, "front coding shares more than the previous term");
    }
    byte[] term = new byte[shared + suffix];
    if (shared > 0) {
      System.arraycopy(previous, 0, term, 0, shared);
    }
    in.readFully(term, shared, suffix);
    return term;
  }

  /** The number of rows of the SSTable (row ids are below it). */
  public int rowCount() {
    return rowCount;
  }

  /** The number of distinct terms. */
  public int termCount() {
    return termCount;
  }

  /** The rows holding {@code term} (empty if none). */
  public RoaringBitmap exact(byte[] term) throws IOException {
    return range(term, true, term, true);
  }

  /**
   * The rows holding a term between {@code lower} and {@code upper} (unsigned byte order; null: no
   * bound on that side).
   */
  public RoaringBitmap range(
      byte[] lower, boolean lowerInclusive, byte[] upper, boolean upperInclusive)
      throws IOException {
    RoaringBitmap result = new RoaringBitmap();
    int blocks = firstTerms.length;
    int b = lower == null ? 0 : Math.max(0, lastBlockStartingAtOrBefore(lower));
    for (; b < blocks; b++) {
      if (upper != null && Arrays.compareUnsigned(firstTerms[b], upper) > 0) {
        break;
      }
      if (!readBlock(b, lower, lowerInclusive, upper, upperInclusive, result)) {
        break;
      }
    }
    return result;
  }

  /** The last block whose first term is at or before {@code term}; -1 if none. */
  private int lastBlockStartingAtOrBefore(byte[] term) {
    int lo = 0;
    int hi = firstTerms.length - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (Arrays.compareUnsigned(firstTerms[mid], term) <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  /** Adds the block's terms in range to {@code into}; false once a term is past {@code upper}. */
  private boolean readBlock(
      int b,
      byte[] lower,
      boolean lowerInclusive,
      byte[] upper,
      boolean upperInclusive,
      RoaringBitmap into)
      throws IOException {
    long start = blockOffsets[b];
    ByteBuffer block = ByteBuffer.allocate(Math.toIntExact(blockOffsets[b + 1] - start));
    while (block.hasRemaining()) {
      if (file.read(block, start + block.position()) < 0) {
        throw new CorruptFileException(path, start + block.position(), "truncated after open");
      }
    }
    block.flip();
    int inBlock =
        Math.min(IndexTermsWriter.BLOCK_TERMS, termCount - b * IndexTermsWriter.BLOCK_TERMS);
    byte[] previous = null;
    for (int i = 0; i < inBlock; i++) {
      int shared = Varints.read(block);
      int suffix = Varints.read(block);
      byte[] term = new byte[shared + suffix];
      if (shared > 0) {
        System.arraycopy(previous, 0, term, 0, shared);
      }
      block.get(term, shared, suffix);
      int postings = Varints.read(block);
      if (upper != null) {
        int c = Arrays.compareUnsigned(term, upper);
        if (c > 0 || (c == 0 && !upperInclusive)) {
          return false;
        }
      }
      boolean inRange = true;
      if (lower != null) {
        int c = Arrays.compareUnsigned(term, lower);
        inRange = c > 0 || (c == 0 && lowerInclusive);
      }
      if (inRange) {
        ByteBuffer slice = block.slice(block.position(), postings);
        RoaringBitmap rows = new RoaringBitmap();
        rows.deserialize(slice);
        into.or(rows);
      }
      block.position(block.position() + postings);
      previous = term;
    }
    return true;
  }

  @Override
  public void close() throws IOException {
    file.close();
  }
}
