package dev.talus.sstable;

import dev.talus.io.CorruptFileException;
import dev.talus.io.FileFormat;
import dev.talus.io.ReadableFile;
import dev.talus.io.StorageFs;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * A sorted run of index terms that an {@link IndexTermsWriter} spilled to bound its heap: a
 * temporary file beside the dictionary it is writing, laid out as docs/file-format.md ("SAI term
 * run") says — terms in increasing order, each with its row ids as increasing gaps — written once,
 * read once or twice (the dictionary's term count, then its terms) and deleted. Stateless; a source
 * opened with {@link #open} is not thread-safe.
 */
final class IndexTermRun {
  static final String NAME = "SaiTermRun";
  static final int VERSION = 1;

  private IndexTermRun() {}

  /**
   * Writes every term of {@code terms} (which it consumes) to {@code file} (which must not exist)
   * for the SSTable of {@code generation}; returns the number of terms. Not forced to storage: a
   * run lives only while its dictionary is written, and a crash leaves a temporary file the next
   * open deletes.
   */
  static long write(StorageFs fs, Path file, long generation, TermSource terms) throws IOException {
    long count = 0;
    try (ComponentOutput out = new ComponentOutput(fs.create(file))) {
      DataOutputStream data = new DataOutputStream(out);
      FileFormat.writeHeader(data, NAME, VERSION, generation);
      RoaringBitmap rows = new RoaringBitmap();
      while (terms.next()) {
        byte[] term = terms.term();
        rows.clear();
        terms.rowsInto(rows);
        Varints.write(data, term.length + 1);
        data.write(term);
        Varints.write(data, rows.getCardinality());
        int previous = -1;
        for (IntIterator it = rows.getIntIterator(); it.hasNext(); ) {
          int row = it.next();
          Varints.write(data, previous < 0 ? row : row - previous);
          previous = row;
        }
        count++;
      }
      Varints.write(data, 0);
      data.writeLong(count);
      FileFormat.writeFooter(out);
      out.flush();
    }
    return count;
  }

  /** Opens run {@code file} of the SSTable of {@code generation} to read its terms in order. */
  static TermSource open(StorageFs fs, Path file, long generation) throws IOException {
    ReadableFile f = fs.openForRead(file);
    try {
      Source s = new Source(f, file);
      FileFormat.checkHeader(s.in, file, NAME, generation, VERSION, VERSION);
      f = null; // the source owns it now
      return s;
    } catch (EOFException e) {
      throw new CorruptFileException(file, 0, "truncated", e);
    } finally {
      if (f != null) {
        f.close();
      }
    }
  }

  /**
   * The terms of a run, checked as they are read: increasing terms, increasing row ids, the count
   * in the trailer and the footer's checksum once the last term is passed. A damage is a {@link
   * CorruptFileException}.
   */
  private static final class Source implements TermSource {
    private final ReadableFile file;
    private final Path path;
    private final ChecksumInput src;
    private final DataInputStream in;
    private byte[] term;
    private int unread = -1; // row ids of the current term not yet read; -1: none pending
    private long count;

    Source(ReadableFile file, Path path) throws IOException {
      this.file = file;
      this.path = path;
      this.src = new ChecksumInput(file, path);
      this.in = new DataInputStream(src);
    }

    @Override
    public boolean next() throws IOException {
      try {
        skipRows();
        long at = src.position();
        int length = Varints.read(in);
        if (length == 0) {
          if (in.readLong() != count) {
            throw new CorruptFileException(path, at, "term count does not match the terms");
          }
          FileFormat.checkFooter(src, path);
          term = null;
          return false;
        }
        if (length - 1 > src.remainingBeforeFooter()) {
          throw new CorruptFileException(path, at, "term runs past the end");
        }
        byte[] next = new byte[length - 1];
        in.readFully(next);
        if (term != null && Arrays.compareUnsigned(term, next) >= 0) {
          throw new CorruptFileException(path, at, "terms out of order");
        }
        term = next;
        unread = Varints.read(in);
        count++;
        return true;
      } catch (EOFException e) {
        throw new CorruptFileException(path, src.position(), "truncated", e);
      } catch (CorruptFileException e) {
        throw e;
      } catch (IOException e) {
        throw new CorruptFileException(path, src.position(), "undecodable run: " + e.getMessage());
      }
    }

    @Override
    public byte[] term() {
      return term;
    }

    @Override
    public void rowsInto(RoaringBitmap rows) throws IOException {
      long row = -1;
      try {
        for (; unread > 0; unread--) {
          long at = src.position();
          int v = Varints.read(in);
          if (row >= 0 && v == 0) {
            throw new CorruptFileException(path, at, "row ids out of order");
          }
          row = row < 0 ? v : row + v;
          if (row > Integer.MAX_VALUE) {
            throw new CorruptFileException(path, at, "row id out of range");
          }
          rows.add((int) row);
        }
      } catch (EOFException e) {
        throw new CorruptFileException(path, src.position(), "truncated", e);
      } catch (CorruptFileException e) {
        throw e;
      } catch (IOException e) {
        throw new CorruptFileException(path, src.position(), "undecodable run: " + e.getMessage());
      }
    }

    /** Reads past the current term's row ids if they were not read. */
    private void skipRows() throws IOException {
      for (; unread > 0; unread--) {
        Varints.read(in);
      }
    }

    @Override
    public void close() throws IOException {
      file.close();
    }
  }
}
