package dev.talus.sstable;

import dev.talus.io.CorruptFileException;
import dev.talus.io.FileFormat;
import dev.talus.io.ReadableFile;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The in-memory sample of the partition index, built by one sequential pass over Index.db that also
 * checks the file's header, footer checksum, entry order and count. Immutable once built.
 */
final class IndexSamples {
  final long[] tokens;
  final byte[][] keys;
  final long[] positions;
  final int[] crcs;

  private IndexSamples(long[] tokens, byte[][] keys, long[] positions, int[] crcs) {
    this.tokens = tokens;
    this.keys = keys;
    this.positions = positions;
    this.crcs = crcs;
  }

  static IndexSamples build(
      ReadableFile index, SSTableDescriptor desc, long expectedEntries, int version)
      throws IOException {
    Path p = desc.path(Component.INDEX);
    ChecksumInput src = new ChecksumInput(index, p);
    DataInputStream in = new DataInputStream(src);
    ComponentFiles.checkMinimumSize(src, Component.INDEX);
    ComponentFiles.checkHeader(in, p, Component.INDEX, desc.generation(), version);
    int cap = (int) Math.min(1 << 20, expectedEntries / SSTableReader.SAMPLE_INTERVAL + 2);
    long[] tokens = new long[cap];
    byte[][] keys = new byte[cap][];
    long[] positions = new long[cap + 1];
    int[] crcs = new int[cap];
    int samples = 0;
    long count = 0;
    IndexEntry prev = null;
    long prevDataPos = -1;
    while (src.remainingBeforeFooter() > 0) {
      long at = src.position();
      if (count % SSTableReader.SAMPLE_INTERVAL == 0) {
        if (samples > 0) {
          crcs[samples - 1] = src.blockChecksum();
        }
        if (samples == tokens.length) {
          int n = tokens.length * 2;
          tokens = Arrays.copyOf(tokens, n);
          keys = Arrays.copyOf(keys, n);
          positions = Arrays.copyOf(positions, n + 1);
          crcs = Arrays.copyOf(crcs, n);
        }
        src.startBlock();
      }
      IndexEntry e;
      try {
        e = IndexEntry.read(in, version);
      } catch (CorruptFileException ex) {
        throw ex;
      } catch (EOFException ex) {
        throw new CorruptFileException(p, at, "index truncated", ex);
      } catch (IOException ex) {
        throw new CorruptFileException(p, at, "undecodable index entry: " + ex.getMessage(), ex);
      }
      if (src.remainingBeforeFooter() < 0) {
        throw new CorruptFileException(p, at, "index entry runs into the footer");
      }
      if (prev != null && e.compareTo(prev.token(), prev.key()) <= 0
          || e.position() <= prevDataPos) {
        throw new CorruptFileException(p, at, "index entries out of order");
      }
      if (count % SSTableReader.SAMPLE_INTERVAL == 0) {
        tokens[samples] = e.token();
        keys[samples] = e.key();
        positions[samples] = at;
        samples++;
      }
      prev = e;
      prevDataPos = e.position();
      count++;
    }
    if (samples > 0) {
      crcs[samples - 1] = src.blockChecksum();
    }
    positions[samples] = src.position();
    FileFormat.checkFooter(src, p);
    if (count != expectedEntries) {
      throw new CorruptFileException(
          p, src.position(), "index has " + count + " entries, stats say " + expectedEntries);
    }
    return new IndexSamples(
        Arrays.copyOf(tokens, samples),
        Arrays.copyOf(keys, samples),
        Arrays.copyOf(positions, samples + 1),
        Arrays.copyOf(crcs, samples));
  }
}
