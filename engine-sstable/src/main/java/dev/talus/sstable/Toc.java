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
  static final String FIRST_LINE = "talus-sstable-toc " + FileFormat.VERSION;

  private Toc() {}

  static byte[] render(long generation) {
    StringBuilder sb = new StringBuilder(FIRST_LINE).append(" generation=").append(generation);
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

  /** Checks that {@code content} is exactly the TOC this format writes for {@code generation}. */
  static void check(byte[] content, Path file, long generation) {
    byte[] expected = render(generation);
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
  }
}
