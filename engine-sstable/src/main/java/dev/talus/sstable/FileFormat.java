package dev.talus.sstable;

import dev.talus.io.CorruptFileException;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Header and footer shared by every binary file we write, after Lucene's CodecUtil: the header says
 * what the file is (magic, component name, version) and whose it is (generation), so a file renamed
 * into the wrong place fails at open instead of being misread; the footer carries a CRC32C of
 * everything before the checksum itself. Stateless.
 */
final class FileFormat {
  /** "TLSS": every Talus storage file starts with it. */
  static final int MAGIC = 0x544C5353;

  /** The bitwise complement, so a file of one repeated byte never has both right. */
  static final int FOOTER_MAGIC = ~MAGIC;

  static final int VERSION = 1;

  /** Footer: magic (4), algorithm id (4, 0 = CRC32C), checksum (8). */
  static final int FOOTER_LENGTH = 16;

  private FileFormat() {}

  static int headerLength(String name) {
    return 4 + 1 + name.length() + 4 + 8;
  }

  static void writeHeader(DataOutput out, String name, long generation) throws IOException {
    byte[] n = name.getBytes(StandardCharsets.US_ASCII);
    out.writeInt(MAGIC);
    out.writeByte(n.length);
    out.write(n);
    out.writeInt(VERSION);
    out.writeLong(generation);
  }

  /** Reads and checks a header from the start of {@code file}. */
  static void checkHeader(DataInput in, Path file, String name, long generation)
      throws IOException {
    int magic = in.readInt();
    if (magic != MAGIC) {
      throw new CorruptFileException(
          file, 0, String.format("bad magic 0x%08x, expected 0x%08x", magic, MAGIC));
    }
    int len = in.readUnsignedByte();
    if (len != name.length()) {
      // a damaged length byte would otherwise read past the header: an EOFException, no file
      throw new CorruptFileException(
          file,
          4,
          "component name length " + len + ", expected " + name.length() + " ('" + name + "')");
    }
    byte[] n = new byte[len];
    in.readFully(n);
    String actual = new String(n, StandardCharsets.US_ASCII);
    if (!actual.equals(name)) {
      throw new CorruptFileException(
          file, 4, "component '" + actual + "', expected '" + name + "'");
    }
    int version = in.readInt();
    if (version != VERSION) {
      throw new CorruptFileException(
          file, 5 + len, "unsupported format version " + version + ", expected " + VERSION);
    }
    long gen = in.readLong();
    if (gen != generation) {
      throw new CorruptFileException(
          file, 9 + len, "generation " + gen + " in header, expected " + generation);
    }
  }

  /** Writes the footer through {@code out}; the checksum covers the footer magic and id too. */
  static void writeFooter(ComponentOutput out) throws IOException {
    out.writeIntRaw(FOOTER_MAGIC);
    out.writeIntRaw(0);
    out.writeLongRaw(out.checksum());
  }

  /**
   * Reads the footer through {@code in}, which must be positioned at it, and checks it against the
   * checksum of everything read so far.
   */
  static void checkFooter(ChecksumInput in, Path file) throws IOException {
    long at = in.position();
    int magic = in.readIntRaw();
    if (magic != FOOTER_MAGIC) {
      throw new CorruptFileException(file, at, String.format("bad footer magic 0x%08x", magic));
    }
    int algo = in.readIntRaw();
    if (algo != 0) {
      throw new CorruptFileException(file, at + 4, "unknown checksum algorithm " + algo);
    }
    long expected = in.checksum();
    long stored = in.readLongRaw();
    if (stored != expected) {
      throw new CorruptFileException(
          file,
          at + 8,
          String.format("checksum mismatch: stored %08x, computed %08x", stored, expected));
    }
    if (in.position() != in.size()) {
      throw new CorruptFileException(file, in.position(), "trailing bytes after footer");
    }
  }
}
