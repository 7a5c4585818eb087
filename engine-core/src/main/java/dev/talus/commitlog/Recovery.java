package dev.talus.commitlog;

import static dev.talus.commitlog.SegmentFormat.MARKER_SIZE;
import static dev.talus.commitlog.SegmentFormat.PADDING;
import static dev.talus.commitlog.SegmentFormat.SYNC_MARKER;

import dev.talus.io.CorruptFileException;
import dev.talus.io.ReadableFile;
import dev.talus.io.StorageFs;
import dev.talus.io.WritableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opening a commit log directory: replays every segment in id order through the handler, repairs
 * segments with a never-synced tail (see {@link #repair}) and hands back the replayed segments,
 * which stay until the engine has flushed past them. Not thread-safe; one use, on the thread that
 * opens the log.
 */
final class Recovery {
  private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);

  /** The replayed segments, in id order, and what replay counted. */
  record Outcome(
      List<Segment> segments, long maxId, long records, long skipped, long tornTails, long holes) {}

  private final StorageFs fs;
  private final Path dir;
  private final CommitLogConfig config;
  private final List<Segment> segments = new ArrayList<>();
  private long recordsReplayed;
  private long recordsSkipped;
  private long tornTails;
  private long holesSkipped;

  Recovery(StorageFs fs, Path dir, CommitLogConfig config) {
    this.fs = fs;
    this.dir = dir;
    this.config = config;
  }

  Outcome run(ReplayHandler handler) throws IOException {
    fs.createDirectories(dir);
    List<long[]> found = new ArrayList<>();
    Map<Long, Path> paths = new HashMap<>();
    for (Path p : fs.list(dir)) {
      long[] vi = SegmentFormat.parseName(p);
      if (vi == null) {
        continue;
      }
      if (vi[0] != SegmentFormat.VERSION) {
        throw new CorruptFileException(
            p,
            0,
            "commit log format version "
                + vi[0]
                + " is not supported (this build reads "
                + SegmentFormat.VERSION
                + ")");
      }
      found.add(vi);
      paths.put(vi[1], p);
    }
    found.sort((x, y) -> Long.compare(x[1], y[1]));
    long maxId = 0;
    for (int i = 0; i < found.size(); i++) {
      long id = found.get(i)[1];
      Path path = paths.get(id);
      maxId = Math.max(maxId, id);
      byte[] bytes = readAll(path);
      String bad = SegmentFormat.checkHeader(ByteBuffer.wrap(bytes), id);
      if (bad != null) {
        if (i == found.size() - 1) {
          // The header is written and synced before a segment takes records: a newest segment
          // without a valid one was being created at the crash and never held anything.
          LOG.warn("Deleting commit log segment {} left half-created by a crash: {}", path, bad);
          fs.delete(path);
          fs.syncDirectory(dir);
          continue;
        }
        if (!config.skipCorruptRecords()) {
          throw new CorruptFileException(path, 0, bad);
        }
        LOG.warn("Skipping commit log segment {} with a damaged header: {}", path, bad);
        recordsSkipped++;
        continue;
      }
      SegmentReader.Result r =
          new SegmentReader(path, id, bytes, config.skipCorruptRecords()).replay(handler);
      recordsReplayed += r.records();
      recordsSkipped += r.skipped();
      holesSkipped += r.holes().size();
      long end = r.needsRepair() ? repair(path, id, r) : r.fileSize();
      segments.add(Segment.replayed(id, path, r.dirty(), end));
    }
    return new Outcome(segments, maxId, recordsReplayed, recordsSkipped, tornTails, holesSkipped);
  }

  private byte[] readAll(Path path) throws IOException {
    try (ReadableFile r = fs.openForRead(path)) {
      long size = r.size();
      if (size > Integer.MAX_VALUE - 64) {
        throw new CorruptFileException(path, 0, "segment of " + size + " bytes is too large");
      }
      byte[] bytes = new byte[(int) size];
      int n = r.read(ByteBuffer.wrap(bytes), 0);
      if (n != size) {
        throw new IOException("short read of " + path + ": " + n + " of " + size + " bytes");
      }
      return bytes;
    }
  }

  /**
   * Makes a segment with a never-synced tail look like a cleanly closed one: cuts the torn end,
   * pads the holes so they are skipped explicitly, and ends it with a sync marker, so that the next
   * open treats any damage in it as corruption. Returns the new end.
   */
  private long repair(Path path, long id, SegmentReader.Result r) throws IOException {
    long end = r.validEnd();
    try (WritableFile w = fs.openForAppend(path)) {
      if (r.validEnd() < r.fileSize()) {
        LOG.warn(
            "Commit log {}: truncating a torn tail at offset {} ({} bytes never completed)",
            path,
            r.validEnd(),
            r.fileSize() - r.validEnd());
        w.truncate(r.validEnd());
        tornTails++;
      }
      for (long[] hole : r.holes()) {
        long len = hole[1] - hole[0];
        if (len < MARKER_SIZE) {
          throw new CorruptFileException(path, hole[0], "hole of " + len + " bytes is too small");
        }
        w.write(SegmentFormat.marker(PADDING, (int) len, id, hole[0]), hole[0]);
      }
      if (r.coveredEnd() < r.validEnd() || !r.holes().isEmpty()) {
        w.write(SegmentFormat.marker(SYNC_MARKER, 0, id, end), end);
        end += MARKER_SIZE;
      }
      w.sync();
    }
    return end;
  }
}
