package dev.talus.commitlog;

import static dev.talus.commitlog.SegmentFormat.ALIGN;
import static dev.talus.commitlog.SegmentFormat.FRAME_HEADER_SIZE;
import static dev.talus.commitlog.SegmentFormat.HEADER_SIZE;
import static dev.talus.commitlog.SegmentFormat.MARKER_SIZE;
import static dev.talus.commitlog.SegmentFormat.MAX_TABLES_PER_RECORD;
import static dev.talus.commitlog.SegmentFormat.PADDING;
import static dev.talus.commitlog.SegmentFormat.SYNC_MARKER;

import dev.talus.io.CorruptFileException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Replays one segment held in memory. The part of the segment before its last valid sync marker is
 * known to have been complete when it was synced, so any damage there is corruption. After the last
 * marker lies the never-synced tail: concurrent writers may have left holes (a reservation whose
 * writer died) before records that were acknowledged (PERIODIC mode), so a bad frame there is
 * skipped by scanning forward, 8 bytes at a time, for the next frame whose offset-seeded checksum
 * validates; damage with no valid frame after it is a torn tail. Not thread-safe; one use.
 */
final class SegmentReader {
  private static final Logger LOG = LoggerFactory.getLogger(SegmentReader.class);

  private static final int BAD_HEADER = -1;
  private static final int PAST_EOF = -2;
  private static final int BAD_DATA = -3;

  /** What replay found; the caller repairs the file from it. */
  record Result(
      Map<Integer, Long> dirty,
      long fileSize,
      long validEnd,
      long coveredEnd,
      List<long[]> holes,
      int records,
      int skipped) {
    /** The tail needs cutting, hole padding or a final sync marker before the segment is sealed. */
    boolean needsRepair() {
      return validEnd < fileSize || coveredEnd < validEnd || !holes.isEmpty();
    }
  }

  private final Path file;
  private final long segmentId;
  private final ByteBuffer data;
  private final int size;
  private final boolean skipCorrupt;

  SegmentReader(Path file, long segmentId, byte[] bytes, boolean skipCorrupt) {
    this.file = file;
    this.segmentId = segmentId;
    this.data = ByteBuffer.wrap(bytes);
    this.size = bytes.length;
    this.skipCorrupt = skipCorrupt;
  }

  Result replay(ReplayHandler handler) {
    Map<Integer, Long> dirty = new HashMap<>();
    List<long[]> holes = new ArrayList<>();
    int records = 0;
    int skipped = 0;
    int pos = HEADER_SIZE;
    int coveredEnd = HEADER_SIZE;
    int validEnd = HEADER_SIZE;
    int lastMarker = Integer.MIN_VALUE; // computed on the first problem
    while (pos < size) {
      int n = frameAt(pos);
      if (n > 0) {
        int a = data.getInt(pos);
        if (a == SYNC_MARKER) {
          coveredEnd = pos + n;
        } else if (a >= 0) {
          int tables = data.getInt(pos + 4);
          int payloadAt = pos + FRAME_HEADER_SIZE + 4 * tables;
          for (int i = 0; i < tables; i++) {
            dirty.merge(data.getInt(pos + FRAME_HEADER_SIZE + 4 * i), (long) pos, Math::max);
          }
          byte[] payload = new byte[a];
          data.get(payloadAt, payload);
          handler.replay(new CommitLogPosition(segmentId, pos), payload);
          records++;
        }
        pos += n;
        validEnd = pos;
        continue;
      }
      if (lastMarker == Integer.MIN_VALUE) {
        lastMarker = findLastMarker();
      }
      int resumeFrom = n == BAD_DATA ? pos + recordLength(pos) : pos + ALIGN;
      int next = nextValidFrame(resumeFrom);
      if (lastMarker > pos) {
        String what = describe(n) + " in the synced part of segment " + segmentId;
        if (!skipCorrupt) {
          throw new CorruptFileException(
              file,
              pos,
              what + " (a sync marker at offset " + lastMarker + " says it was complete)");
        }
        skipped++;
        LOG.warn("Skipping corrupt commit log record in {} at offset {}: {}", file, pos, what);
        pos = next >= 0 ? next : lastMarker;
        continue;
      }
      if (next < 0) {
        break; // torn tail: nothing valid follows
      }
      LOG.warn(
          "Commit log {}: skipping {} unwritten bytes at offset {} in the unsynced tail (a write"
              + " reserved there never completed)",
          file,
          next - pos,
          pos);
      holes.add(new long[] {pos, next});
      pos = next;
    }
    return new Result(dirty, size, validEnd, coveredEnd, holes, records, skipped);
  }

  /** Length of the valid frame at {@code pos}, or BAD_HEADER, PAST_EOF or BAD_DATA. */
  private int frameAt(int pos) {
    if (pos < HEADER_SIZE || (long) pos + FRAME_HEADER_SIZE > size) {
      return BAD_HEADER;
    }
    int a = data.getInt(pos);
    int b = data.getInt(pos + 4);
    if (data.getInt(pos + 8) != SegmentFormat.headerCrc(segmentId, pos, a, b)) {
      return BAD_HEADER;
    }
    if (a == SYNC_MARKER) {
      return b == 0 && (long) pos + MARKER_SIZE <= size ? MARKER_SIZE : BAD_HEADER;
    }
    if (a == PADDING) {
      if (b < MARKER_SIZE || b % ALIGN != 0) {
        return BAD_HEADER;
      }
      return (long) pos + b <= size ? b : PAST_EOF;
    }
    if (a < 0 || b < 0 || b > MAX_TABLES_PER_RECORD) {
      return BAD_HEADER;
    }
    long len = recordLength(pos);
    if (pos + len > size) {
      return PAST_EOF;
    }
    int dataEnd = FRAME_HEADER_SIZE + 4 * b + a;
    int crc = SegmentFormat.dataCrc(segmentId, pos, data.array(), pos, dataEnd);
    return data.getInt(pos + dataEnd) == crc ? (int) len : BAD_DATA;
  }

  private int recordLength(int pos) {
    long len =
        ((long) FRAME_HEADER_SIZE + 4L * data.getInt(pos + 4) + data.getInt(pos) + 4 + ALIGN - 1)
            & -ALIGN;
    return (int) Math.min(len, Integer.MAX_VALUE - pos);
  }

  private int nextValidFrame(int from) {
    for (int p = from; (long) p + FRAME_HEADER_SIZE <= size; p += ALIGN) {
      if (frameAt(p) > 0) {
        return p;
      }
    }
    return -1;
  }

  private int findLastMarker() {
    int last = -1;
    for (int p = HEADER_SIZE; (long) p + MARKER_SIZE <= size; p += ALIGN) {
      if (data.getInt(p) == SYNC_MARKER && frameAt(p) > 0) {
        last = p;
      }
    }
    return last;
  }

  private static String describe(int code) {
    switch (code) {
      case PAST_EOF:
        return "record runs past the end of the file";
      case BAD_DATA:
        return "record checksum mismatch";
      default:
        return "frame header checksum mismatch";
    }
  }
}
