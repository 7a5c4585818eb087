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

/** Opening and checking component files. Stateless. */
final class ComponentFiles {
  /** Parses a component body; {@code src} gives position and the bytes left before the footer. */
  interface BodyReader<T> {
    T read(DataInputStream in, ChecksumInput src) throws IOException;
  }

  private ComponentFiles() {}

  /** Checks the TOC and returns the SSTable's format version (see {@link FormatVersion}). */
  static int checkToc(StorageFs fs, SSTableDescriptor desc) throws IOException {
    Path p = desc.path(Component.TOC);
    try (ReadableFile f = fs.openForRead(p)) {
      long size = f.size();
      if (size > 4096) {
        throw new CorruptFileException(p, 4096, "TOC too large: " + size + " bytes");
      }
      ByteBuffer b = ByteBuffer.allocate((int) size);
      while (b.hasRemaining() && f.read(b, b.position()) > 0) {
        // keep reading
      }
      return Toc.check(b.array(), p, desc.generation());
    }
  }

  /** Checks a component's header: its version must be the SSTable's (its TOC's). */
  static void checkHeader(java.io.DataInput in, Path p, Component c, long gen, int version)
      throws IOException {
    FileFormat.checkHeader(in, p, c.headerName(), gen, version, version);
  }

  /** Reads a whole small component, checking header, footer and that the body was consumed. */
  static <T> T readSmall(
      StorageFs fs, SSTableDescriptor desc, Component c, int version, BodyReader<T> body)
      throws IOException {
    Path p = desc.path(c);
    try (ReadableFile f = fs.openForRead(p)) {
      ChecksumInput src = new ChecksumInput(f, p);
      DataInputStream in = new DataInputStream(src);
      T value;
      try {
        checkMinimumSize(src, c);
        checkHeader(in, p, c, desc.generation(), version);
        long bodyAt = src.position();
        try {
          value = body.read(in, src);
        } catch (EOFException e) {
          throw new CorruptFileException(p, src.position(), "truncated", e);
        } catch (CorruptFileException e) {
          throw e;
        } catch (IOException e) {
          // Decoding failed before the footer could vouch for the bytes: report it as damage.
          throw new CorruptFileException(p, bodyAt, "undecodable " + c + ": " + e.getMessage(), e);
        }
        if (src.remainingBeforeFooter() != 0) {
          throw new CorruptFileException(p, src.position(), "body length does not match the file");
        }
        FileFormat.checkFooter(src, p);
      } catch (CorruptFileException e) {
        // A damaged length can make a body parse run off anywhere; if the footer checksum is also
        // wrong, that is the more useful report, but either names the file.
        throw e;
      }
      return value;
    }
  }

  static void checkMinimumSize(ChecksumInput src, Component c) {
    long min = FileFormat.headerLength(c.headerName()) + FileFormat.FOOTER_LENGTH;
    if (src.size() < min) {
      throw new CorruptFileException(
          src.path(), src.size(), "file of " + src.size() + " bytes is shorter than header+footer");
    }
  }

  static void checkDataShape(
      ReadableFile data, SSTableDescriptor desc, CompressionInfo ci, int version)
      throws IOException {
    Path p = desc.path(Component.DATA);
    int hl = FileFormat.headerLength(Component.DATA.headerName());
    ByteBuffer b = ByteBuffer.allocate(hl);
    data.read(b, 0);
    if (b.hasRemaining()) {
      throw new CorruptFileException(p, b.position(), "truncated header");
    }
    checkHeader(
        new DataInputStream(new java.io.ByteArrayInputStream(b.array())),
        p,
        Component.DATA,
        desc.generation(),
        version);
    long[] o = ci.offsets();
    if (o[0] != hl) {
      throw new CorruptFileException(p, hl, "first chunk offset " + o[0] + " != header length");
    }
    long expected = o[o.length - 1] + FileFormat.FOOTER_LENGTH;
    long size = data.size();
    if (size != expected) {
      throw new CorruptFileException(
          p, Math.min(size, expected), "data file is " + size + " bytes, expected " + expected);
    }
    ByteBuffer f = ByteBuffer.allocate(8);
    data.read(f, o[o.length - 1]);
    f.flip();
    if (f.remaining() < 8 || f.getInt() != FileFormat.FOOTER_MAGIC || f.getInt() != 0) {
      throw new CorruptFileException(p, o[o.length - 1], "bad data footer");
    }
  }

