package dev.talus.commitlog;

import dev.talus.io.CorruptFileException;
import dev.talus.io.ReadableFile;
import dev.talus.io.StorageFs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks the segments of a commit-log directory the way replay reads them — header, every frame's
 * checksum, damage before the last sync marker — but changes nothing: no torn tail is cut, no
 * segment deleted, no record applied. A torn tail, or a newest segment whose header never got
 * written, is what a crash leaves and not damage. For offline verification. Stateless.
 */
public final class SegmentCheck {
  private SegmentCheck() {}

  /** The segment files of {@code dir}, in id order (empty if it does not exist). */
  public static List<Path> segments(StorageFs fs, Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    if (!fs.exists(dir)) {
      return out;
    }
    for (Path p : fs.list(dir)) {
      if (SegmentFormat.parseName(p) != null) {
        out.add(p);
      }
    }
    out.sort((a, b) -> Long.compare(SegmentFormat.parseName(a)[1], SegmentFormat.parseName(b)[1]));
    return out;
  }

  /**
   * Reads one segment, handing every complete record to {@code records}; returns the records read.
   *
   * @param newest whether it is the newest segment (a damaged header there is a crash mid-create)
   * @throws CorruptFileException naming the offset of the first damage
   */
  public static int check(StorageFs fs, Path segment, boolean newest, ReplayHandler records)
      throws IOException {
    long[] vi = SegmentFormat.parseName(segment);
    if (vi[0] != SegmentFormat.VERSION) {
      throw new CorruptFileException(
          segment,
          0,
          "commit log format version "
              + vi[0]
              + " is not supported (this build reads "
              + SegmentFormat.VERSION
              + ")");
    }
    byte[] bytes;
    try (ReadableFile r = fs.openForRead(segment)) {
      long size = r.size();
      if (size > Integer.MAX_VALUE - 64) {
        throw new CorruptFileException(segment, 0, "segment of " + size + " bytes is too large");
      }
      bytes = new byte[(int) size];
      int n = size == 0 ? 0 : r.read(ByteBuffer.wrap(bytes), 0);
      if (n != size) {
        throw new IOException("short read of " + segment + ": " + n + " of " + size + " bytes");
      }
    }
    String bad = SegmentFormat.checkHeader(ByteBuffer.wrap(bytes), vi[1]);
    if (bad != null) {
      if (newest) {
        return 0;
      }
      throw new CorruptFileException(segment, 0, bad);
    }
    return new SegmentReader(segment, vi[1], bytes, false).replay(records).records();
  }
}
