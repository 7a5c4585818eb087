package dev.talus.io;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;

/**
 * The one header, footer and checksum utility of every binary file Talus writes (SSTable
 * components, the manifest, commit-log segments, the schema file), after Lucene's {@code
 * CodecUtil}. The files keep their own layouts (docs/file-format.md, docs/durability.md); what they
 * share is here:
 *
 * <ul>
 *   <li><b>Checksums</b>: CRC32C everywhere — of a byte range, seeded with two longs (a file's
 *       generation or segment id, and the offset, so a block copied elsewhere never validates), as
 *       a streaming {@link Checksum}, or as a trailer after a body.
 *   <li><b>The component header</b>: magic {@code "TLSS"}, the component name, the format version
 *       and the owning generation, so a file renamed into the wrong place fails at open instead of
 *       being misread.
 *   <li><b>The component footer</b>: the magic's complement, the algorithm id (0 = CRC32C) and the
 *       checksum of everything before the checksum itself.
 * </ul>
 *
 * A check that fails throws {@link CorruptFileException} naming the file and the offset. Stateless.
 */
public final class FileFormat {
  /** "TLSS": every Talus storage file with a component header starts with it. */
  public static final int MAGIC = 0x544C5353;

  /** The bitwise complement, so a file of one repeated byte never has both right. */
  public static final int FOOTER_MAGIC = ~MAGIC;

  /** The version of files whose layout never changed (the manifest). */
  public static final int VERSION = 1;

  /** Footer: magic (4), algorithm id (4, 0 = CRC32C), checksum (8). */
  public static final int FOOTER_LENGTH = 16;

  /** What a component footer is written through: its file's checksummed output. */
  public interface FooterOutput {
    /** Writes {@code v} big-endian, updating the running checksum. */
    void writeIntRaw(int v) throws IOException;

    void writeLongRaw(long v) throws IOException;

    /** The checksum of everything written so far. */
    long checksum();
  }

  /** What a component footer is read through: its file's checksummed input. */
  public interface FooterInput {
    long position();

    long size() throws IOException;

    int readIntRaw() throws IOException;

    long readLongRaw() throws IOException;

    /** The checksum of everything read so far. */
    long checksum();
  }

  private FileFormat() {}

  // ---------------------------------------------------------------- checksums

  /** A fresh streaming checksum of the kind every file uses (CRC32C). */
  public static Checksum newChecksum() {
    return new CRC32C();
  }

  /** CRC32C of {@code len} bytes of {@code b} from {@code off}. */
  public static int crc32c(byte[] b, int off, int len) {
    CRC32C c = new CRC32C();
    c.update(b, off, len);
    return (int) c.getValue();
  }

  /**
   * CRC32C of {@code seed1} and {@code seed2} (8 bytes each, big-endian) followed by {@code len}
   * bytes of {@code b} from {@code off}: a checksum that only validates for the file and offset the
   * seeds name.
   */
  public static int seededCrc32c(long seed1, long seed2, byte[] b, int off, int len) {
    CRC32C c = new CRC32C();
    byte[] seed = new byte[16];
    for (int i = 0; i < 8; i++) {
      seed[i] = (byte) (seed1 >>> (56 - 8 * i));
      seed[8 + i] = (byte) (seed2 >>> (56 - 8 * i));
    }
    c.update(seed);
    c.update(b, off, len);
    return (int) c.getValue();
  }

  /** {@code body} followed by the CRC32C of it (4 bytes, big-endian), ready to write. */
  public static ByteBuffer withCrcTrailer(byte[] body) {
    ByteBuffer all = ByteBuffer.allocate(body.length + 4);
    all.put(body).putInt(crc32c(body, 0, body.length)).flip();
    return all;
  }

  /**
   * Checks the CRC32C trailer of a whole file's bytes {@code all} (see {@link #withCrcTrailer});
   * returns the length of the body before it.
   *
   * @throws CorruptFileException if the checksum does not match
   */
  public static int checkCrcTrailer(Path file, byte[] all, String what) {
    int body = all.length - 4;
    int stored = ByteBuffer.wrap(all, body, 4).getInt();
    if (crc32c(all, 0, body) != stored) {
      throw new CorruptFileException(file, body, what + "checksum mismatch");
    }
    return body;
  }

  // ---------------------------------------------------------------- component header and footer

  public static int headerLength(String name) {
    return 4 + 1 + name.length() + 4 + 8;
  }

  public static void writeHeader(DataOutput out, String name, long generation) throws IOException {
    writeHeader(out, name, VERSION, generation);
  }

  /** Writes a header naming format {@code version}. */
  public static void writeHeader(DataOutput out, String name, int version, long generation)
      throws IOException {
    byte[] n = name.getBytes(StandardCharsets.US_ASCII);
    out.writeInt(MAGIC);
    out.writeByte(n.length);
    out.write(n);
    out.writeInt(version);
    out.writeLong(generation);
  }

  /** Reads and checks a header of version {@link #VERSION} from the start of {@code file}. */
  public static void checkHeader(DataInput in, Path file, String name, long generation)
      throws IOException {
    checkHeader(in, file, name, generation, VERSION, VERSION);
  }

  /**
   * Reads and checks a header from the start of {@code file}, accepting format versions {@code
   * oldest} to {@code newest}; returns the version. A newer version is refused with a message that
   * names it (a reader never guesses at a layout it does not know), as is an older one.
   */
  public static int checkHeader(
      DataInput in, Path file, String name, long generation, int oldest, int newest)
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
    if (!new String(n, StandardCharsets.US_ASCII).equals(name)) {
      throw new CorruptFileException(
          file, 5, "component '" + printable(n) + "', expected '" + name + "'");
    }
    int version = in.readInt();
    if (version > newest) {
      throw new CorruptFileException(
          file,
          5 + len,
          "format version "
              + version
              + " is newer than this build reads ("
              + range(oldest, newest)
              + "): the file was written by a newer Talus; open it with that version");
    }
    if (version < oldest) {
      throw new CorruptFileException(
          file,
          5 + len,
          "unsupported format version " + version + ", this build reads " + range(oldest, newest));
    }
    long gen = in.readLong();
    if (gen != generation) {
      throw new CorruptFileException(
          file, 9 + len, "generation " + gen + " in header, expected " + generation);
    }
    return version;
  }

  private static String range(int oldest, int newest) {
    return oldest == newest ? "version " + oldest : "versions " + oldest + " to " + newest;
  }

  /**
   * {@code bytes} as text fit for a message: printable ASCII as is, every other byte (and the
   * backslash) escaped as {@code \xNN}, so damaged bytes never reach a terminal or log raw.
   */
  public static String printable(byte[] bytes) {
    StringBuilder sb = new StringBuilder(bytes.length);
    for (byte b : bytes) {
      int c = b & 0xFF;
      if (c >= 0x20 && c < 0x7F && c != '\\') {
        sb.append((char) c);
      } else {
        sb.append(String.format("\\x%02x", c));
      }
    }
    return sb.toString();
  }

  /** Writes the footer through {@code out}; the checksum covers the footer magic and id too. */
  public static void writeFooter(FooterOutput out) throws IOException {
    out.writeIntRaw(FOOTER_MAGIC);
    out.writeIntRaw(0);
    out.writeLongRaw(out.checksum());
  }

  /**
   * Reads the footer through {@code in}, which must be positioned at it, and checks it against the
   * checksum of everything read so far.
   */
  public static void checkFooter(FooterInput in, Path file) throws IOException {
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
