package dev.talus.testkit.faults;

import dev.talus.CorruptDataException;
import dev.talus.io.FileFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Damage a crash does not leave, done to a table directory by hand, after the format in
 * docs/file-format.md §9: the manifest's last complete record cut off (what a truncation or a
 * zeroed tail loses), and the seal's last record cut off too — or the seal deleted — so that the
 * seal cannot prove the lost edit. Only the SSTables' TOCs (their {@code manifest-edit-...} lines)
 * still can.
 */
final class ManifestDamage {
  /** The manifest's header: magic, name length, "Manifest", version, generation. */
  private static final int HEADER = FileFormat.headerLength("Manifest");

  private static final Pattern WITNESS =
      Pattern.compile("^manifest-edit-(?:added|removed)=(\\d+)$", Pattern.MULTILINE);

  /**
   * What was done: the number of the edit the manifest now ends with (0 if no record is left), and
   * the highest edit a TOC in the directory names (0 if none).
   */
  record Done(long lastEditLeft, long highestWitness) {
    boolean detectable() {
      return highestWitness > lastEditLeft;
    }
  }

  private ManifestDamage() {}

  /** Cuts the last complete record off {@code tableDir}'s manifest and the seal's last record. */
  static Done cutLastEdit(Path tableDir, boolean deleteSeal) {
    try {
      Path manifest = tableDir.resolve("MANIFEST.db");
      byte[] b = Files.readAllBytes(manifest);
      long lastStart = -1;
      long previousEdit = 0;
      long lastEdit = 0;
      int p = HEADER;
      while (p + 12 <= b.length) {
        ByteBuffer h = ByteBuffer.wrap(b, p, 12);
        int len = h.getInt();
        h.getInt(); // the length's checksum: a damaged one fails the payload check below
        int crc = h.getInt();
        if (len < 0 || len > b.length - p - 12 || FileFormat.crc32c(b, p + 12, len) != crc) {
          break; // a torn tail the crash left: the open cuts it off anyway
        }
        previousEdit = lastStart < 0 ? 0 : lastEdit;
        lastEdit = varint(b, p + 12);
        lastStart = p;
        p += 12 + len;
      }
      if (lastStart >= 0) {
        try (FileChannel ch = FileChannel.open(manifest, StandardOpenOption.WRITE)) {
          ch.truncate(lastStart);
        }
      }
      Path seal = tableDir.resolve("MANIFEST.seal");
      if (deleteSeal) {
        Files.deleteIfExists(seal);
      } else if (Files.exists(seal)) {
        long whole = Files.size(seal) / 12 * 12;
        try (FileChannel ch = FileChannel.open(seal, StandardOpenOption.WRITE)) {
          ch.truncate(Math.max(0, whole - 12));
        }
      }
      return new Done(lastStart >= 0 ? previousEdit : lastEdit, highestWitness(tableDir));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Null if {@code open} refused the damaged table with a {@link CorruptDataException} naming its
   * {@code MANIFEST.db} and an offset, else what it did instead.
   */
  static String refused(Runnable open, Path dbDir) {
    try {
      open.run();
      return "the database opened: the lost edit went unnoticed";
    } catch (CorruptDataException e) {
      String m = e.getMessage();
      boolean names =
          e.file() != null
              && e.file().getFileName().toString().equals("MANIFEST.db")
              && e.file().startsWith(dbDir)
              && m.contains("offset ")
              && m.contains("lost acknowledged edits");
      return names ? null : "refused, but not naming the manifest and an offset: " + e;
    } catch (RuntimeException e) {
      return "refused with " + e;
    }
  }

  private static long varint(byte[] b, int at) {
    long v = 0;
    for (int shift = 0; ; shift += 7) {
      int x = b[at++];
      v |= (long) (x & 0x7F) << shift;
      if ((x & 0x80) == 0) {
        return v;
      }
    }
  }

  private static long highestWitness(Path tableDir) throws IOException {
    long highest = 0;
    try (Stream<Path> s = Files.list(tableDir)) {
      for (Path toc : s.filter(f -> f.getFileName().toString().endsWith("-TOC.txt")).toList()) {
        Matcher m = WITNESS.matcher(Files.readString(toc, StandardCharsets.US_ASCII));
        while (m.find()) {
          highest = Math.max(highest, Long.parseLong(m.group(1)));
        }
      }
    }
    return highest;
  }
}
