package dev.talus.sstable;

import dev.talus.io.FileFormat;
import dev.talus.io.ReadableFile;
import dev.talus.io.StorageFs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * The witness of a manifest's acknowledged edits: {@code MANIFEST.seal}, beside {@code
 * MANIFEST.db}, an append-only list of 12-byte records (8-byte sequence number, CRC32C of those 8
 * bytes), one per edit, written and synced after the edit's own record is synced and before {@link
 * Manifest#apply} returns. A manifest whose last complete record has a lower sequence number than
 * the seal's highest has lost acknowledged edits (a truncated or zeroed tail, which the manifest
 * alone cannot tell apart from a torn append).
 *
 * <p>The seal only ever lags the manifest (a crash between the two syncs), so damage to the seal
 * itself can lower the highest sequence number it proves, never raise it: a record failing its
 * checksum is skipped, a partial last record ignored, a missing seal proves nothing. It can weaken
 * the check, never fail a sound manifest.
 */
final class ManifestSeal {
  static final String FILE_NAME = "MANIFEST.seal";
  static final int RECORD = 12;

  private ManifestSeal() {}

  /** What a seal file proves: its highest valid sequence number and the whole records' length. */
  record Content(boolean exists, long highest, long wholeRecordsLength) {
    static final Content NONE = new Content(false, -1, 0);
  }

  static byte[] record(long seq) {
    byte[] b = ByteBuffer.allocate(RECORD).putLong(seq).array();
    ByteBuffer.wrap(b, 8, 4).putInt(FileFormat.crc32c(b, 0, 8));
    return b;
  }

  /** Reads the seal of a manifest in {@code dir}, or {@link Content#NONE} if there is none. */
  static Content read(StorageFs fs, Path dir) throws IOException {
    Path file = dir.resolve(FILE_NAME);
    if (!fs.exists(file)) {
      return Content.NONE;
    }
    byte[] b;
    try (ReadableFile f = fs.openForRead(file)) {
      long size = f.size();
      // a seal larger than any the manifest writes proves nothing beyond its first part
      ByteBuffer buf = ByteBuffer.allocate((int) Math.min(size, 1 << 24));
      while (buf.hasRemaining() && f.read(buf, buf.position()) > 0) {
        // keep reading
      }
      b = buf.array();
    }
    long highest = -1;
    int whole = b.length - b.length % RECORD;
    for (int p = 0; p < whole; p += RECORD) {
      ByteBuffer r = ByteBuffer.wrap(b, p, RECORD);
      long seq = r.getLong();
      if (r.getInt() == FileFormat.crc32c(b, p, 8)) {
        highest = Math.max(highest, seq);
      }
    }
    return new Content(true, highest, whole);
  }
}