  /** Re-reads every component in full, checking every checksum. */
  static void verifyAll(StorageFs fs, SSTableDescriptor desc, CompressionInfo ci, long partitions)
      throws IOException {
    int v = checkToc(fs, desc);
    readSmall(fs, desc, Component.STATS, v, (in, src) -> SSTableStats.read(in, v, src));
    readSmall(fs, desc, Component.COMPRESSION_INFO, v, CompressionInfo::read);
    readSmall(fs, desc, Component.FILTER, v, (in, src) -> Filters.read(in, src, v));
    try (ReadableFile index = fs.openForRead(desc.path(Component.INDEX))) {
      IndexSamples.build(index, desc, partitions, v);
    }
    Path p = desc.path(Component.DATA);
    ChunkCodec codec = new ChunkCodec(ci.compression());
    try (ReadableFile data = fs.openForRead(p)) {
      checkDataShape(data, desc, ci, v);
      ChecksumInput src = new ChecksumInput(data, p);
      DataInputStream in = new DataInputStream(src);
      checkHeader(in, p, Component.DATA, desc.generation(), v);
      long[] o = ci.offsets();
      for (int i = 0; i < ci.chunkCount(); i++) {
        byte[] b = new byte[(int) (o[i + 1] - o[i])];
        in.readFully(b);
        int len = b.length - 4;
        int stored = ByteBuffer.wrap(b, len, 4).getInt();
        if (len < 0
            || stored != DataChunkWriter.chunkChecksum(desc.generation(), o[i], b, 0, len)) {
          throw new CorruptFileException(p, o[i], "checksum mismatch in chunk " + i);
        }
        int expected =
            (int) Math.min(ci.chunkSize(), ci.uncompressedLength() - (long) i * ci.chunkSize());
        if (len > expected || codec.decompress(b, 0, len, expected) == null) {
          throw new CorruptFileException(p, o[i], "chunk " + i + " does not decompress");
        }
      }
      FileFormat.checkFooter(src, p);
    }
  }

  /**
   * Deletes every component of an obsolete SSTable, its storage-attached index components included,
   * TOC first (a crash half-way leaves a set that is visibly incomplete), then syncs the directory.
   * A failure is logged, not thrown: it is no failure of whoever released the last reference (a
   * read, or the compaction that made the files obsolete); the manifest no longer lists them, so
   * the next open deletes them.
   */
  static void deleteObsolete(StorageFs fs, SSTableDescriptor desc) {
    try {
      fs.delete(desc.path(Component.TOC));
      for (Component c : Component.values()) {
        fs.delete(desc.path(c));
      }
      String attached = desc.attachedIndexPrefix();
      for (Path p : fs.list(desc.directory())) {
        if (p.getFileName().toString().startsWith(attached)) {
          fs.delete(p);
        }
      }
      fs.syncDirectory(desc.directory());
    } catch (IOException e) {
      org.slf4j.LoggerFactory.getLogger(SSTableReader.class)
          .warn("Could not delete obsolete {}; the next open removes it", desc, e);
    }
  }

  static int crc(byte[] b) {
    return FileFormat.crc32c(b, 0, b.length);
  }

  /** Closes {@code f} (if not null) while already failing: a second failure is dropped. */
  static void closeQuietly(ReadableFile f) {
    if (f != null) {
      try {
        f.close();
      } catch (IOException ignored) {
        // Already failing with the original exception.
      }
    }
  }
}
