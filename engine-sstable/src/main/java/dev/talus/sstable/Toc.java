package dev.talus.sstable;

import dev.talus.io.CorruptFileException;
import dev.talus.io.FileFormat;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The TOC component: a text file listing the components, readable by people and tools, with a first
 * line acting as magic and version and a last line carrying a CRC32C of the lines before it.
 * Stateless.
 */
final class Toc {
  static final String MAGIC = "talus-sstable-toc ";

  private Toc() {}

  static byte[] render(long generation) {
    return render(FormatVersion.CURRENT, generation);
  }

  static byte[] render(int version, long generation) {
    StringBuilder sb = new StringBuilder(MAGIC).append(version);
    sb.append(" generation=").append(generation);
    sb.append('\n');
    for (Component c : Component.values()) {
      sb.append(c.suffix()).append('\n');
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
   * Checks that {@code content} is exactly the TOC format {@code version} writes for {@code
   * generation}, for a version this build reads; returns the version. A newer version is refused
   * with a message naming it.
   */
  static int check(byte[] content, Path file, long generation) {
    int version = versionOf(content, file);
    byte[] expected = render(version, generation);
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
    return version;
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
