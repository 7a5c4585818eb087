package dev.talus.commitlog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.talus.CommitLogSync;
import dev.talus.io.NioStorageFs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Cuts the last segment at every byte offset inside its last three records (and the final sync
 * marker), leaving the rest missing, zero-filled or filled with garbage: reopening must replay
 * exactly the whole records before the cut, never fail, and cut the file back.
 */
class TornTailTest {
  enum Fill {
    TRUNCATE,
    ZEROS,
    GARBAGE
  }

  @TempDir Path tmp;

  @ParameterizedTest
  @EnumSource(
      value = CommitLogSync.class,
      names = {"PERIODIC", "BATCH"})
  void everyOffsetInTheLastThreeRecordsRecoversTheWholeRecordsBefore(CommitLogSync mode)
      throws Exception {
    long seed = Long.getLong("talus.seed", new Random().nextLong());
    System.out.println("TornTailTest " + mode + " seed=" + seed);
    Random rnd = new Random(seed);
    CommitLogConfig config =
        CommitLogConfig.builder().syncMode(mode).segmentSize(64 * 1024).build();
    Path original = tmp.resolve("original");
    List<CommitLogPosition> positions = new ArrayList<>();
    List<byte[]> payloads = new ArrayList<>();
    try (CommitLog log = CommitLog.open(new NioStorageFs(), original, config, new Recorder())) {
      for (int i = 0; i < 12; i++) {
        byte[] p = Recorder.numbered(i, rnd.nextInt(60));
        payloads.add(p);
        positions.add(log.append(p, new int[] {1}));
      }
    }
    Path segment;
    try (Stream<Path> s = Files.list(original)) {
      segment = s.sorted().findFirst().orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(segment);
    int n = positions.size();
    long from = positions.get(n - 3).offset();
    int tried = 0;
    for (long cut = from; cut < bytes.length; cut++) {
      for (Fill fill : Fill.values()) {
        Path caseDir = tmp.resolve("case-" + cut + "-" + fill);
        Files.createDirectories(caseDir);
        Path file = caseDir.resolve(segment.getFileName());
        byte[] damaged =
            fill == Fill.TRUNCATE ? java.util.Arrays.copyOf(bytes, (int) cut) : bytes.clone();
        for (int i = (int) cut; fill != Fill.TRUNCATE && i < damaged.length; i++) {
          damaged[i] = fill == Fill.ZEROS ? 0 : (byte) rnd.nextInt(256);
        }
        // A record is whole if its checksummed bytes are unchanged: before the cut, or after it
        // but overwritten with what was there (a zero fill over bytes that were zero, garbage
        // that happens to match). When the file keeps its length (zero or garbage fill) the
        // unchecked alignment padding may be overwritten.
        long changedFrom = cut;
        while (fill != Fill.TRUNCATE
            && changedFrom < bytes.length
            && damaged[(int) changedFrom] == bytes[(int) changedFrom]) {
          changedFrom++;
        }
        int expected = 0;
        for (int i = 0; i < n; i++) {
          int len = payloads.get(i).length;
          long end =
              positions.get(i).offset()
                  + (fill == Fill.TRUNCATE
                      ? SegmentFormat.recordFrameSize(len, 1)
                      : SegmentFormat.FRAME_HEADER_SIZE + 4 + len + 4);
          if (end <= changedFrom) {
            expected = i + 1;
          }
        }
        Files.write(file, damaged);
        Recorder r = new Recorder();
        try (CommitLog log = CommitLog.open(new NioStorageFs(), caseDir, config, r)) {
          assertThat(log.stats().recordsSkippedAsCorrupt()).isZero();
        }
        String ctx = "seed " + seed + " cut " + cut + " " + fill;
        assertThat(r.numbers()).as(ctx).hasSize(expected);
        for (int i = 0; i < expected; i++) {
          assertThat(r.payloads.get(i)).as(ctx).isEqualTo(payloads.get(i));
        }
        long keptEnd =
            expected == 0
                ? 0
                : positions.get(expected - 1).offset()
                    + SegmentFormat.recordFrameSize(payloads.get(expected - 1).length, 1);
        long size = Files.size(file);
        assertThat(size)
            .as(ctx + ": torn bytes cut off")
            .isLessThanOrEqualTo(Math.max(cut, keptEnd) + SegmentFormat.MARKER_SIZE);
        // The repaired segment is sealed: a second open sees the same, without repairs.
        Recorder again = new Recorder();
        try (CommitLog log = CommitLog.open(new NioStorageFs(), caseDir, config, again)) {
          assertThat(log.stats().tornTailsTruncated()).as(ctx).isZero();
        }
        assertThat(again.size()).as(ctx).isEqualTo(expected);
        tried++;
      }
    }
    System.out.println("TornTailTest " + mode + ": " + tried + " torn cases recovered");
  }

  /**
   * PERIODIC writers acknowledge records that follow a reservation whose writer died: replay skips
   * the hole, keeps the records after it, and seals the segment so the next open needs no repair.
   */
  @org.junit.jupiter.api.Test
  void holeInTheUnsyncedTailIsSkippedAndPaddedOver() throws Exception {
    CommitLogConfig config = CommitLogConfig.builder().segmentSize(64 * 1024).build();
    Path dir = tmp.resolve("hole");
    List<CommitLogPosition> positions = new ArrayList<>();
    try (CommitLog log = CommitLog.open(new NioStorageFs(), dir, config, new Recorder())) {
      for (int i = 0; i < 10; i++) {
        positions.add(log.append(Recorder.numbered(i, 30), new int[] {1}));
      }
    }
    Path segment;
    try (Stream<Path> s = Files.list(dir)) {
      segment = s.sorted().findFirst().orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(segment);
    // No sync marker after the header (as if killed before the first periodic sync) ...
    byte[] damaged = java.util.Arrays.copyOf(bytes, bytes.length - SegmentFormat.MARKER_SIZE);
    // ... and record 5 never written.
    int from = (int) positions.get(5).offset();
    int to = (int) positions.get(6).offset();
    java.util.Arrays.fill(damaged, from, to, (byte) 0);
    Files.write(segment, damaged);

    Recorder r = new Recorder();
    try (CommitLog log = CommitLog.open(new NioStorageFs(), dir, config, r)) {
      assertThat(log.stats().holesSkipped()).isEqualTo(1);
      assertThat(log.stats().recordsSkippedAsCorrupt()).isZero();
    }
    assertThat(r.numbers()).containsExactly(0L, 1L, 2L, 3L, 4L, 6L, 7L, 8L, 9L);
    Recorder again = new Recorder();
    try (CommitLog log = CommitLog.open(new NioStorageFs(), dir, config, again)) {
      assertThat(log.stats().holesSkipped()).isZero();
    }
    assertThat(again.numbers()).containsExactly(0L, 1L, 2L, 3L, 4L, 6L, 7L, 8L, 9L);
  }
}
