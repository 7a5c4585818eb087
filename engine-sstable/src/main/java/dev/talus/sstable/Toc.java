package dev.talus.sstable;

import dev.talus.io.CorruptFileException;
import dev.talus.io.FileFormat;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The TOC component: a text file listing the components, readable by people and tools, with a first
 * line acting as magic and version and a last line carrying a CRC32C of the lines before it. From
 * format 3 on it also carries the manifest's two witness lines ({@code manifest-edit-added=E},
 * {@code manifest-edit-removed=R}, each number in 19 decimal digits, zero for none, so the TOC's
 * size never changes): the TOC is rewritten with a number after the manifest edit that made the
 * SSTable live (or, for an edit that only removes SSTables, took it out) was synced, so it proves
 * that the manifest once held that edit (see {@link ManifestWitness}). Stateless.
 */
final class Toc {
  static final String MAGIC = "talus-sstable-toc ";

  /** The first format whose TOC carries the manifest's witness lines. */
  static final int WITNESS_VERSION = 3;

  static final String ADDED = "manifest-edit-added=";
  static final String REMOVED = "manifest-edit-removed=";

  /** No edit witnessed (edit numbers start at 1). */
  static final long NONE = 0;

  /** The width of a witness line's number: every long fits. */
  static final int DIGITS = 19;

  /**
   * What a TOC holds: its format version and the manifest edits it witnesses ({@link #NONE} if it
   * witnesses none).
   */
  record Content(int version, long editAdded, long editRemoved) {
    boolean witnesses() {
      return editAdded != NONE || editRemoved != NONE;
    }
  }

  private Toc() {}

  static byte[] render(long generation) {
    return render(FormatVersion.CURRENT, generation);
  }

  static byte[] render(int version, long generation) {
    return render(version, generation, NONE, NONE);
  }

  /** The TOC of format {@code version}; from format 3 on, with these edits in its witness lines. */
  static byte[] render(int version, long generation, long editAdded, long editRemoved) {
    if ((editAdded != NONE || editRemoved != NONE) && version < WITNESS_VERSION) {
      throw new IllegalArgumentException("a format " + version + " TOC has no witness lines");
    }
    if (editAdded < 0 || editRemoved < 0) {
      throw new IllegalArgumentException("negative edit number");
    }
    StringBuilder sb = new StringBuilder(MAGIC).append(version);
    sb.append(" generation=").append(generation);
    sb.append('\n');
    for (Component c : Component.values()) {
      sb.append(c.suffix()).append('\n');
    }
    if (version >= WITNESS_VERSION) {
      sb.append(ADDED).append(String.format("%0" + DIGITS + "d", editAdded)).append('\n');
      sb.append(REMOVED).append(String.format("%0" + DIGITS + "d", editRemoved)).append('\n');
    }
    byte[] body = sb.toString().getBytes(StandardCharsets.US_ASCII);
    long crc = Integer.toUnsignedLong(FileFormat.crc32c(body, 0, body.length));
    String footer = String.format("crc32c=%08x", crc) + "\n";
    byte[] f = footer.getBytes(StandardCharsets.US_ASCII);
    byte[] out = new byte[body.length + f.length];
    System.arraycopy(body, 0, out, 0, body.length);
    System.arraycopy(f, 0, out, body.length, f.length);
    return out;
  }

  /**
   * Checks that {@code content} is exactly a TOC format {@code version} writes for {@code
   * generation}, for a version this build reads; returns the version. A newer version is refused
   * with a message naming it.
   */
  static int check(byte[] content, Path file, long generation) {
    return parse(content, file, generation).version();
  }

  /** Like {@link #check}, returning the witness lines too. */
  static Content parse(byte[] content, Path file, long generation) {
    int version = versionOf(content, file);
    long added = NONE;
    long removed = NONE;
    if (version >= WITNESS_VERSION) {
      int at = render(version, generation).length - footerLength() - witnessLength();
      added = witness(content, at, ADDED);
      removed = witness(content, at + ADDED.length() + DIGITS + 1, REMOVED);
    }
    byte[] expected = render(version, generation, added, removed);
    int n = Math.min(expected.length, content.length);
    for (int i = 0; i < n; i++) {
      if (expected[i] != content[i]) {
        throw new CorruptFileException(file, i, "TOC differs from the expected component list");
      }
    }
    if (content.length != expected.length) {
      throw new CorruptFileException(
          file, n, "TOC has " + content.length + " bytes, expected " + expected.length);
    }
    return new Content(version, added, removed);
  }

  /** The length of the {@code crc32c=xxxxxxxx\n} line. */
  private static int footerLength() {
    return "crc32c=00000000\n".length();
  }

  /** The length of the two witness lines. */
  private static int witnessLength() {
    return ADDED.length() + REMOVED.length() + 2 * (DIGITS + 1);
  }

  /**
   * The edit number in the witness line {@code prefix}N at byte {@code at}, or NONE if it is not
   * there as 19 digits; the comparison with the rendered TOC then catches anything malformed.
   */
  private static long witness(byte[] content, int at, String prefix) {
    int p = at;
    for (int i = 0; i < prefix.length(); i++, p++) {
      if (p >= content.length || content[p] != prefix.charAt(i)) {
        return NONE;
      }
    }
    long v = 0;
    for (int i = 0; i < DIGITS; i++, p++) {
      if (p >= content.length || content[p] < '0' || content[p] > '9') {
        return NONE;
      }
      v = v * 10 + (content[p] - '0');
      if (v < 0) {
        return NONE; // past Long.MAX_VALUE
      }
    }
    return v;
  }

  private static int versionOf(byte[] content, Path file) {
    String head = new String(content, 0, Math.min(content.length, 64), StandardCharsets.US_ASCII);
    if (!head.startsWith(MAGIC)) {
      throw new CorruptFileException(file, 0, "not a Talus SSTable TOC");
    }
    int end = MAGIC.length();
    while (end < head.length() && Character.isDigit(head.charAt(end))) {
      end++;
    }
    int version;
    try {
      version = Integer.parseInt(head.substring(MAGIC.length(), end));
    } catch (NumberFormatException e) {
      throw new CorruptFileException(file, MAGIC.length(), "TOC without a format version");
    }
    if (version > FormatVersion.CURRENT) {
      throw new CorruptFileException(
          file,
          MAGIC.length(),
          "SSTable format version "
              + version
              + " is newer than this build reads (versions "
              + FormatVersion.OLDEST
              + " to "
              + FormatVersion.CURRENT
              + "): it was written by a newer Talus; open the directory with that version");
    }
    if (version < FormatVersion.OLDEST) {
      throw new CorruptFileException(
          file, MAGIC.length(), "unsupported SSTable format version " + version);
    }
    return version;
  }
}
